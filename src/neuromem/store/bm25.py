"""Okapi BM25 computed in SQL over the full-text tokens (seed 003 §5.2 stage A).

PostgreSQL's ``ts_rank`` is not BM25 (no IDF, no length saturation), so the score is
computed from term statistics at query time, per user and over the rows the query
may see (current, or valid at ``as_of``)::

    score(d) = Σ_t idf(t) · tf(t,d)·(k1+1) / (tf(t,d) + k1·(1 − b + b·|d|/avgdl))
    idf(t)   = ln(1 + (N − df(t) + 0.5) / (df(t) + 0.5))

``tf`` is the number of positions of the lexeme in the row's ``fts`` tsvector (the
jieba-segmented ``search_tokens``); ``|d|`` is the row's ``token_count`` and
``avgdl`` its mean over the user's visible rows. ``df`` counts the candidate rows
that contain the term — exact, because every row containing any query term is a
candidate (the GIN index on ``fts`` finds them).
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from psycopg import sql

from ..types import MemoryType
from .db import Conn
from .filters import CompiledFilter
from .sql_parts import ACTIVE_TRAIT_STAGES, AS_OF, CURRENT, named_filter, quote_term


@dataclass(frozen=True, slots=True)
class ScoredId:
    id: uuid.UUID
    memory_type: str
    score: float


def bm25_search(
    conn: Conn,
    user_id: str,
    terms: Sequence[str],
    types: Sequence[MemoryType],
    *,
    limit: int,
    k1: float,
    b: float,
    as_of: dt.datetime | None = None,
    where: CompiledFilter | None = None,
) -> list[ScoredId]:
    """The ``limit`` best rows by BM25 for the distinct ``terms``; empty terms → no rows."""
    distinct = list(dict.fromkeys(t for t in terms if t))
    if not distinct or not types:
        return []
    validity = AS_OF if as_of is not None else CURRENT
    params: dict[str, Any] = {
        "user_id": user_id,
        "types": [str(t) for t in types],
        "terms": distinct,
        "tsq": " | ".join(quote_term(t) for t in distinct),
        "k1": k1,
        "b": b,
        "limit": limit,
        "as_of": as_of,
        "stages": list(ACTIVE_TRAIT_STAGES),
    }
    extra = ""
    if where is not None:
        clause, extra_params = named_filter(where)
        extra = "AND " + clause
        params.update(extra_params)
    visible = f"""m.user_id = %(user_id)s AND m.memory_type = ANY(%(types)s)
                  AND (m.memory_type <> 'trait' OR m.trait_stage = ANY(%(stages)s))
                  AND {validity} {extra}"""
    query = f"""
        WITH q AS (SELECT to_tsquery('simple', %(tsq)s) AS tsq),
        corpus AS (
            SELECT count(*)::float8 AS n, coalesce(avg(greatest(m.token_count, 1)), 1)::float8 AS avgdl
            FROM memories m WHERE {visible}
        ),
        docs AS (
            SELECT m.id, m.memory_type, m.fts, greatest(m.token_count, 1)::float8 AS dl
            FROM memories m, q WHERE m.fts @@ q.tsq AND {visible}
        ),
        tf AS (
            SELECT d.id, d.memory_type, d.dl, u.lexeme,
                   coalesce(array_length(u.positions, 1), 1)::float8 AS tf
            FROM docs d, unnest(d.fts) u WHERE u.lexeme = ANY(%(terms)s)
        ),
        df AS (SELECT lexeme, count(*)::float8 AS df FROM tf GROUP BY lexeme)
        SELECT tf.id, tf.memory_type,
               sum(ln(1 + (c.n - df.df + 0.5) / (df.df + 0.5))
                   * tf.tf * (%(k1)s + 1) / (tf.tf + %(k1)s * (1 - %(b)s + %(b)s * tf.dl / c.avgdl))) AS score
        FROM tf JOIN df USING (lexeme) CROSS JOIN corpus c
        GROUP BY tf.id, tf.memory_type
        ORDER BY score DESC, tf.id
        LIMIT %(limit)s
    """
    rows = conn.execute(sql.SQL(query), params).fetchall()  # type: ignore[arg-type]
    return [ScoredId(r["id"], r["memory_type"], float(r["score"])) for r in rows]
