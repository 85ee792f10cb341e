"""Recall over what other users share with a user (issue 26 item 2): their memories of visibility ``team``
(of a team the user is in, same tenant) and ``public`` — never their private ones.

One statement: the rows shared with the user (``neuromem_shared_with``, migration 0022, the rule the
policy ``shared_visibility`` enforces for the service role) ranked twice — by full text and by cosine
distance to the query vector — each list ``%(k)s`` long, with the rows themselves. Shared memories are
few next to a user's own, so the distance is computed exactly over them (the partial index
``idx_memories_shared`` finds them). Under a service request, row-level security filters the same rows
independently of this predicate.
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from psycopg import sql

from ..types import MemoryRecord, MemoryType
from .db import Conn
from .filters import CompiledFilter
from .memories import M_MEMORY_COLUMNS, row_to_memory
from .sql_parts import quote_term, recall_scope_sql
from .vectors import to_halfvec

SHARED_WITH_USER = sql.SQL("""m.user_id <> %(user_id)s AND m.visibility <> 'private'
          AND neuromem_shared_with(%(user_id)s, m.user_id, m.visibility, m.team_id)""")

SHARED_CANDIDATES = sql.SQL("""
    WITH shared AS MATERIALIZED (
        SELECT m.user_id, m.id, m.memory_type FROM memories m
        WHERE {shared} AND m.memory_type = ANY(%(types)s) AND m.memory_type <> 'trait' AND {scope}
    ), lexical AS (
        SELECT m.user_id, m.id, m.memory_type, ts_rank_cd(m.fts, to_tsquery('simple', %(tsq)s)) AS score, 'bm25' AS list
        FROM memories m JOIN shared s USING (user_id, id, memory_type)
        WHERE %(tsq)s <> '' AND m.fts @@ to_tsquery('simple', %(tsq)s)
        ORDER BY score DESC, m.id LIMIT %(k)s
    ), semantic AS (
        SELECT m.user_id, m.id, m.memory_type, 1 - (m.embedding <=> %(v)s::halfvec) AS score, 'vector' AS list
        FROM memories m JOIN shared s USING (user_id, id, memory_type)
        WHERE %(v)s::halfvec IS NOT NULL AND m.embedding IS NOT NULL
        ORDER BY m.embedding <=> %(v)s::halfvec, m.id LIMIT %(k)s
    ), ranked AS (SELECT * FROM lexical UNION ALL SELECT * FROM semantic)
    SELECT r.list, r.score, {columns}
    FROM ranked r JOIN memories m USING (user_id, id, memory_type)
    ORDER BY r.list, r.score DESC, m.id
""")


@dataclass(frozen=True, slots=True)
class SharedCandidates:
    """Both ranked lists (best first) of (memory id, score), and the memories they name."""

    lists: dict[str, list[tuple[uuid.UUID, float]]]
    records: dict[uuid.UUID, MemoryRecord]


def shared_candidates(
    conn: Conn,
    user_id: str,
    terms: Sequence[str],
    vector: np.ndarray | None,
    dim: int,
    types: Sequence[MemoryType],
    *,
    k: int,
    as_of: dt.datetime | None = None,
    valid_at: dt.datetime | None = None,
    where: CompiledFilter | None = None,
) -> SharedCandidates:
    """The ``k`` best of other users' memories shared with ``user_id``, by full text and by vector."""
    distinct = list(dict.fromkeys(t for t in terms if t))
    params: dict[str, Any] = {
        "user_id": user_id,
        "types": [str(t) for t in types],
        "k": k,
        "tsq": " | ".join(quote_term(t) for t in distinct),
        "v": None if vector is None else to_halfvec(vector, dim),
    }
    scope: list[sql.Composable] = [recall_scope_sql(as_of, valid_at, params)]
    if where is not None:
        scope.append(where.clause)
        params.update(where.params)
    query = SHARED_CANDIDATES.format(
        shared=SHARED_WITH_USER, scope=sql.SQL(" AND ").join(scope), columns=M_MEMORY_COLUMNS
    )
    lists: dict[str, list[tuple[uuid.UUID, float]]] = {"bm25": [], "vector": []}
    records: dict[uuid.UUID, MemoryRecord] = {}
    for row in conn.execute(query, params).fetchall():
        lists[row["list"]].append((row["id"], float(row["score"])))
        records[row["id"]] = row_to_memory(row)
    return SharedCandidates(lists, records)
