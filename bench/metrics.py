"""Retrieval-quality metrics for the benchmarks (MISSION capability 8 "Measure").

Pure functions over a ranked list of ids and a set of gold ids; no I/O.

LongMemEval (Wu et al., ICLR 2025) — ``recall_any_at_k``, ``recall_all_at_k`` and
``ndcg_any_at_k`` reproduce the official ``src/retrieval/eval_utils.py``
(``evaluate_retrieval``) on the same inputs:

- ``recall_any@k`` = 1 if any gold id is in the top k, ``recall_all@k`` = 1 if
  every gold id is; with no gold at all they are 0 and 1 (Python's ``any([])``
  and ``all([])``, as upstream — callers skip such questions, see
  ``bench.datasets.retrieval_eligible``).
- ``ndcg_any@k`` uses binary relevance and upstream's DCG,
  ``rel_1 + Σ_{i≥2} rel_i / log2(i)`` (1-based ranks): ranks 1 and 2 carry the
  same weight, so a single gold item at rank 2 still scores 1.0. The ideal DCG
  puts ``min(k, |gold|)`` relevant items first; upstream counts the gold items
  present in the corpus, which is the same as long as every gold id is in the
  corpus (true for LongMemEval's gold turns and sessions).

MADial-Bench (He et al., NAACL 2025) — its ``embedding_score_new.py`` reports
Recall, Precision, MAP, MRR and nDCG at 1/3/5/10. ``recall_at_k``,
``precision_at_k``, ``average_precision_at_k`` and ``mrr`` follow it. ``ndcg_at_k``
is the standard nDCG (discount ``log2(i + 1)``, ideal from the gold count);
``ndcg_at_k(..., ideal="retrieved")`` reproduces upstream's variant, whose ideal
DCG re-sorts only the retrieved top k (so it rewards ordering, not coverage).

A gold id that appears several times in the ranking counts once, at its first
position (upstream's MAP does the same); rankings are otherwise taken as given.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar

__all__ = [
    "MetricReport",
    "QuestionScores",
    "aggregate",
    "average_precision_at_k",
    "collapse_ranking",
    "lme_scores",
    "madial_scores",
    "mrr",
    "ndcg_any_at_k",
    "ndcg_at_k",
    "precision_at_k",
    "recall_all_at_k",
    "recall_any_at_k",
    "recall_at_k",
]

T = TypeVar("T", bound=Hashable)
OVERALL = "overall"


def _check_k(k: int) -> int:
    if k < 1:
        raise ValueError(f"k must be >= 1, got {k}")
    return k


def _first_hits(ranked_ids: Sequence[T], gold: Collection[T], k: int) -> list[int]:
    """0/1 relevance of the top ``k`` positions, each gold id counted at its first position only."""
    seen: set[T] = set()
    rels: list[int] = []
    for doc in ranked_ids[:k]:
        hit = doc in gold and doc not in seen
        if hit:
            seen.add(doc)
        rels.append(int(hit))
    return rels


# --------------------------------------------------------------------------- LongMemEval (official)


def recall_any_at_k(ranked_ids: Sequence[T], gold_ids: Collection[T], k: int) -> float:
    """1.0 if at least one gold id is in the top ``k`` (LongMemEval ``recall_any@k``)."""
    top = set(ranked_ids[: _check_k(k)])
    return float(any(g in top for g in gold_ids))


def recall_all_at_k(ranked_ids: Sequence[T], gold_ids: Collection[T], k: int) -> float:
    """1.0 if every gold id is in the top ``k`` (LongMemEval ``recall_all@k``; 1.0 for empty gold)."""
    top = set(ranked_ids[: _check_k(k)])
    return float(all(g in top for g in gold_ids))


def _dcg_lme(rels: Sequence[float]) -> float:
    # upstream: relevances[0] + sum(relevances[1:] / log2(arange(2, n + 1)))
    return sum(r if i == 0 else r / math.log2(i + 1) for i, r in enumerate(rels))


def ndcg_any_at_k(ranked_ids: Sequence[T], gold_ids: Collection[T], k: int) -> float:
    """LongMemEval ``ndcg_any@k``: binary relevance, upstream discount (see module docstring)."""
    gold = set(gold_ids)
    ideal = _dcg_lme([1.0] * min(_check_k(k), len(gold)))
    if ideal == 0:
        return 0.0
    return _dcg_lme(_first_hits(ranked_ids, gold, k)) / ideal


def collapse_ranking(ranked_ids: Iterable[str], key: Callable[[str], str]) -> list[str]:
    """Map a ranking onto coarser ids (turn → session), keeping each one's first position.

    ``collapse_ranking(turn_ranking, session_of)[:k]`` are the first ``k``
    distinct sessions, which is what upstream's ``evaluate_retrieval_turn2session``
    feeds to ``recall_any``/``recall_all`` (it widens k until k distinct sessions
    are covered). Its nDCG differs slightly: upstream scores every turn of a gold
    session inside the widened window, this scores each session once.
    """
    seen: set[str] = set()
    out: list[str] = []
    for doc in ranked_ids:
        coarse = key(doc)
        if coarse not in seen:
            seen.add(coarse)
            out.append(coarse)
    return out


# --------------------------------------------------------------------------- MADial-Bench and general IR


def recall_at_k(ranked_ids: Sequence[T], gold_ids: Collection[T], k: int) -> float:
    """Fraction of the gold ids found in the top ``k``; 0.0 for empty gold (upstream would divide by zero)."""
    gold = set(gold_ids)
    if not gold:
        return 0.0
    return len(set(ranked_ids[: _check_k(k)]) & gold) / len(gold)


def precision_at_k(ranked_ids: Sequence[T], gold_ids: Collection[T], k: int) -> float:
    """Distinct gold ids in the top ``k``, over ``k`` (MADial upstream: over ``k`` even if fewer were returned)."""
    return len(set(ranked_ids[: _check_k(k)]) & set(gold_ids)) / k


def average_precision_at_k(ranked_ids: Sequence[T], gold_ids: Collection[T], k: int) -> float:
    """AP@k as MADial computes it: mean precision at each hit, over ``min(|gold|, k)``."""
    gold = set(gold_ids)
    if not gold:
        return 0.0
    hits = 0
    total = 0.0
    for i, rel in enumerate(_first_hits(ranked_ids, gold, _check_k(k))):
        if rel:
            hits += 1
            total += hits / (i + 1)
    return total / min(len(gold), k)


def mrr(ranked_ids: Sequence[T], gold_ids: Collection[T], k: int | None = None) -> float:
    """Reciprocal rank of the first gold id (within the top ``k`` if given), else 0.0."""
    gold = set(gold_ids)
    top = ranked_ids if k is None else ranked_ids[: _check_k(k)]
    for i, doc in enumerate(top):
        if doc in gold:
            return 1.0 / (i + 1)
    return 0.0


def _dcg(rels: Sequence[float]) -> float:
    return sum(r / math.log2(i + 2) for i, r in enumerate(rels))


def ndcg_at_k(
    ranked_ids: Sequence[T],
    gold_ids: Collection[T],
    k: int,
    ideal: Literal["gold", "retrieved"] = "gold",
) -> float:
    """Standard binary nDCG@k: ``Σ rel_i / log2(i + 1)`` over the ideal ordering.

    ``ideal="gold"`` (default) puts ``min(k, |gold|)`` hits first — the usual
    definition. ``ideal="retrieved"`` sorts the retrieved top-k relevances, as
    MADial-Bench's ``embedding_score_new.py`` does.
    """
    gold = set(gold_ids)
    rels = _first_hits(ranked_ids, gold, _check_k(k))
    if ideal == "gold":
        best = _dcg([1.0] * min(k, len(gold)))
    elif ideal == "retrieved":
        best = _dcg(sorted(rels, reverse=True))
    else:
        raise ValueError(f"ideal must be 'gold' or 'retrieved', got {ideal!r}")
    return _dcg(rels) / best if best else 0.0


# --------------------------------------------------------------------------- score bundles


def lme_scores(
    ranked_ids: Sequence[T], gold_ids: Collection[T], ks: Iterable[int] = (1, 3, 5, 10, 30, 50)
) -> dict[str, float]:
    """The official LongMemEval metric set: ``recall_any@k``, ``recall_all@k``, ``ndcg_any@k`` for each k."""
    out: dict[str, float] = {}
    for k in ks:
        out[f"recall_any@{k}"] = recall_any_at_k(ranked_ids, gold_ids, k)
        out[f"recall_all@{k}"] = recall_all_at_k(ranked_ids, gold_ids, k)
        out[f"ndcg_any@{k}"] = ndcg_any_at_k(ranked_ids, gold_ids, k)
    return out


def madial_scores(
    ranked_ids: Sequence[T], gold_ids: Collection[T], ks: Iterable[int] = (1, 3, 5, 10)
) -> dict[str, float]:
    """MADial-Bench's metric set at each k: recall, precision, MAP, MRR and (standard) nDCG."""
    out: dict[str, float] = {}
    for k in ks:
        out[f"recall@{k}"] = recall_at_k(ranked_ids, gold_ids, k)
        out[f"precision@{k}"] = precision_at_k(ranked_ids, gold_ids, k)
        out[f"map@{k}"] = average_precision_at_k(ranked_ids, gold_ids, k)
        out[f"mrr@{k}"] = mrr(ranked_ids, gold_ids, k)
        out[f"ndcg@{k}"] = ndcg_at_k(ranked_ids, gold_ids, k)
    return out


# --------------------------------------------------------------------------- aggregation


@dataclass(frozen=True, slots=True)
class QuestionScores:
    """The metric values of one benchmark question."""

    question_id: str
    question_type: str
    scores: Mapping[str, float]


@dataclass(frozen=True, slots=True)
class MetricReport:
    """Mean of every metric per question type and over all questions (micro average).

    ``overall`` averages questions, not types (as LongMemEval's script does);
    ``counts`` gives how many questions each mean covers.
    """

    metrics: tuple[str, ...]
    overall: Mapping[str, float]
    by_type: Mapping[str, Mapping[str, float]]
    counts: Mapping[str, int]
    meta: Mapping[str, Any] = field(default_factory=dict)

    @property
    def n(self) -> int:
        return self.counts.get(OVERALL, 0)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-serialisable dict (plain str/int/float values)."""
        return {
            "metrics": list(self.metrics),
            "n": self.n,
            "overall": {m: float(v) for m, v in self.overall.items()},
            "by_type": {t: {m: float(v) for m, v in s.items()} for t, s in self.by_type.items()},
            "counts": dict(self.counts),
            "meta": dict(self.meta),
        }

    def to_markdown(self, metrics: Sequence[str] | None = None, digits: int = 3) -> str:
        """A markdown table: one row per question type, then the overall row."""
        cols = list(metrics if metrics is not None else self.metrics)
        header = "| type | n | " + " | ".join(cols) + " |"
        sep = "|---|---:|" + "---:|" * len(cols)
        rows = [header, sep]
        for name, values in [*self.by_type.items(), (OVERALL, self.overall)]:
            cells = [f"{values[m]:.{digits}f}" if m in values else "" for m in cols]
            label = f"**{name}**" if name == OVERALL else name
            rows.append(f"| {label} | {self.counts.get(name, 0)} | " + " | ".join(cells) + " |")
        return "\n".join(rows) + "\n"


def aggregate(results: Iterable[QuestionScores], meta: Mapping[str, Any] | None = None) -> MetricReport:
    """Average each metric per question type and overall.

    A metric missing from some questions is averaged over the questions that
    have it. Types are listed in sorted order; metrics in first-seen order.
    """
    metrics: dict[str, None] = {}
    sums: dict[str, dict[str, float]] = {}
    ns: dict[str, dict[str, int]] = {}
    counts: dict[str, int] = {}
    for r in results:
        for group in (r.question_type, OVERALL):
            counts[group] = counts.get(group, 0) + 1
            s = sums.setdefault(group, {})
            n = ns.setdefault(group, {})
            for m, v in r.scores.items():
                metrics.setdefault(m)
                s[m] = s.get(m, 0.0) + float(v)
                n[m] = n.get(m, 0) + 1

    def means(group: str) -> dict[str, float]:
        return {m: sums[group][m] / ns[group][m] for m in metrics if m in sums.get(group, {})}

    types = sorted(g for g in counts if g != OVERALL)
    return MetricReport(
        metrics=tuple(metrics),
        overall=means(OVERALL),
        by_type={t: means(t) for t in types},
        counts={**{t: counts[t] for t in types}, OVERALL: counts.get(OVERALL, 0)},
        meta=dict(meta or {}),
    )
