"""Recall evidence through the product path (issue 14): ``search`` and ``recall_prompt`` on LongMemEval.

Unlike ``bench.retrieval``'s direct ingestion (one memory per turn), each haystack session goes
through ``Memory.ingest`` as a user would send it — rule extraction, importance threshold, turn
vectors — with the session date as the turns' time and the LongMemEval turn id as each message's
``doc_id``. ``--corpus user`` ingests the user turns (the official protocol), ``--corpus all``
every turn (the assistant's too; gold then includes assistant evidence turns, so
``single-session-assistant`` questions count).

Scored per question, for each system (a recall recipe over the same store):

- ``search`` at turn and session level (``recall_all@k``, ``ndcg_any@10``): a hit stands for the
  turns it carries (``SearchHit.turns``), in hit order;
- evidence coverage of a prompt block at 500 / 1,000 / 2,000 / 4,000 tokens: the share of gold
  turns at least half of whose distinct word pairs (consecutive ``text.tokenize`` tokens) are in the
  block. The product's
  block is ``recall_prompt``; the baseline's is its ranking's turns packed greedily, whole, in rank
  order, while they fit (``- text`` lines, the same token counter).

The baseline is ``turns-rrf`` (BM25 and dense over the raw turns, RRF); every difference against
it comes with a paired bootstrap 95% confidence interval, per split (even question index = DEV,
odd = held-out). Run from the repository root::

    PYTHONPATH=. .venv/bin/python -m bench.retrieval evidence --limit 40 --corpus user
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from bench.datasets import (
    evidence_session_ids,
    evidence_turn_ids,
    load_longmemeval,
    retrieval_eligible,
    session_of_turn,
)
from bench.metrics import collapse_ranking, lme_scores

from neuromem import Memory
from neuromem.embed.base import Embedder
from neuromem.recall.recipes import HYBRID, HYBRID_TUNED, TURNS_RRF, UNITS_RRF, RecallRecipe, derive
from neuromem.text.token_count import count_tokens
from neuromem.text.tokenize import tokenize

BUDGETS = (500, 1000, 2000, 4000)
DEPTH = 50
BASELINE = "turns RRF (baseline)"
COVERED_SHARE = 0.5  # a gold turn is in the block when half of its distinct word pairs are


#: The systems a run scores unless ``--systems`` names others
MAIN = (
    "full (hybrid)",
    "previous default (hybrid-tuned)",
    "full −turn channel",
    "full +second hop",
    "units RRF (memories + turns)",
)


def systems() -> dict[str, RecallRecipe]:
    """The default, its ablations, the previous (tuned) default with each of its extras removed in turn
    (session 7's ablation: docs/benchmarks.md), and the baselines."""
    return {
        "full (hybrid)": HYBRID,
        "full −turn channel": derive(HYBRID, "no-turns", use_turns=False),
        "full +second hop": derive(HYBRID, "plus-hop", second_hop=True),
        "full +four-factor": derive(HYBRID, "plus-4f", four_factor=True),
        # issue 21 item 2 / issue 22 item 6: the near-duplicate grouping of ``truth.newer_first`` and the floor
        "full −near-duplicate grouping": derive(HYBRID, "no-dup", same_subject_cosine=1.01),
        "full cosine 0.95": derive(HYBRID, "cos95", same_subject_cosine=0.95),
        "full cosine 0.88": derive(HYBRID, "cos88", same_subject_cosine=0.88),
        "full −relevance floor": derive(HYBRID, "no-floor", relevance_floor=0.0),
        "full floor 0.1": derive(HYBRID, "floor10", relevance_floor=0.1),
        "full floor 0.3": derive(HYBRID, "floor30", relevance_floor=0.3),
        "previous default (hybrid-tuned)": HYBRID_TUNED,
        "tuned −time boost": derive(HYBRID_TUNED, "no-time", time_boost=0.0, time_filter=False),
        "tuned −session spread": derive(HYBRID_TUNED, "no-spread", session_decay=1.0),
        "tuned −MMR": derive(HYBRID_TUNED, "no-mmr", mmr=False),
        "tuned −four-factor": derive(HYBRID_TUNED, "no-4f", four_factor=False),
        "units RRF (memories + turns)": UNITS_RRF,
        BASELINE: TURNS_RRF,
    }


class DiskCachedEmbedder(Embedder):
    """The bench's embedder as the product sees it: passages from the disk cache (``CachedEmbedder``),
    queries from the inner embedder (memoised by ``QueryCachedEmbedder``)."""

    def __init__(self, queries: Embedder, passages: Any) -> None:
        self.queries, self.cache = queries, passages
        self.name, self.dim = queries.name, queries.dim

    def embed_batch(self, texts: Sequence[str], *, kind: Any) -> np.ndarray:
        if kind == "query":
            return np.stack([self.queries.embed_query(t) for t in texts])
        return self.cache.passages(list(texts))

    def embed_query(self, text: str) -> np.ndarray:
        return self.queries.embed_query(text)


def hidden(label: str) -> str:
    """A LongMemEval id as the engine sees it: hashed, so no ``answer_…`` label (which names the evidence
    sessions) ever reaches the store, the ranking or the prompt."""
    return hashlib.sha256(label.encode()).hexdigest()[:16]


def ingest_question(memory: Memory, user: str, q: Any, user_only: bool) -> dict[Any, str]:
    """Every session of the haystack through ``Memory.ingest`` under hashed ids (:func:`hidden`); returns
    message id → LongMemEval turn id."""
    turn_of: dict[str, str] = {}
    for s in q.sessions:
        turns = [
            {
                "role": t.role,
                "content": t.content,
                "timestamp": s.date + dt.timedelta(seconds=n),
                "metadata": {"doc_id": hidden(t.turn_id)},
            }
            for n, t in enumerate(s.turns)
            if t.content.strip() and (t.role == "user" or not user_only)
        ]
        turn_of.update({hidden(t.turn_id): t.turn_id for t in s.turns})
        if turns:
            memory.ingest(turns, user_id=user, session_id=hidden(s.session_id))
    while memory.pending_embeddings(user_id=user):  # turn vectors computed after the ingest (background)
        memory.flush()
    with memory.runtime.db.connection() as conn:
        rows = conn.execute(
            "SELECT id, metadata->>'doc_id' AS doc FROM conversation_messages WHERE user_id = %s", (user,)
        ).fetchall()
    return {r["id"]: turn_of[r["doc"]] for r in rows if r["doc"] in turn_of}


def ranking(hits: Sequence[Any], doc_of: dict[Any, str]) -> list[str]:
    out: list[str] = []
    for h in hits:
        out.extend(doc_of[t.id] for t in h.turns if t.id in doc_of and doc_of[t.id] not in out)
    return out


def greedy_block(hits: Sequence[Any], budget: int) -> str:
    """The baseline's block: each hit's turn text, whole, in rank order, while it fits."""
    lines: list[str] = []
    used = 0
    for h in hits:
        line = "- " + " ".join(h.memory.content.split())
        cost = count_tokens(line + "\n")
        if used + cost <= budget:
            lines.append(line)
            used += cost
    return "\n".join(lines)


def bigrams(text: str) -> set[tuple[str, ...]]:
    """Consecutive word pairs (``text.tokenize``, stopwords kept): order-aware, so a large block does not
    cover a turn by holding its common words somewhere."""
    words = tokenize(text, drop_stopwords=False)
    return {tuple(words[i : i + 2]) for i in range(len(words) - 1)} or {tuple(words)}


def coverage(block: str, gold_texts: Sequence[str]) -> float:
    pairs = bigrams(block)
    covered = 0
    for text in gold_texts:
        own = bigrams(text)
        covered += bool(own) and len(own & pairs) >= COVERED_SHARE * len(own)
    return covered / max(1, len(gold_texts))


def score_question(
    memory: Memory,
    user: str,
    q: Any,
    doc_of: dict[Any, str],
    user_only: bool,
    recipes: dict[str, RecallRecipe],
    budgets: Sequence[int] = BUDGETS,
) -> dict[str, dict[str, float]]:
    gold_turns = evidence_turn_ids(q, user_only=user_only)
    gold_sessions = evidence_session_ids(q, user_only=user_only)
    texts = {t.turn_id: t.content for t in q.turns()}
    gold_texts = [texts[t] for t in sorted(gold_turns)]
    out: dict[str, dict[str, float]] = {}
    for name, recipe in recipes.items():
        results = memory.search(
            q.question,
            user_id=user,
            limit=max(DEPTH, 200 if name == BASELINE else 0),
            recipe=recipe,
            reference_time=q.question_date,
        )
        ranked = ranking(results.hits[:DEPTH], doc_of)
        scores = {f"turn_{k}": v for k, v in lme_scores(ranked, gold_turns, (5, 10)).items()}
        sessions = collapse_ranking(ranked, session_of_turn)
        scores.update({f"session_{k}": v for k, v in lme_scores(sessions, gold_sessions, (5, 10)).items()})
        for budget in budgets:
            if name == BASELINE:
                block = greedy_block(results.hits, budget)
            else:
                block = memory.recall_prompt(
                    q.question,
                    user_id=user,
                    token_budget=budget,
                    recipe=recipe,
                    reference_time=q.question_date,
                ).text
            scores[f"coverage@{budget}"] = coverage(block, gold_texts)
            scores[f"tokens@{budget}"] = float(count_tokens(block))
        out[name] = scores
    return out


def paired_ci(diffs: Sequence[float], rounds: int = 2000, seed: int = 0) -> tuple[float, float, float]:
    """Mean of paired differences and its bootstrap 95% interval."""
    values = np.asarray(diffs, dtype=float)
    if values.size == 0:
        return float("nan"), float("nan"), float("nan")
    rng = np.random.default_rng(seed)
    means = values[rng.integers(0, values.size, size=(rounds, values.size))].mean(axis=1)
    return float(values.mean()), float(np.percentile(means, 2.5)), float(np.percentile(means, 97.5))


METRICS = (
    "session_recall_all@5",
    "session_recall_all@10",
    "turn_recall_all@5",
    "turn_recall_all@10",
    "turn_ndcg_any@10",
    *(f"coverage@{b}" for b in BUDGETS),
)


def report(
    per_q: dict[str, dict[str, dict[str, float]]], types: dict[str, str], splits: dict[str, str]
) -> str:
    """Markdown: per split, each system's means and its paired difference to the baseline with the CI."""
    first = next(iter(per_q.values()))[BASELINE]
    metrics = [m for m in METRICS if m in first]
    budgets = [b for b in BUDGETS if f"coverage@{b}" in first]
    md = ""
    for part in ("dev", "test", "all"):
        ids = [i for i in per_q if part == "all" or splits[i] == part]
        if not ids:
            continue
        md += f"\n### {'held-out' if part == 'test' else part} (n = {len(ids)})\n\n"
        md += "| system | " + " | ".join(metrics) + " |\n|---|" + "---:|" * len(metrics) + "\n"
        names = list(per_q[ids[0]])
        for name in names:
            cells = []
            for m in metrics:
                mine = [per_q[i][name][m] for i in ids]
                cell = f"{np.mean(mine):.3f}"
                if name != BASELINE:
                    mean, lo, hi = paired_ci([per_q[i][name][m] - per_q[i][BASELINE][m] for i in ids])
                    cell += f" ({mean:+.3f} [{lo:+.3f}, {hi:+.3f}])"
                cells.append(cell)
            md += f"| {name} | " + " | ".join(cells) + " |\n"
        if budgets:
            tokens = {
                n: {b: np.mean([per_q[i][n][f"tokens@{b}"] for i in ids]) for b in budgets} for n in names
            }
            md += (
                "\nmean block tokens: "
                + "; ".join(f"{n}: " + "/".join(f"{tokens[n][b]:.0f}" for b in budgets) for n in names)
                + "\n"
            )
    by_type: dict[str, list[str]] = {}
    for i in per_q:
        by_type.setdefault(types[i], []).append(i)
    cover = "coverage@2000" if "coverage@2000" in first else None
    names = list(next(iter(per_q.values())))
    md += (
        f"\n### by question type (all; turn recall_all@10{' / coverage@2000' if cover else ''})\n\n| type | n | "
        + " | ".join(names)
        + " |\n|---|---:|"
        + "---:|" * len(names)
        + "\n"
    )
    for t, ids in sorted(by_type.items()):
        cells = [
            f"{np.mean([per_q[i][n]['turn_recall_all@10'] for i in ids]):.3f}"
            + (f" / {np.mean([per_q[i][n][cover] for i in ids]):.3f}" if cover else "")
            for n in names
        ]
        md += f"| {t} | {len(ids)} | " + " | ".join(cells) + " |\n"
    return md


def run(memory: Memory, args: argparse.Namespace) -> dict[str, Any]:
    user_only = args.corpus == "user"
    loaded = list(load_longmemeval(limit=args.limit))
    splits = {q.question_id: "dev" if i % 2 == 0 else "test" for i, q in enumerate(loaded)}
    wanted = args.systems.split(",") if args.systems else MAIN
    recipes = {n: r for n, r in systems().items() if n in wanted or n == BASELINE}
    per_q: dict[str, dict[str, dict[str, float]]] = {}
    types: dict[str, str] = {}
    wanted_types = set(args.types.split(",")) if getattr(args, "types", None) else set()
    if getattr(args, "resume", False) and partial(args).exists():  # go on from an interrupted run
        saved = json.loads(partial(args).read_text())
        per_q, types = saved["per_question"], saved["types"]
    started = time.perf_counter()
    for n, q in enumerate(loaded):
        if not (args.split == "all" or splits[q.question_id] == args.split) or not retrieval_eligible(
            q, user_only
        ):
            continue
        if q.question_id in per_q or (wanted_types and q.question_type not in wanted_types):
            continue
        user = f"ev-{q.question_id}"
        doc_of = ingest_question(memory, user, q, user_only)
        per_q[q.question_id] = score_question(memory, user, q, doc_of, user_only, recipes, args.budgets)
        types[q.question_id] = q.question_type
        memory.runtime.access.flush()
        memory.reset(user_id=user)
        print(
            f"[{n + 1}/{len(loaded)}] {q.question_id} {time.perf_counter() - started:.0f}s", file=sys.stderr
        )
        partial(args).write_text(json.dumps({"per_question": per_q, "types": types, "splits": splits}))
    return {"per_question": per_q, "types": types, "splits": splits}


def partial(args: argparse.Namespace) -> Path:
    """The results so far, rewritten after every question: a long run can be read before it ends
    (``python -m bench.evidence FILE`` prints its report)."""
    args.out.mkdir(parents=True, exist_ok=True)
    return (
        args.out
        / f"evidence_{args.corpus}_{args.limit or 'all'}{'_' + args.tag if args.tag else ''}.partial.json"
    )


def write(result: dict[str, Any], args: argparse.Namespace, meta: dict[str, Any]) -> str:
    md = f"## evidence — LongMemEval, corpus {args.corpus}, first {args.limit} questions\n" + report(
        result["per_question"], result["types"], result["splits"]
    )
    args.out.mkdir(parents=True, exist_ok=True)
    stem = args.out / f"evidence_{args.corpus}_{args.limit or 'all'}{'_' + args.tag if args.tag else ''}"
    stem.with_suffix(".json").write_text(json.dumps({"meta": meta, **result}, indent=1))
    stem.with_suffix(".md").write_text(md)
    return md


COMPARED = ("session_recall_all@5", "turn_recall_all@5", "turn_recall_all@10", "coverage@2000")


def compare(before: dict[str, Any], after: dict[str, Any], system: str = "full (hybrid)") -> str:
    """Markdown: ``system`` of two runs over the same questions, per question type and split — the mean
    before → after and the paired difference with its bootstrap 95% interval."""
    ids = [i for i in before["per_question"] if i in after["per_question"]]
    md = f"| type | split | n | {' | '.join(COMPARED)} |\n|---|---|---:|" + "---|" * len(COMPARED) + "\n"
    for kind in sorted({before["types"][i] for i in ids}):
        for part in ("dev", "test"):
            chosen = [i for i in ids if before["types"][i] == kind and before["splits"][i] == part]
            if not chosen:
                continue
            cells = []
            for m in COMPARED:
                old = [before["per_question"][i][system][m] for i in chosen]
                new = [after["per_question"][i][system][m] for i in chosen]
                mean, lo, hi = paired_ci([b - a for a, b in zip(old, new, strict=True)])
                cells.append(f"{np.mean(old):.3f} → {np.mean(new):.3f} ({mean:+.3f} [{lo:+.3f}, {hi:+.3f}])")
            md += (
                f"| {kind} | {'held-out' if part == 'test' else part} | {len(chosen)} | "
                + " | ".join(cells)
                + " |\n"
            )
    return md


__all__ = ["DiskCachedEmbedder", "Path", "compare", "run", "write"]

if (
    __name__ == "__main__"
):  # the report of a (partial) result file; with two files, the second against the first
    saved = json.loads(Path(sys.argv[1]).read_text())
    if len(sys.argv) > 2:
        print(compare(saved, json.loads(Path(sys.argv[2]).read_text()), *sys.argv[3:4]))
    else:
        print(report(saved["per_question"], saved["types"], saved["splits"]))
