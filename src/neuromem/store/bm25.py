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

``N`` and ``avgdl`` of a large corpus (≥ ``CACHED_STATS_MIN_ROWS`` visible rows) are
cached per user for ``STATS_TTL_S``: counting 100k rows costs ~150 ms a query, while
in a minute they move by a fraction of a percent — and the IDF with them. Smaller
corpora, ``as_of`` and filtered queries always count.
"""

from __future__ import annotations

import datetime as dt
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from psycopg import sql

from ..types import MemoryType
from .db import Conn
from .filters import CompiledFilter
from .sql_parts import ACTIVE_TRAIT_STAGES, quote_term, recall_scope_sql

CACHED_STATS_MIN_ROWS = 5_000
STATS_TTL_S = 60.0
_STATS_ENTRIES = 4_096  # cached corpora (least recently used evicted)


class _CorpusStats:
    """``(N, avgdl)`` of large corpora, by (database, user, memory types), thread-safe."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._entries: OrderedDict[tuple[Any, ...], tuple[float, float, float]] = OrderedDict()

    def get(self, key: tuple[Any, ...]) -> tuple[float, float] | None:
        with self._lock:
            entry = self._entries.get(key)
            if entry is None or time.monotonic() - entry[2] > STATS_TTL_S:
                return None
            self._entries.move_to_end(key)
            return entry[0], entry[1]

    def put(self, key: tuple[Any, ...], n: float, avgdl: float) -> None:
        if n < CACHED_STATS_MIN_ROWS:
            return
        with self._lock:
            self._entries[key] = (n, avgdl, time.monotonic())
            self._entries.move_to_end(key)
            while len(self._entries) > _STATS_ENTRIES:
                self._entries.popitem(last=False)


corpus_stats = _CorpusStats()


@dataclass(frozen=True, slots=True)
class ScoredId:
    id: uuid.UUID
    memory_type: str
    score: float


# the memories a recall may see: the user's rows of the asked types, traits only at an active stage
VISIBLE_MEMORIES = sql.SQL("""m.user_id = %(user_id)s AND m.memory_type = ANY(%(types)s)
                  AND (m.memory_type <> 'trait' OR m.trait_stage = ANY(%(stages)s))""")
MEMORIES = sql.SQL("memories m")
MEMORY_KIND = sql.SQL("m.memory_type")


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
    valid_at: dt.datetime | None = None,
) -> list[ScoredId]:
    """The ``limit`` best rows by BM25 for the distinct ``terms``; empty terms → no rows."""
    distinct = list(dict.fromkeys(t for t in terms if t))
    if not distinct or not types:
        return []
    params: dict[str, Any] = {
        "user_id": user_id,
        "types": [str(t) for t in types],
        "terms": distinct,
        "tsq": " | ".join(quote_term(t) for t in distinct),
        "k1": k1,
        "b": b,
        "limit": limit,
        "stages": list(ACTIVE_TRAIT_STAGES),
    }
    visible = [VISIBLE_MEMORIES, recall_scope_sql(as_of, valid_at, params)]
    if where is not None:
        visible.append(where.clause)
        params.update(where.params)
    cache_key = None
    if as_of is None and valid_at is None and where is None:
        cache_key = (database_of(conn), user_id, tuple(params["types"]))
    rows = _bm25_rows(conn, MEMORIES, MEMORY_KIND, sql.SQL(" AND ").join(visible), params, cache_key)
    return [ScoredId(r["id"], r["memory_type"], float(r["score"])) for r in rows]


TURNS = sql.SQL("conversation_messages m")
TURN_KIND = sql.SQL("'turn'::text")
TURN_OF_USER = sql.SQL("m.user_id = %(user_id)s")
TURN_STORED_BY = sql.SQL("m.created_at <= %(as_of)s")
TURN_SAID_BY = sql.SQL("m.sent_at <= %(valid_at)s")


def turn_bm25_search(
    conn: Conn,
    user_id: str,
    terms: Sequence[str],
    *,
    limit: int,
    k1: float,
    b: float,
    as_of: dt.datetime | None = None,
    valid_at: dt.datetime | None = None,
) -> list[ScoredId]:
    """The ``limit`` best conversation turns (``conversation_messages``, every role) by BM25, over the
    user's turns known at ``as_of`` and sent by ``valid_at`` (issue 14 item 1; ``memory_type`` is
    ``"turn"``). The IDF and ``avgdl`` are the turns' own: a turn competes with turns here, and the
    pipeline fuses the turn list with the memory lists."""
    distinct = list(dict.fromkeys(t for t in terms if t))
    if not distinct:
        return []
    params: dict[str, Any] = {
        "user_id": user_id,
        "terms": distinct,
        "k1": k1,
        "b": b,
        "limit": limit,
        "tsq": " | ".join(quote_term(t) for t in distinct),
        "as_of": as_of,
        "valid_at": valid_at,
    }
    visible = turn_scope(as_of, valid_at)
    cache_key = (database_of(conn), user_id, "turns") if as_of is None and valid_at is None else None
    rows = _bm25_rows(conn, TURNS, TURN_KIND, visible, params, cache_key)
    return [ScoredId(r["id"], r["memory_type"], float(r["score"])) for r in rows]


def turn_scope(as_of: dt.datetime | None, valid_at: dt.datetime | None) -> sql.Composable:
    """The turns ``m`` of ``%(user_id)s`` a recall may see: stored by ``%(as_of)s`` and said by
    ``%(valid_at)s`` when those are given (a turn is an event: it never stops having been said)."""
    scope = [TURN_OF_USER]
    if as_of is not None:
        scope.append(TURN_STORED_BY)
    if valid_at is not None:
        scope.append(TURN_SAID_BY)
    return sql.SQL(" AND ").join(scope)


def database_of(conn: Conn) -> tuple[str, int, str]:
    """Which database ``conn`` reads (a key of the corpus statistics): host, port and name, each a cheap
    call into libpq, where ``conn.info.dsn`` parses the whole connection string (~0.5 ms a search)."""
    info = conn.info
    return info.host, info.port, info.dbname


# the corpus statistics N and avgdl: cached (large corpora, module docstring), or counted over the visible rows.
# The count is MATERIALIZED, computed once: inlined, it became the inner side of a nested loop whenever the
# statistics of a freshly written table promised one row, and was counted again for every matching row —
# 2,000 turns written a moment before, each count reading them all through the row-level security check:
# 4 million checks, over 30 s on Citus, where the check reads the scope key (tests/api/test_fuzz.py)
CACHED_CORPUS = sql.SQL("SELECT %(n)s::float8 AS n, %(avgdl)s::float8 AS avgdl")
COUNTED_CORPUS = sql.SQL("""SELECT count(*)::float8 AS n, coalesce(avg(greatest(m.token_count, 1)), 1)::float8 AS avgdl
            FROM {table} WHERE {visible}""")
BM25 = sql.SQL("""
        WITH q AS (SELECT to_tsquery('simple', %(tsq)s) AS tsq),
        corpus AS MATERIALIZED ({corpus}),
        docs AS (
            SELECT m.id, {kind} AS memory_type, m.fts, greatest(m.token_count, 1)::float8 AS dl
            FROM {table}, q WHERE m.fts @@ q.tsq AND {visible}
        ),
        tf AS (
            SELECT d.id, d.memory_type, d.dl, u.lexeme,
                   coalesce(array_length(u.positions, 1), 1)::float8 AS tf
            FROM docs d, unnest(d.fts) u WHERE u.lexeme = ANY(%(terms)s)
        ),
        df AS (SELECT lexeme, count(*)::float8 AS df FROM tf GROUP BY lexeme)
        SELECT tf.id, tf.memory_type,
               sum(ln(1 + (c.n - df.df + 0.5) / (df.df + 0.5))
                   * tf.tf * (%(k1)s + 1) / (tf.tf + %(k1)s * (1 - %(b)s + %(b)s * tf.dl / c.avgdl))) AS score,
               max(c.n) AS n, max(c.avgdl) AS avgdl
        FROM tf JOIN df USING (lexeme) CROSS JOIN corpus c
        GROUP BY tf.id, tf.memory_type
        ORDER BY score DESC, tf.id
        LIMIT %(limit)s
    """)


#: A question of at most this many distinct terms runs BM25 as a prepared statement (``_bm25_rows``); a longer one
#: is planned for its own terms each time
PREPARED_TERMS = 8


def _bm25_rows(
    conn: Conn,
    table: sql.Composable,
    kind: sql.Composable,
    visible: sql.Composable,
    params: dict[str, Any],
    cache_key: tuple[Any, ...] | None,
) -> list[dict[str, Any]]:
    """The BM25 statement of the module docstring over ``table`` (aliased ``m``, with ``fts`` and
    ``token_count``) restricted to ``visible``; ``kind`` is the SQL of each row's ``memory_type``."""
    cached = corpus_stats.get(cache_key) if cache_key is not None else None
    corpus: sql.Composable
    if cached is not None:
        params["n"], params["avgdl"] = cached
        corpus = CACHED_CORPUS
    else:
        corpus = COUNTED_CORPUS.format(table=table, visible=visible)
    query = BM25.format(corpus=corpus, kind=kind, table=table, visible=visible)
    # a prepared statement's generic plan (PostgreSQL's choice after five runs) ignores the query's terms and
    # ran long questions 2× slower (20 terms, 500 rows: 23 against 12 ms p95); a custom plan costs ~2 ms of
    # planning, most of a short question's BM25 over the memories' partitions (3.5 against 1.3 ms)
    prepare = None if len(params["terms"]) <= PREPARED_TERMS else False
    rows = conn.execute(query, params, prepare=prepare).fetchall()
    if rows and cache_key is not None and cached is None:
        corpus_stats.put(cache_key, float(rows[0]["n"]), float(rows[0]["avgdl"]))
    return rows
