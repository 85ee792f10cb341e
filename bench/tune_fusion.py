"""Offline grid search of the linear fusion weights on the DEV split (issue 4).

``bench.retrieval --dump FILE`` records every retriever's candidate list per query
(the pool recipe ``DUMP_POOL``: no MMR, no four-factor, no time filter). This script
replays the fusion of ``neuromem.recall.fusion`` — the same ``fuse``,
``neighbour_context`` and ``linear_base`` the pipeline runs — for a grid of weights,
scores each on the DEV split (even indices) against the simple baselines computed
from the same lists (BM25 alone, dense alone, their RRF), and prints the best
settings with their held-out TEST figures. The objective is the smallest gain over
the best baseline across the targets of issue 4 (LongMemEval session and turn
recall_all@5, MADial zh recall@5, and MADial en recall@5 when its dump is given), ties
broken by the summed gain::

    .venv/bin/python -m bench.tune_fusion --lme /tmp/lme.json --madial /tmp/madial_zh.json \
        --madial-en /tmp/madial_en.json
"""

from __future__ import annotations

import argparse
import itertools
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bench.metrics import collapse_ranking, lme_scores, madial_scores

from neuromem.recall.fusion import Ranked, fuse, linear_base, neighbour_context, ranked, rrf_score
from neuromem.recall.recipes import HYBRID, RecallRecipe, derive

DEPTH = 50
TARGETS = ("lme session_recall_all@5", "lme turn_recall_all@5", "madial recall@5", "madial-en recall@5")


def lists_of(item: dict[str, Any]) -> dict[str, list[Ranked]]:
    return {name: ranked([(d, s) for d, s in pairs]) for name, pairs in item["lists"].items()}


def linear_ranking(item: dict[str, Any], lists: dict[str, list[Ranked]], recipe: RecallRecipe) -> list[str]:
    use = {n: hits for n, hits in lists.items() if recipe.linear_weights.get(n, 0.0) > 0 or n == "vector"}
    fused = fuse(use, recipe)
    if recipe.neighbour_weight > 0 and item["next"]:
        pool = set(sorted(fused, key=lambda i: (-fused[i].lin, i))[: recipe.neighbour_pool])
        adjacency: dict[str, list[str]] = {}
        for a, b in item["next"]:
            if a in pool and b in pool:
                adjacency.setdefault(a, []).append(b)
                adjacency.setdefault(b, []).append(a)
        neighbour_context(fused, adjacency)  # type: ignore[arg-type]
    return sorted(fused, key=lambda i: (-linear_base(fused[i], recipe), i))[:DEPTH]  # type: ignore[arg-type, return-value]


def baseline_ranking(lists: dict[str, list[Ranked]], name: str) -> list[str]:
    if name in ("bm25", "dense"):
        return [h.id for h in lists.get("bm25" if name == "bm25" else "vector", [])][:DEPTH]  # type: ignore[misc]
    score: dict[str, float] = {}
    for n in ("bm25", "vector"):
        for h in lists.get(n, []):
            score[h.id] = score.get(h.id, 0.0) + rrf_score(h.rank, 60)  # type: ignore[index]
    return sorted(score, key=lambda i: (-score[i], i))[:DEPTH]


def scores(item: dict[str, Any], ranking: list[str]) -> dict[str, float]:
    if "gold" in item:
        return {f"{item['_target']} recall@5": madial_scores(ranking, set(item["gold"]), (5,))["recall@5"]}
    sessions = item["sessions"]
    turn = lme_scores(ranking, set(item["gold_turns"]), (5,))["recall_all@5"]
    sess = lme_scores(collapse_ranking(ranking, sessions.__getitem__), set(item["gold_sessions"]), (5,))
    return {"lme turn_recall_all@5": turn, "lme session_recall_all@5": sess["recall_all@5"]}


def mean_scores(items: Sequence[dict[str, Any]], rank_of: Any) -> dict[str, float]:
    sums: dict[str, float] = {}
    for item in items:
        for k, v in scores(item, rank_of(item)).items():
            sums[k] = sums.get(k, 0.0) + v
    counts: dict[str, int] = {}
    for item in items:
        counts[item["_target"]] = counts.get(item["_target"], 0) + 1
    return {k: v / counts[k.split()[0]] for k, v in sums.items()}


def grid() -> list[RecallRecipe]:
    """Score normalisation (min-max or clipped z-score), BM25 weight, weight of the focus (current
    message) vector list, BM25 over the focus lines (as a share of the BM25 weight), neighbour weight.

    Left out on purpose: the PPR graph list (its walk costs ~7 ms per recall; the neighbour context
    is the cheap use of the graph)."""
    out = []
    for norm, bm, vf, bf, nb in itertools.product(
        ("minmax", "zscore"),
        (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.8, 1.0),
        (0.0, 0.25, 0.5, 1.0),
        (0.0, 0.25, 0.5),
        (0.0, 0.1, 0.2),
    ):
        weights = {
            "vector": 1.0,
            "bm25": bm,
            "vector_focus": vf,
            "bm25_focus": bf * bm,
            "traits": 1.0,
            "raw": bm,
        }
        name = f"{norm} bm25={bm} vfocus={vf} bfocus={bf}·bm25 neighbour={nb}"
        out.append(
            derive(
                HYBRID, name, fusion="linear", normalization=norm, linear_weights=weights, neighbour_weight=nb
            )
        )
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--lme", type=Path, action="append", default=[])
    parser.add_argument("--madial", type=Path, action="append", default=[], help="MADial zh dump")
    parser.add_argument(
        "--madial-en", type=Path, action="append", default=[], help="MADial en dump (optional)"
    )
    parser.add_argument("--top", type=int, default=15)
    args = parser.parse_args(argv)
    sources = [(p, "lme") for p in args.lme] + [(p, "madial") for p in args.madial]
    sources += [(p, "madial-en") for p in args.madial_en]
    items = [{**i, "_target": target} for p, target in sources for i in json.loads(p.read_text())]
    for item in items:
        item["_lists"] = lists_of(item)
    parts = {s: [i for i in items if i["split"] == s] for s in ("dev", "test")}
    print({s: len(v) for s, v in parts.items()})
    base = {
        s: {
            b: mean_scores(v, lambda i, b=b: baseline_ranking(i["_lists"], b))
            for b in ("bm25", "dense", "rrf")
        }
        for s, v in parts.items()
    }
    targets = [t for t in TARGETS if t.split()[0] in {i["_target"] for i in items}]
    best_base = {s: {t: max(base[s][b].get(t, 0.0) for b in base[s]) for t in targets} for s in parts}
    for s in parts:
        print(s, "baselines", json.dumps(base[s]))
    rows = []
    for recipe in grid():
        dev = mean_scores(parts["dev"], lambda i, r=recipe: linear_ranking(i, i["_lists"], r))
        gains = [dev.get(t, 0.0) - best_base["dev"][t] for t in targets]
        rows.append((min(gains), sum(gains), recipe, dev))
    rows.sort(key=lambda r: (-r[0], -r[1], r[2].name))
    for worst, total, recipe, dev in rows[: args.top]:
        test = mean_scores(parts["test"], lambda i, r=recipe: linear_ranking(i, i["_lists"], r))
        fmt = lambda d: " ".join(f"{t.split()[-1]}={d.get(t, float('nan')):.3f}" for t in targets)  # noqa: E731
        print(
            f"{recipe.name} | dev min gain {worst:+.3f} sum {total:+.3f} | dev {fmt(dev)} | test {fmt(test)}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
