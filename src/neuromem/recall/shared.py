"""Recall that includes what other users share with the user (issue 26 item 2): ``search(include_shared=True)``.

The user's own recall runs unchanged (``RecallPipeline.run``). The memories others share with the user
(``store.shared``: team memories of the user's teams, public ones) are ranked by full text and by vector
and fused by RRF with the memory factors of the user's recipe (``recall.fusion``; a handful of shared rows
is too few for the recipe's score normalisation), kept when they pass the recipe's relevance floor
(``truth.above_floor``), and are never reinforced (no access counts on another user's rows).

The two rankings are then merged by reciprocal rank: each hit's ``score.final`` becomes
``1/(k + rank in its ranking)`` (``k`` = the recipe's ``rrf_k``), its own ranking's final score is kept
in ``score.extra["ranking_final"]``, and a shared hit is marked ``score.extra["shared"] = 1``. Under a
service request, row-level security shows the store only the rows shared with the user, whatever the
query asks.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import logging
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..config import Settings
from ..store.db import Database
from ..store.filters import CompiledFilter
from ..store.shared import shared_candidates
from ..types import MemoryType, ScoreBreakdown, SearchHit, SearchResults
from .fusion import final_score, fuse, memory_factors, ranked, rrf_score
from .query import analyze_query
from .recipes import RecallRecipe, derive
from .truth import above_floor

log = logging.getLogger(__name__)

SHARED_MARK = "shared"
RANKING_FINAL = "ranking_final"


def shared_hits(
    db: Database,
    settings: Settings,
    embed_query: Callable[[str], np.ndarray | None],
    query: str,
    user_id: str,
    *,
    recipe: RecallRecipe,
    types: Sequence[MemoryType],
    limit: int,
    as_of: dt.datetime | None = None,
    valid_at: dt.datetime | None = None,
    where: CompiledFilter | None = None,
    reference: dt.datetime | None = None,
) -> list[SearchHit]:
    """Other users' memories shared with ``user_id`` that match ``query``, best first."""
    analysis = analyze_query(query, reference or valid_at or as_of)
    vector = _embedded(embed_query, query) if recipe.use_vector else None
    with db.connection() as conn:
        found = shared_candidates(
            conn,
            user_id,
            analysis.terms,
            vector,
            settings.store.embedding_dim,
            types,
            k=max(limit, recipe.bm25_k, recipe.vector_k),
            as_of=as_of,
            valid_at=valid_at,
            where=where,
        )
    by_rank = derive(recipe, fusion="rrf")
    now = as_of or analysis.reference
    hits = []
    for id_, f in fuse({name: ranked(pairs) for name, pairs in found.lists.items()}, by_rank).items():
        record = found.records[id_]
        factors = memory_factors(record, now, settings.recall, settings.lifecycle.feedback_step)
        _, final = final_score(f, factors, by_rank)
        score = ScoreBreakdown(
            f.rrf,
            factors.recency,
            factors.importance,
            factors.stage_boost,
            final,
            dict(f.ranks),
            {SHARED_MARK: 1.0, **{f"score_{n}": v for n, v in f.scores.items()}},
        )
        hits.append(SearchHit(record, score))
    hits.sort(key=lambda h: (-h.score.final, str(h.memory.id)))
    return above_floor(hits, recipe.relevance_floor)


def _embedded(embed_query: Callable[[str], np.ndarray | None], query: str) -> np.ndarray | None:
    """The query vector, or None when the embedder fails: the shared memories are then ranked by text only
    (the user's own recall reports the failure in ``degraded``)."""
    try:
        return embed_query(query)
    except Exception as exc:
        log.warning("shared recall ranks by text only: the query embedding failed (%s)", type(exc).__name__)
        return None


def merged(own: SearchResults, shared: Sequence[SearchHit], limit: int, rrf_k: int) -> SearchResults:
    """The user's hits and the shared ones in one ranking by reciprocal rank, ``limit`` long."""
    seen = {h.memory.id for h in own.hits}
    ranking = [_reranked(h, rank, rrf_k) for rank, h in enumerate(own.hits, 1)]
    ranking += [
        _reranked(h, rank, rrf_k) for rank, h in enumerate((h for h in shared if h.memory.id not in seen), 1)
    ]
    ranking.sort(key=lambda h: (-h.score.final, -(h.score.extra[RANKING_FINAL]), str(h.memory.id)))
    trace: dict[str, Any] = {**own.trace, "shared_hits": len(shared)} if own.trace else own.trace
    return dataclasses.replace(own, hits=tuple(ranking[:limit]), trace=trace)


def _reranked(hit: SearchHit, rank: int, k: int) -> SearchHit:
    score = dataclasses.replace(
        hit.score, final=rrf_score(rank, k), extra={**hit.score.extra, RANKING_FINAL: hit.score.final}
    )
    return dataclasses.replace(hit, score=score)
