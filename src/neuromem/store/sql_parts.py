"""SQL fragments shared by the read queries of ``store`` (seed 000 §6.3 validity; STYLE habit 7).

- :data:`CURRENT_SQL` — a memory row ``m`` that is valid now (not expired, not invalidated);
- :data:`AS_OF_SQL` — a row current at record time ``%(as_of)s``: what the system knew then;
- :data:`VALID_AT_SQL` — a row true at event time ``%(valid_at)s``, as known at ``%(as_of)s`` (or now);
- :func:`time_scope_sql` — the one of those three a query asks for, with its parameters;
- :func:`recall_scope_sql` — the same for recall, which never returns a soft-deleted row (issue 16);
- :data:`ACTIVE_TRAIT_STAGES` — the trait stages recall may return (emerging/established/core);
- :func:`quote_term` — one tsquery lexeme, quoted so no user text is read as tsquery syntax;
- :func:`nearest` / :func:`nearest_in_partition` — the top-k rows of one user nearest to a vector
  (exact, or HNSW).

Each predicate is a :class:`psycopg.sql.SQL`, composed into statements with
``sql.SQL(...).format`` (issue 13 item 2).
"""

from __future__ import annotations

from typing import Any

from psycopg import sql

ACTIVE_TRAIT_STAGES = ("emerging", "established", "core")
CURRENT_SQL = sql.SQL("m.expired_at IS NULL AND (m.invalid_at IS NULL OR m.invalid_at > now())")
# Time travel has two axes (docs/time-travel.md). Record time: a row is known from created_at
# until expired_at (superseded or deleted). Event time: it holds from valid_at (or, when no event
# time was given, from when it was recorded) until invalid_at. A superseded row's invalid_at is
# written when it expires, so before that moment it was not yet known.
AS_OF_SQL = sql.SQL(
    "m.created_at <= %(as_of)s AND (m.expired_at IS NULL OR m.expired_at > %(as_of)s)"
    " AND (m.invalid_at IS NULL OR m.invalid_at > %(as_of)s OR m.expired_at > %(as_of)s)"
)
# Event time: rows known at the record time (now by default), plus the versions a later version
# *ended* (superseded with an end of validity: the world's history, not a correction or a
# delete), whose interval holds the moment.
VALID_AT_SQL = sql.SQL(
    "m.created_at <= {known_at}"
    " AND (m.expired_at IS NULL OR m.expired_at > {known_at}"
    "      OR (m.superseded_by IS NOT NULL AND m.invalid_at IS NOT NULL))"
    " AND coalesce(m.valid_at, m.created_at) <= %(valid_at)s"
    " AND (m.invalid_at IS NULL OR m.invalid_at > %(valid_at)s OR m.expired_at > {known_at})"
).format(known_at=sql.SQL("coalesce(%(as_of)s::timestamptz, now())"))
#: A row that was not soft-deleted: never expired, or expired only because a newer version replaced it
#: or because the archive job archived it (``archived_at``, seed 003 §6.4: not deleted, restorable).
NOT_DELETED_SQL = sql.SQL(
    "(m.expired_at IS NULL OR m.superseded_by IS NOT NULL OR m.archived_at IS NOT NULL)"
)


def time_scope_sql(as_of: Any, valid_at: Any, params: dict[str, Any]) -> sql.Composable:
    """The validity predicate on rows ``m`` for record time ``as_of`` and event time ``valid_at``
    (either may be None); sets their named parameters in ``params``."""
    params["as_of"] = as_of
    if valid_at is not None:
        params["valid_at"] = valid_at
        return VALID_AT_SQL
    return AS_OF_SQL if as_of is not None else CURRENT_SQL


def recall_scope_sql(as_of: Any, valid_at: Any, params: dict[str, Any]) -> sql.Composable:
    """:func:`time_scope_sql` for recall paths: a deleted memory never comes back, time travel included
    (``get_all(as_of=…)`` and ``history`` still show it until the purge)."""
    validity = time_scope_sql(as_of, valid_at, params)
    return validity if validity is CURRENT_SQL else sql.SQL(" AND ").join([validity, NOT_DELETED_SQL])


def quote_term(term: str) -> str:
    """One tsquery lexeme, quoted so that no user text is read as tsquery syntax."""
    return "'" + term.replace("\\", "\\\\").replace("'", "''") + "'"


__all__ = [
    "ACTIVE_TRAIT_STAGES",
    "AS_OF_SQL",
    "CURRENT_SQL",
    "EXACT_SEARCH_MAX_ROWS",
    "NOT_DELETED_SQL",
    "VALID_AT_SQL",
    "nearest",
    "nearest_in_partition",
    "quote_term",
    "recall_scope_sql",
    "time_scope_sql",
]


#: A user with at most this many rows in a partition is searched exactly (every row's distance)
#: instead of through the HNSW graph; see :func:`nearest_in_partition`.
EXACT_SEARCH_MAX_ROWS = 500


# the user's row count in the table is probed up to one past the threshold, then one branch runs
NEAREST = sql.SQL("""WITH n AS (SELECT count(*) AS rows FROM (SELECT 1 FROM {table} c
                                WHERE c.user_id = %(user_id)s LIMIT {probe}) c)
        ({select} AND (SELECT rows FROM n) <= {max_rows}
              ORDER BY (m.embedding <=> %(v)s::halfvec) + 0 LIMIT {limit})
        UNION ALL
        ({select} AND (SELECT rows FROM n) > {max_rows}
              ORDER BY m.embedding <=> %(v)s::halfvec LIMIT {limit})""")
NEAREST_IN_PARTITION = sql.SQL("""SELECT m.id, m.memory_type, m.embedding <=> %(v)s::halfvec AS distance
            FROM {table} m
            WHERE m.user_id = %(user_id)s AND m.embedding IS NOT NULL AND {scope}""")


def nearest(table: sql.Identifier, select: sql.Composable, limit: sql.Composable) -> sql.Composed:
    """The two branches of :func:`nearest_in_partition` over ``table`` (whose rows ``c`` have a
    ``user_id``): ``select`` (rows ``m`` with their ``distance`` to ``%(v)s``) is run exactly or
    through the HNSW index, whichever fits the user's row count."""
    return NEAREST.format(
        table=table,
        select=select,
        limit=limit,
        probe=sql.Literal(EXACT_SEARCH_MAX_ROWS + 1),
        max_rows=sql.Literal(EXACT_SEARCH_MAX_ROWS),
    )


def nearest_in_partition(partition: str, scope: sql.Composable, limit: sql.Composable) -> sql.Composed:
    """``m.id, m.memory_type, distance`` of the ``limit`` rows of ``memories_<partition>`` nearest
    to ``%(v)s`` among ``%(user_id)s``'s rows that pass ``scope`` (nearest first within each branch).

    Two branches, of which a one-time count of the user's rows there (stopping at
    ``EXACT_SEARCH_MAX_ROWS`` + 1, counted once for both) runs exactly one:

    - **exact** for a user with few rows (the many users of a shared database): every row's
      distance, read through the user's index. The HNSW graph holds every user's rows, and a
      walk filtered down to a small share of them is approximate twice over — it missed 5 and 8
      of the true top 20 of some LongMemEval users (~500 rows among 35k) — and up to ~500 rows
      reading every row costs about what a graph walk does (the pipeline's vector stage 3.3
      against 2.7 ms p50 at 500 rows). Beyond that it reads more heap pages than the walk: with
      a 2,000-row threshold the first recall at 1M rows / 1,000 users (cold cache) took 67 / 102
      ms p50 / p95 against 20 / 27 ms. A user without rows of the type costs one index probe.
    - **HNSW** (iterative scan) beyond that, where the graph pays.

    The query vector stays a bound parameter in ORDER BY: pgvector uses the HNSW index only for
    ``column <=> constant-or-parameter``, never for a vector joined in from a CTE; the exact
    branch orders by ``distance + 0``, which no index serves."""
    table = sql.Identifier(f"memories_{partition}")
    return nearest(table, NEAREST_IN_PARTITION.format(table=table, scope=scope), limit)
