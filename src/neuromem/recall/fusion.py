"""Fusion and scoring, pure functions (seed 000 §6.1, seed 001 §6.1, seed 003 §5.3, §18).

Each retriever hands over a ranked list of ``(id, score)``. Fusion turns the lists
into one score per memory:

- RRF: ``Σ_r w_r / (rrf_k + rank_r)`` with 1-based ranks (seed 000 §6.1).
- λ-sum: ``λ1·BM25 + λ2·Vec + λ3·Graph`` over min-max normalised retriever scores
  (seed 003 §5.3); λ of retrievers that did not run are dropped and the rest
  renormalised, which is exactly the formula variants of the degradation matrix
  (seed 003 §18). The raw fallback counts as lexical, traits as vector.
- linear (score-level fusion): ``Σ_r w_r · norm_r(score)`` with per-retriever weights
  (dense dominates, BM25 an additive boost) and ``norm`` the recipe's ``normalization``:
  min-max over the list, or the clipped z-score ``max(0, (s − mean_r) / std_r)`` — a
  retriever votes for a memory in proportion to how far it stands above that retriever's
  average for this query, so a flat list (every candidate about as good) weighs little
  and a list with a clear winner weighs much; plus ``neighbour_weight`` times the best
  linear score among the memory's ``TEMPORAL_NEXT`` neighbours (a turn's conversational
  context, seed 003 §15 edge) — see :func:`neighbour_context`.
- Four-factor: ``base · (1 + recency + importance + stage_boost)`` with
  ``recency = w_r · exp(−age / (τ_type · (1 + arousal · arousal_factor)))`` (``neuromem.decay``:
  τ 14 days for episodes, 90 for facts, 180 for traits; documents do not decay),
  ``importance = w_i · importance`` and the trait stage boost of seed 001 §6.1.
"""

from __future__ import annotations

import datetime as dt
import math
import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from ..config import RecallSettings
from ..decay import recency
from ..types import MemoryRecord
from .recipes import RecallRecipe

#: Which λ of seed 003 §5.3 each retriever's normalised score contributes to.
LAMBDA_OF = {
    "bm25": "lambda_bm25",
    "raw": "lambda_bm25",
    "bm25_focus": "lambda_bm25",
    "bm25_user": "lambda_bm25",
    "vector": "lambda_vector",
    "traits": "lambda_vector",
    "vector_focus": "lambda_vector",
    "vector_user": "lambda_vector",
    "graph": "lambda_graph",
    "bm25_turns": "lambda_bm25",
    "vector_turns": "lambda_vector",
    "bm25_hop": "lambda_bm25",
    "bm25_turns_hop": "lambda_bm25",
}


@dataclass(frozen=True, slots=True)
class Ranked:
    """One retriever's hit: id, rank (1-based) and the retriever's own score."""

    id: uuid.UUID
    rank: int
    score: float


@dataclass(slots=True)
class Fused:
    """The fused evidence for one memory, before the memory-level factors."""

    id: uuid.UUID
    rrf: float = 0.0
    lam: float = 0.0
    lin: float = 0.0  # Σ_r w_r · normalised score (fusion "linear")
    context: float = 0.0  # best ``lin`` among the TEMPORAL_NEXT neighbours
    ranks: dict[str, int] = field(default_factory=dict)
    scores: dict[str, float] = field(default_factory=dict)
    normalized: dict[str, float] = field(default_factory=dict)


def ranked(pairs: Sequence[tuple[uuid.UUID, float]]) -> list[Ranked]:
    """Best-first ``(id, score)`` pairs → ranks 1..n (first occurrence of an id wins)."""
    out: list[Ranked] = []
    seen: set[uuid.UUID] = set()
    for id_, score in pairs:
        if id_ in seen:
            continue
        seen.add(id_)
        out.append(Ranked(id_, len(out) + 1, float(score)))
    return out


def min_max(values: Sequence[float]) -> list[float]:
    """Scale to [0, 1]; a constant list (one item, or ties) maps to 1.0 each."""
    if not values:
        return []
    lo, hi = min(values), max(values)
    if hi - lo <= 1e-12:
        return [1.0 for _ in values]
    return [(v - lo) / (hi - lo) for v in values]


def z_scores(values: Sequence[float]) -> list[float]:
    """``max(0, (v − mean) / std)`` (population std); a constant list (one item, or ties) maps to 1.0 each,
    as in :func:`min_max`. Non-negative, so the four-factor product and ``prune``'s bound stay valid."""
    if not values:
        return []
    mean = math.fsum(values) / len(values)
    std = math.sqrt(math.fsum((v - mean) ** 2 for v in values) / len(values))
    if std <= 1e-12:
        return [1.0 for _ in values]
    return [max(0.0, (v - mean) / std) for v in values]


def rrf_score(rank: int, k: int, weight: float = 1.0) -> float:
    return weight / (k + rank)


def fuse(lists: Mapping[str, Sequence[Ranked]], recipe: RecallRecipe) -> dict[uuid.UUID, Fused]:
    """RRF, the renormalised λ-sum (min-max) and the linear sum (the recipe's ``normalization``) over the
    retrievers that ran (non-empty or not)."""
    active_lambdas = {LAMBDA_OF[name] for name in lists if name in LAMBDA_OF}
    total = sum(getattr(recipe, lam) for lam in active_lambdas) or 1.0
    out: dict[uuid.UUID, Fused] = {}
    for name, hits in lists.items():
        weight = recipe.retriever_weights.get(name, 1.0)
        lam = getattr(recipe, LAMBDA_OF[name]) / total if name in LAMBDA_OF else 0.0
        lin_weight = recipe.linear_weights.get(name, 0.0)
        raw_scores = [h.score for h in hits]
        norms = min_max(raw_scores)
        lin_norms = z_scores(raw_scores) if recipe.normalization == "zscore" else norms
        for hit, norm, lin_norm in zip(hits, norms, lin_norms, strict=True):
            f = out.setdefault(hit.id, Fused(hit.id))
            f.rrf += rrf_score(hit.rank, recipe.rrf_k, weight)
            f.ranks[name] = hit.rank
            f.scores[name] = hit.score
            # two λ-sharing retrievers (bm25 and raw) count the better of the two
            previous = max(
                (f.normalized[n] for n in f.normalized if LAMBDA_OF.get(n) == LAMBDA_OF.get(name)),
                default=0.0,
            )
            f.normalized[name] = norm
            f.lin += lin_weight * lin_norm
            if norm > previous:
                f.lam += lam * (norm - previous)
    return out


def neighbour_context(
    fused: Mapping[uuid.UUID, Fused], neighbours: Mapping[uuid.UUID, Iterable[uuid.UUID]]
) -> None:
    """Set each candidate's ``context`` to the best ``lin`` among its neighbours that are candidates too
    (0 when none is); computed from the pre-boost scores, so the order of updates does not matter."""
    for id_, f in fused.items():
        f.context = max(
            (fused[n].lin for n in neighbours.get(id_, ()) if n in fused and n != id_), default=0.0
        )


def linear_base(fused: Fused, recipe: RecallRecipe) -> float:
    return fused.lin + recipe.neighbour_weight * fused.context


@dataclass(frozen=True, slots=True)
class MemoryFactors:
    recency: float
    importance: float
    stage_boost: float
    feedback: float = 0.0  # the user's own votes (``Memory.upvote`` / ``downvote``): see ``final_score``

    @property
    def total(self) -> float:
        return self.recency + self.importance + self.stage_boost


def stage_boost(record: MemoryRecord, settings: RecallSettings) -> float:
    """Seed 001 §6.1: core 0.25, established 0.15, emerging 0.05; nothing else."""
    if record.memory_type != "trait":
        return 0.0
    return {
        "core": settings.stage_boost_core,
        "established": settings.stage_boost_established,
        "emerging": settings.stage_boost_emerging,
    }.get(record.trait_stage or "", 0.0)


def votes(record: MemoryRecord) -> int:
    """Upvotes minus downvotes the user gave the memory (``metadata.feedback``)."""
    given = record.metadata.get("feedback") if isinstance(record.metadata, dict) else None
    if not isinstance(given, dict):
        return 0
    try:
        return int(given.get("up", 0) or 0) - int(given.get("down", 0) or 0)
    except (TypeError, ValueError):
        return 0


def memory_factors(
    record: MemoryRecord, now: dt.datetime, settings: RecallSettings, feedback_step: float = 0.0
) -> MemoryFactors:
    """Recency (per-type τ, slowed by arousal: ``neuromem.decay.recency``), importance and stage
    boost of seed 000 §6.1; documents do not decay (seed 001 §2.3)."""
    when = record.valid_at or record.created_at
    emotion = record.metadata.get("emotion") if isinstance(record.metadata, dict) else None
    arousal = 0.0
    if isinstance(emotion, dict):
        try:
            arousal = float(emotion.get("arousal", 0.0) or 0.0)
        except (TypeError, ValueError):
            arousal = 0.0
    return MemoryFactors(
        recency(record.memory_type, when, now, arousal, settings),
        settings.importance_weight * record.importance,
        stage_boost(record, settings),
        max(-0.9, settings.importance_weight * feedback_step * votes(record)),
    )


def final_score(fused: Fused, factors: MemoryFactors, recipe: RecallRecipe) -> tuple[float, float]:
    """``(base, final)`` for the recipe's fusion mode (see ``recipes``)."""
    if recipe.fusion == "rrf":
        base = fused.rrf
    elif recipe.fusion == "weighted":
        # seed 003 §5.3: λ4·Weight joins the sum instead of multiplying it
        base = (1 - recipe.lambda_weight) * fused.lam + recipe.lambda_weight * factors.total
        return base, base
    elif recipe.fusion == "linear":
        base = linear_base(fused, recipe)
    else:
        base = fused.rrf + recipe.hybrid_mix * fused.lam
    # without the four-factor score the user's explicit votes still count: they are what the user said,
    # not a heuristic (the importance they moved is part of the four-factor score when it is on)
    final = base * (1 + factors.total) if recipe.four_factor else base * (1 + factors.feedback)
    return base, final
