"""SQL fragments shared by the read queries of ``store`` (seed 000 §6.3 validity; STYLE habit 7).

- :data:`CURRENT` — a memory row ``m`` that is valid now (not expired, not invalidated);
- :data:`AS_OF` — a row known and valid at ``%(as_of)s`` (bitemporal time travel);
- :data:`ACTIVE_TRAIT_STAGES` — the trait stages recall may return (emerging/established/core);
- :func:`quote_term` — one tsquery lexeme, quoted so no user text is read as tsquery syntax;
- :func:`named_filter` — a compiled filter with named placeholders, to join a named-parameter query.
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
