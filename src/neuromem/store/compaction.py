"""SQL of physical erasure (issue 23 item 4): rewrite the relations that held forgotten rows.

A DELETE leaves the row's bytes in its heap page, in every index page that pointed to it and in
the write-ahead log; a plain VACUUM only marks that space free. ``VACUUM FULL`` copies the live
rows of one relation (its TOAST table and indexes rebuilt with it) into new files and truncates
the old ones at commit. It holds an ACCESS EXCLUSIVE lock on that relation only — one memory
partition, the messages table — for the length of the rewrite; ``lock_timeout`` bounds the wait
for it so the compaction never queues the whole store behind a long reader.

A row still visible to an open transaction survives the rewrite ("recently dead"), so the caller
first waits for the transactions that started before it (``open_transactions_before``).
Then ``CHECKPOINT``, ``pg_switch_wal()``, ``CHECKPOINT``: the segments that recorded the rows end
before the last checkpoint's redo point and are removed, or recycled when ``wal_recycle`` is on
(a recycled segment keeps its old bytes until PostgreSQL writes over it).

Every statement here runs on an autocommit owner connection (VACUUM cannot run in a transaction).
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import psycopg
from psycopg import sql

PENDING_RECEIPTS = """SELECT id, relations FROM forget_receipts WHERE erased_at IS NULL
                      AND (%(u)s::text IS NULL OR user_id = %(u)s) ORDER BY created_at LIMIT %(limit)s"""
OPEN_TRANSACTIONS_BEFORE = """SELECT count(*) AS n FROM (
    SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()
        AND backend_type = 'client backend' AND xact_start < %(t)s
    UNION ALL SELECT 1 FROM pg_prepared_xacts WHERE database = current_database() AND prepared < %(t)s) x"""
EXISTING_RELATIONS = """SELECT r FROM unnest(%s::text[]) r
                        WHERE to_regclass(quote_ident(r)) IS NOT NULL ORDER BY r"""
SET_LOCK_TIMEOUT = sql.SQL("SET lock_timeout = {}")
VACUUM_FULL = sql.SQL("VACUUM (FULL) {}")
CHECKPOINT = "CHECKPOINT"
SWITCH_WAL = "SELECT pg_switch_wal()"
MARK_ERASED = """UPDATE forget_receipts SET erased_at = clock_timestamp()
                 WHERE erased_at IS NULL AND id = ANY(%s) RETURNING erased_at"""
NOW = "SELECT clock_timestamp() AS t"


@dataclass(frozen=True, slots=True)
class Pending:
    """A receipt whose rows were deleted but may still be on disk."""

    id: uuid.UUID
    relations: tuple[str, ...]


def pending(conn: psycopg.Connection[Any], user_id: str | None, limit: int) -> list[Pending]:
    rows = conn.execute(PENDING_RECEIPTS, {"u": user_id, "limit": limit}).fetchall()
    return [Pending(r[0], tuple(r[1])) for r in rows]


def now(conn: psycopg.Connection[Any]) -> dt.datetime:
    row = conn.execute(NOW).fetchone()
    assert row is not None
    return row[0]  # type: ignore[no-any-return]


def open_transactions_before(conn: psycopg.Connection[Any], moment: dt.datetime) -> int:
    """Transactions of this database (and prepared ones) older than ``moment``: their snapshots may
    still see rows deleted before it, which VACUUM FULL would then copy."""
    row = conn.execute(OPEN_TRANSACTIONS_BEFORE, {"t": moment}).fetchone()
    assert row is not None
    return int(row[0])


def existing(conn: psycopg.Connection[Any], relations: Sequence[str]) -> list[str]:
    return [r[0] for r in conn.execute(EXISTING_RELATIONS, (list(relations),)).fetchall()]


def rewrite(conn: psycopg.Connection[Any], relation: str, lock_timeout_ms: int) -> None:
    """``VACUUM (FULL)`` one relation, waiting at most ``lock_timeout_ms`` for its lock."""
    conn.execute(SET_LOCK_TIMEOUT.format(sql.Literal(f"{int(lock_timeout_ms)}ms")))
    conn.execute(VACUUM_FULL.format(sql.Identifier(relation)))


def retire_wal(conn: psycopg.Connection[Any]) -> None:
    """Checkpoint, start a new WAL segment, checkpoint again: the older segments leave ``pg_wal``.
    Needs superuser or the ``pg_checkpoint`` role and EXECUTE on ``pg_switch_wal``."""
    conn.execute(CHECKPOINT)
    conn.execute(SWITCH_WAL)
    conn.execute(CHECKPOINT)


def mark_erased(conn: psycopg.Connection[Any], receipt_ids: Sequence[uuid.UUID]) -> dt.datetime | None:
    rows = conn.execute(MARK_ERASED, (list(receipt_ids),)).fetchall()
    return rows[0][0] if rows else None
