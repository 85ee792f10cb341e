"""The one translation of database failures into neuromem's typed errors (STYLE.md habit 11).

psycopg raises one class per SQLSTATE; callers of neuromem must never see them (issue #12
item 4, issue #13 item 2). :func:`map_db_error` is used by every transaction and connection
that ``store.db.Database`` hands out, and by the pool's open::

    connection lost, server shut down, pool timeout   → DatabaseUnavailableError
    class 22 (data exception), class 54 (limits)       → InvalidInputError (nothing was written:
                                                         the transaction rolled back)
    40001 serialization failure, 40P01 deadlock,
    23505 unique violation                             → ConflictError
    anything else from psycopg                         → StoreError

A ``NeuromemError`` is returned unchanged, and a non-database exception is not touched
(``None``): a bug in neuromem stays visible as itself.
"""

from __future__ import annotations

import psycopg
from psycopg_pool import PoolClosed, PoolTimeout

from ..errors import ConflictError, DatabaseUnavailableError, InvalidInputError, NeuromemError, StoreError

# SQLSTATEs (https://www.postgresql.org/docs/current/errcodes-appendix.html)
_UNAVAILABLE_CLASSES = ("08", "53", "58")  # connection exception, insufficient resources, system error
_UNAVAILABLE_CODES = frozenset({"57P01", "57P02", "57P03", "57P05"})  # shutdown, crash, starting, idle
_INPUT_CLASSES = ("22", "54")  # data exception (bad value, NUL, out of range), program limit exceeded
_CONFLICT_CODES = frozenset({"40001", "40P01", "23505"})


def map_db_error(exc: BaseException) -> NeuromemError | None:
    """The typed neuromem error for a database failure, or None when ``exc`` is not one."""
    if isinstance(exc, NeuromemError):
        return exc
    if isinstance(exc, PoolTimeout):
        return DatabaseUnavailableError(f"no database connection became available: {_first_line(exc)}")
    if isinstance(exc, PoolClosed):
        return DatabaseUnavailableError("the connection pool is closed (the Memory was closed)")
    if not isinstance(exc, psycopg.Error):
        return None
    code = exc.sqlstate or ""
    detail = _first_line(exc)
    if isinstance(exc, psycopg.InterfaceError | psycopg.OperationalError) and not code:
        return DatabaseUnavailableError(f"the database connection failed: {detail}")
    if code.startswith(_UNAVAILABLE_CLASSES) or code in _UNAVAILABLE_CODES:
        return DatabaseUnavailableError(f"the database is unavailable ({code}): {detail}")
    if code.startswith(_INPUT_CLASSES):
        return InvalidInputError(f"the database refused a value ({code}): {detail}")
    if code in _CONFLICT_CODES:
        return ConflictError(f"a concurrent change conflicted ({code}): {detail}; retry")
    return StoreError(f"database error ({code or type(exc).__name__}): {detail}")


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0][:300] if text else type(exc).__name__
