"""Read queries of the recall pipeline (seed 000 §6, seed 003 §5.2, W5). Its side effects
go elsewhere: access counts through ``memories.bump_access`` (seed 000 §5.2 task 4), trait
reinforcement through ``traits.reinforce_on_recall`` (optimistic lock, seed 001 §8.2).

Every query is scoped to one ``user_id`` (MISSION "Trust"); recall never writes
anything else.
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from psycopg import sql

from ..config import TraitSettings
from ..types import MemoryRecord, MemoryType
from .bm25 import ScoredId
from .db import Conn
from .decay import trait_confidence_sql, trait_decay_params
from .filters import CompiledFilter
from .memories import MEMORY_COLUMNS, row_to_memory
from .sql_parts import ACTIVE_TRAIT_STAGES, nearest_in_partition, quote_term, recall_scope_sql
from .vectors import from_halfvec_send, to_halfvec


def _scope(
    as_of: dt.datetime | None,
    where: CompiledFilter | None,
    params: dict[str, Any],
    valid_at: dt.datetime | None = None,
) -> sql.Composable:
    validity = recall_scope_sql(as_of, valid_at, params)
    if where is None:
        return validity
    params.update(where.params)
    return sql.SQL(" AND ").join([validity, where.clause])


BRANCH = sql.SQL("({})")
UNION_ALL = sql.SQL(" UNION ALL ")
LIMIT = sql.Placeholder("limit")


def vector_search(
    conn: Conn,
    user_id: str,
    vector: np.ndarray,
    dim: int,
    types: Sequence[MemoryType],
    *,
    limit: int,
    as_of: dt.datetime | None = None,
    where: CompiledFilter | None = None,
    valid_at: dt.datetime | None = None,
) -> list[ScoredId]:
    """HNSW nearest rows, ``limit`` per partition of ``types`` in one statement (iterative scan
    set on the pool; see :func:`sql_parts.nearest_in_partition`), score = cosine similarity."""
    if not types:
        return []
    params: dict[str, Any] = {"user_id": user_id, "v": to_halfvec(vector, dim), "limit": limit}
    scope = _scope(as_of, where, params, valid_at)
    branches = [
        BRANCH.format(nearest_in_partition(MemoryType(t).value, scope, LIMIT)) for t in dict.fromkeys(types)
    ]
    rows = conn.execute(UNION_ALL.join(branches), params).fetchall()
    return [ScoredId(r["id"], r["memory_type"], 1.0 - float(r["distance"])) for r in rows]


@dataclass(frozen=True, slots=True)
class TraitRow:
    id: uuid.UUID
    stage: str
    subtype: str | None
    decayed_confidence: float
    similarity: float | None


TRAIT_CANDIDATES = sql.SQL("""
        SELECT mv.id, mv.trait_stage, mv.trait_subtype, {decayed} AS decayed_confidence, {similarity} AS similarity
        FROM mv_trait_decayed mv
        WHERE mv.user_id = %(user_id)s AND mv.trait_stage = ANY(%(stages)s)
          AND {decayed} > %(floor)s {has_vec}
          AND EXISTS (SELECT 1 FROM memories m WHERE m.id = mv.id AND m.memory_type = 'trait'
                      AND m.user_id = %(user_id)s AND {scope})
        ORDER BY {order}, mv.id LIMIT %(limit)s
    """)
# nearest to the query vector first, or (without one) the most confident first
SIMILARITY = sql.SQL("1 - (mv.embedding <=> %(v)s::halfvec)")
BY_DISTANCE = sql.SQL("mv.embedding <=> %(v)s::halfvec")
HAS_VECTOR = sql.SQL("AND mv.embedding IS NOT NULL")
NO_SIMILARITY = sql.SQL("NULL::float8")
BY_CONFIDENCE = sql.SQL("{decayed} DESC")


def trait_candidates(
    conn: Conn,
    user_id: str,
    vector: np.ndarray | None,
    dim: int,
    *,
    floor: float,
    limit: int,
    as_of: dt.datetime | None = None,
    valid_at: dt.datetime | None = None,
    rates: TraitSettings,
) -> list[TraitRow]:
    """Traits from ``mv_trait_decayed`` (seed 000 §6.2): emerging/established/core with decayed
    confidence (at ``as_of``, else now; ``store.decay``) above ``floor``; nearest to ``vector``
    first, or by confidence without one."""
    params: dict[str, Any] = {
        "user_id": user_id,
        "floor": floor,
        "limit": limit,
        "stages": list(ACTIVE_TRAIT_STAGES),
        **trait_decay_params(rates, as_of),
    }
    decayed = trait_confidence_sql("mv", one_user=True)
    scope = _scope(as_of, None, params, valid_at)
    similarity: sql.Composable
    order: sql.Composable
    if vector is not None:
        params["v"] = to_halfvec(vector, dim)
        similarity, order, has_vec = SIMILARITY, BY_DISTANCE, HAS_VECTOR
    else:
        similarity, order, has_vec = NO_SIMILARITY, BY_CONFIDENCE.format(decayed=decayed), sql.SQL("")
    query = TRAIT_CANDIDATES.format(
        decayed=decayed, similarity=similarity, has_vec=has_vec, scope=scope, order=order
    )
    rows = conn.execute(query, params).fetchall()
    return [
        TraitRow(
            r["id"],
            r["trait_stage"],
            r["trait_subtype"],
            float(r["decayed_confidence"]),
            None if r["similarity"] is None else float(r["similarity"]),
        )
        for r in rows
    ]


ENTITY_NODES_NAMED = """SELECT id FROM graph_nodes
           WHERE user_id = %s AND expired_at IS NULL AND (normalized_name = ANY(%s) OR aliases && %s)"""


def match_entity_nodes(conn: Conn, user_id: str, names: Sequence[str]) -> list[uuid.UUID]:
    """Current entity nodes whose normalised name or an alias equals one of ``names``."""
    if not names:
        return []
    rows = conn.execute(
        ENTITY_NODES_NAMED,
        (user_id, list(names), list(names)),
    ).fetchall()
    return [r["id"] for r in rows]


@dataclass(frozen=True, slots=True)
class Edge:
    source: uuid.UUID
    source_kind: str
    target: uuid.UUID
    target_kind: str
    edge_type: str
    weight: float


EDGE_CURRENT = sql.SQL("e.expired_at IS NULL AND (e.invalid_at IS NULL OR e.invalid_at > now())")
EDGE_AS_OF = sql.SQL(
    "e.created_at <= %(as_of)s AND (e.expired_at IS NULL OR e.expired_at > %(as_of)s)"
    " AND (e.invalid_at IS NULL OR e.invalid_at > %(as_of)s)"
)
EDGES_TOUCHING = sql.SQL("""
        SELECT source_id, source_kind, target_id, target_kind, edge_type, weight * confidence AS w
        FROM graph_edges e
        WHERE e.user_id = %(user_id)s AND e.edge_type = ANY(%(types)s)
          AND (e.source_id = ANY(%(ids)s) OR e.target_id = ANY(%(ids)s))
          AND {validity}
        ORDER BY w DESC LIMIT %(limit)s
    """)


def edges_touching(
    conn: Conn,
    user_id: str,
    ids: Sequence[uuid.UUID],
    edge_types: Sequence[str],
    *,
    limit: int,
    as_of: dt.datetime | None = None,
) -> list[Edge]:
    """Current (or, with ``as_of``, then valid) edges with either end in ``ids`` — one hop."""
    if not ids:
        return []
    validity = (
        EDGE_CURRENT if as_of is None else EDGE_AS_OF
    )  # the first: exactly the partial indexes' predicate
    params = {"user_id": user_id, "types": list(edge_types), "ids": list(ids), "limit": limit, "as_of": as_of}
    rows = conn.execute(EDGES_TOUCHING.format(validity=validity), params).fetchall()
    return [
        Edge(
            r["source_id"], r["source_kind"], r["target_id"], r["target_kind"], r["edge_type"], float(r["w"])
        )
        for r in rows
    ]


TEMPORAL_NEIGHBOURS = sql.SQL("""
        SELECT source_id, target_id FROM graph_edges e
        WHERE e.user_id = %(user_id)s AND e.edge_type = 'TEMPORAL_NEXT' AND e.source_kind = 'memory'
          AND e.target_kind = 'memory' AND e.source_id = ANY(%(ids)s) AND e.target_id = ANY(%(ids)s)
          AND {validity}
    """)


def memory_neighbours(
    conn: Conn, user_id: str, ids: Sequence[uuid.UUID], *, as_of: dt.datetime | None = None
) -> list[tuple[uuid.UUID, uuid.UUID]]:
    """``TEMPORAL_NEXT`` memory→memory edges with both ends in ``ids`` (consecutive turns, seed 003 §15)."""
    if len(ids) < 2:
        return []
    validity = EDGE_CURRENT if as_of is None else EDGE_AS_OF
    params = {"user_id": user_id, "ids": list(ids), "as_of": as_of}
    rows = conn.execute(TEMPORAL_NEIGHBOURS.format(validity=validity), params).fetchall()
    return [(r["source_id"], r["target_id"]) for r in rows]


NODE_DEGREES = """SELECT n.id,
                  (SELECT count(*) FROM graph_edges e WHERE e.user_id = %(u)s AND e.expired_at IS NULL
                     AND e.source_id = n.id)
                + (SELECT count(*) FROM graph_edges e WHERE e.user_id = %(u)s AND e.expired_at IS NULL
                     AND e.target_id = n.id) AS degree
           FROM unnest(%(ids)s::uuid[]) AS n(id)"""


def node_degrees(conn: Conn, user_id: str, ids: Sequence[uuid.UUID]) -> dict[uuid.UUID, int]:
    """Current edge count of each graph node (entity hubs are pruned from expansion, seed 003 §17)."""
    if not ids:
        return {}
    rows = conn.execute(
        NODE_DEGREES,
        {"u": user_id, "ids": list(ids)},
    ).fetchall()
    return {r["id"]: int(r["degree"]) for r in rows}


VISIBLE_MEMORY_TYPES = sql.SQL("""
        SELECT m.id, m.memory_type FROM memories m
        WHERE m.user_id = %(user_id)s AND m.id = ANY(%(ids)s) AND m.memory_type = ANY(%(types)s)
          AND (m.memory_type <> 'trait' OR m.trait_stage = ANY(%(stages)s)) AND {scope}
    """)


def visible_memory_types(
    conn: Conn,
    user_id: str,
    ids: Sequence[uuid.UUID],
    types: Sequence[MemoryType],
    *,
    as_of: dt.datetime | None = None,
    where: CompiledFilter | None = None,
    valid_at: dt.datetime | None = None,
) -> dict[uuid.UUID, str]:
    """Which of ``ids`` are memories this recall may return (type, validity, filter, embedding-free ok)."""
    if not ids:
        return {}
    params: dict[str, Any] = {
        "user_id": user_id,
        "ids": list(ids),
        "types": [str(t) for t in types],
        "stages": list(ACTIVE_TRAIT_STAGES),
    }
    scope = _scope(as_of, where, params, valid_at)
    rows = conn.execute(VISIBLE_MEMORY_TYPES.format(scope=scope), params).fetchall()
    return {r["id"]: r["memory_type"] for r in rows}


@dataclass(frozen=True, slots=True)
class RawChunkHit:
    sha256: str
    score: float


RAW_CHUNKS_MATCHING = """WITH q AS (SELECT to_tsquery('simple', %s) AS tsq)
           SELECT r.sha256, ts_rank_cd(r.fts, q.tsq) AS score FROM raw_chunks r, q
           WHERE r.user_id = %s AND r.fts @@ q.tsq ORDER BY score DESC, r.sha256 LIMIT %s"""


def raw_chunk_search(conn: Conn, user_id: str, terms: Sequence[str], *, limit: int) -> list[RawChunkHit]:
    """Raw chunks whose tokens match any of ``terms`` (seed 003 W5), most matching first."""
    distinct = list(dict.fromkeys(t for t in terms if t))
    if not distinct:
        return []
    rows = conn.execute(
        RAW_CHUNKS_MATCHING,
        (" | ".join(quote_term(t) for t in distinct), user_id, limit),
    ).fetchall()
    return [RawChunkHit(r["sha256"].strip(), float(r["score"])) for r in rows]


WITHDRAWN_CHUNKS = """SELECT ref->>'sha256' AS sha FROM memories m, jsonb_array_elements(m.raw_refs) ref
           WHERE m.user_id = %s AND ref->>'sha256' = ANY(%s)
           GROUP BY 1
           HAVING bool_or(m.expired_at IS NOT NULL AND m.superseded_by IS NULL) AND NOT bool_or(m.expired_at IS NULL)"""


def withdrawn_chunks(conn: Conn, user_id: str, shas: Sequence[str]) -> set[str]:
    """Chunks whose words belong to soft-deleted memories or deleted documents only: cited by a
    deleted row (``expired_at`` without a successor) and by no current one. Recall's raw fallback
    never returns them (issue 16: a deleted memory never comes back)."""
    if not shas:
        return set()
    rows = conn.execute(
        WITHDRAWN_CHUNKS,
        (user_id, list(shas)),
    ).fetchall()
    return {r["sha"] for r in rows}


MEMORIES_CITING = """SELECT m.id, ref->>'sha256' AS sha FROM memories m, jsonb_array_elements(m.raw_refs) ref
           WHERE m.user_id = %s AND m.expired_at IS NULL AND ref->>'sha256' = ANY(%s)"""


def memories_citing(conn: Conn, user_id: str, shas: Sequence[str]) -> dict[str, list[uuid.UUID]]:
    """Current memories whose ``raw_refs`` point into each chunk."""
    if not shas:
        return {}
    rows = conn.execute(
        MEMORIES_CITING,
        (user_id, list(shas)),
    ).fetchall()
    out: dict[str, list[uuid.UUID]] = {}
    for r in rows:
        out.setdefault(r["sha"], []).append(r["id"])
    return out


RECORDS_WITH_VECTORS = sql.SQL(
    "SELECT {columns}, halfvec_send(embedding) AS vector_bytes FROM memories WHERE user_id = %s AND id = ANY(%s)"
).format(columns=MEMORY_COLUMNS)


def records_with_vectors(
    conn: Conn, user_id: str, ids: Sequence[uuid.UUID]
) -> tuple[dict[uuid.UUID, MemoryRecord], dict[uuid.UUID, np.ndarray]]:
    """The rows of ``ids`` and, in the same round trip, their stored vectors (for MMR; rows
    without one have none)."""
    if not ids:
        return {}, {}
    rows = conn.execute(RECORDS_WITH_VECTORS, (user_id, list(ids))).fetchall()
    records = {r["id"]: row_to_memory(r) for r in rows}
    vectors = {r["id"]: v for r in rows if (v := from_halfvec_send(r["vector_bytes"])) is not None}
    return records, vectors


ENDED_BY = (
    "SELECT id FROM memories WHERE user_id = %(u)s AND id = ANY(%(ids)s)"
    " AND invalid_at > now() AND invalid_at <= %(present)s"
)


def ended_by(conn: Conn, user_id: str, ids: Sequence[uuid.UUID], present: dt.datetime) -> set[uuid.UUID]:
    """The memories among ``ids`` whose end of validity lies after the clock and no later than ``present``: ended,
    for a question whose present is later than the clock (``recall.request.RecallRequest.reference``)."""
    if not ids:
        return set()
    rows = conn.execute(ENDED_BY, {"u": user_id, "ids": list(ids), "present": present}).fetchall()
    return {r["id"] for r in rows}


SESSIONS_OF_MEMORIES = (
    "SELECT memory_id, session_id FROM memory_sources WHERE user_id = %s AND memory_id = ANY(%s) "
    "ORDER BY created_at"
)


def sessions_of(conn: Conn, user_id: str, ids: Sequence[uuid.UUID]) -> dict[uuid.UUID, list[str]]:
    """Conversation sessions each memory came from (``memory_sources``), for citations."""
    if not ids:
        return {}
    rows = conn.execute(
        SESSIONS_OF_MEMORIES,
        (user_id, list(ids)),
    ).fetchall()
    out: dict[uuid.UUID, list[str]] = {}
    for r in rows:
        out.setdefault(r["memory_id"], []).append(str(r["session_id"]))
    return out


__all__ = [
    "Edge",
    "RawChunkHit",
    "TraitRow",
    "edges_touching",
    "match_entity_nodes",
    "memories_citing",
    "memory_neighbours",
    "node_degrees",
    "raw_chunk_search",
    "records_with_vectors",
    "sessions_of",
    "trait_candidates",
    "vector_search",
    "visible_memory_types",
    "withdrawn_chunks",
]
