"""SQL fragments shared by the read queries of ``store`` (seed 000 §6.3 validity; STYLE habit 7).

- :data:`CURRENT` — a memory row ``m`` that is valid now (not expired, not invalidated);
- :data:`AS_OF` — a row known and valid at ``%(as_of)s`` (bitemporal time travel);
- :data:`ACTIVE_TRAIT_STAGES` — the trait stages recall may return (emerging/established/core);
- :func:`quote_term` — one tsquery lexeme, quoted so no user text is read as tsquery syntax;
- :func:`named_filter` — a compiled filter with named placeholders, to join a named-parameter query;
- :func:`nearest_in_partition` — the HNSW top-k of one partition for one user.
"""

from __future__ import annotations

from typing import Any

from .filters import CompiledFilter

ACTIVE_TRAIT_STAGES = ("emerging", "established", "core")
CURRENT = "m.expired_at IS NULL AND (m.invalid_at IS NULL OR m.invalid_at > now())"
AS_OF = (
    "m.created_at <= %(as_of)s AND (m.expired_at IS NULL OR m.expired_at > %(as_of)s)"
    " AND (m.valid_at IS NULL OR m.valid_at <= %(as_of)s)"
    " AND (m.invalid_at IS NULL OR m.invalid_at > %(as_of)s OR m.expired_at > %(as_of)s)"
)


def quote_term(term: str) -> str:
    """One tsquery lexeme, quoted so that no user text is read as tsquery syntax."""
    return "'" + term.replace("\\", "\\\\").replace("'", "''") + "'"


def named_filter(where: CompiledFilter) -> tuple[str, dict[str, Any]]:
    """Turn a filter's positional %s placeholders into named ones ``%(f0)s, %(f1)s…``."""
    text = where.clause.as_string(None)
    params: dict[str, Any] = {}
    pieces = text.split("%s")
    out = pieces[0]
    for i, piece in enumerate(pieces[1:]):
        name = f"f{i}"
        params[name] = where.params[i]
        out += f"%({name})s" + piece
    return out, params


__all__ = ["ACTIVE_TRAIT_STAGES", "AS_OF", "CURRENT", "named_filter", "quote_term"]


def nearest_in_partition(partition: str, scope: str, limit: str) -> str:
    """``m.id, m.memory_type, distance`` of the ``limit`` rows of ``memories_<partition>`` nearest
    to ``%(v)s`` among ``%(user_id)s``'s rows that pass ``scope``, nearest first.

    It reads the partition itself, and a one-time probe for any row of the user there gates the
    scan: with iterative scans, a user without rows of a type would otherwise walk that type's
    whole HNSW graph looking for some. The query vector stays a bound parameter in ORDER BY:
    pgvector uses the HNSW index only for ``column <=> constant-or-parameter``, never for a
    vector joined in from a CTE."""
    return f"""SELECT m.id, m.memory_type, m.embedding <=> %(v)s::halfvec AS distance
            FROM memories_{partition} m
            WHERE m.user_id = %(user_id)s AND m.embedding IS NOT NULL AND {scope}
              AND EXISTS (SELECT 1 FROM memories_{partition} e WHERE e.user_id = %(user_id)s)
            ORDER BY m.embedding <=> %(v)s::halfvec LIMIT {limit}"""
