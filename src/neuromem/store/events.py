"""SQL over ``memory_events`` (filled by triggers, migration 0020) and ``webhooks`` (issue 26 item 5).

A cursor is ``(txid, id)``: rows are read in that order, and only rows of transactions older than
every transaction still running (``txid < pg_snapshot_xmin(pg_current_snapshot())``), so an event
committed late is never passed over.
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Sequence
from typing import Any

from .db import Conn

USER_EVENTS = """SELECT id, txid::text AS txid, user_id, kind, memory_id, memory_type, detail, created_at FROM memory_events
    WHERE user_id = %(user)s AND (txid, id) > (%(txid)s::xid8, %(id)s) AND txid < pg_snapshot_xmin(pg_current_snapshot())
      AND (cardinality(%(kinds)s::text[]) = 0 OR kind = ANY(%(kinds)s::text[]))
    ORDER BY txid, id LIMIT %(limit)s"""

# the stored user keys of a tenant (store/tenancy.py): the plain id for "default", "t=<tenant>/<id>" otherwise
TENANT_EVENTS = """SELECT id, txid::text AS txid, user_id, kind, memory_id, memory_type, detail, created_at FROM memory_events
    WHERE (txid, id) > (%(txid)s::xid8, %(id)s) AND txid < pg_snapshot_xmin(pg_current_snapshot())
      AND CASE WHEN %(tenant)s = 'default' THEN user_id NOT LIKE 't=%%'
               ELSE starts_with(user_id, 't=' || %(tenant)s || '/') END
      AND (cardinality(%(kinds)s::text[]) = 0 OR kind = ANY(%(kinds)s::text[]))
    ORDER BY txid, id LIMIT %(limit)s"""


def user_events(
    conn: Conn, user_id: str, after: tuple[int, int], kinds: Sequence[str], limit: int
) -> list[dict[str, Any]]:
    return conn.execute(
        USER_EVENTS,
        {"user": user_id, "txid": str(after[0]), "id": after[1], "kinds": list(kinds), "limit": limit},
    ).fetchall()


def tenant_events(
    conn: Conn, tenant: str, after: tuple[int, int], kinds: Sequence[str], limit: int
) -> list[dict[str, Any]]:
    return conn.execute(
        TENANT_EVENTS,
        {"tenant": tenant, "txid": str(after[0]), "id": after[1], "kinds": list(kinds), "limit": limit},
    ).fetchall()


ADD_WEBHOOK = """INSERT INTO webhooks (id, tenant, url, events, secret) VALUES (%s, %s, %s, %s, %s)
    RETURNING id, tenant, url, events, secret, cursor_txid::text AS cursor_txid, cursor_id, delivered,
           failures, last_error, last_attempt_at, created_at, removed_at"""
LIST_WEBHOOKS = """SELECT id, tenant, url, events, secret, cursor_txid::text AS cursor_txid, cursor_id, delivered,
           failures, last_error, last_attempt_at, created_at, removed_at FROM webhooks
    WHERE (%(tenant)s::text IS NULL OR tenant = %(tenant)s) AND (%(all)s OR removed_at IS NULL)
    ORDER BY created_at, id"""
REMOVE_WEBHOOK = """UPDATE webhooks SET removed_at = now() WHERE id = %s AND removed_at IS NULL
    RETURNING id, tenant, url, events, secret, cursor_txid::text AS cursor_txid, cursor_id, delivered,
           failures, last_error, last_attempt_at, created_at, removed_at"""
DELIVERED = """UPDATE webhooks SET cursor_txid = %s::xid8, cursor_id = %s, delivered = delivered + %s, failures = 0,
    last_error = NULL, last_attempt_at = %s
    WHERE id = %s AND (cursor_txid, cursor_id) = (%s::xid8, %s)"""
FAILED = (
    """UPDATE webhooks SET failures = failures + 1, last_error = %s, last_attempt_at = %s WHERE id = %s"""
)


def add_webhook(
    conn: Conn, webhook_id: uuid.UUID, tenant: str, url: str, kinds: Sequence[str], secret: str
) -> dict[str, Any]:
    row = conn.execute(ADD_WEBHOOK, (webhook_id, tenant, url, list(kinds), secret)).fetchone()
    assert row is not None
    return row


def list_webhooks(conn: Conn, tenant: str | None, *, include_removed: bool = False) -> list[dict[str, Any]]:
    return conn.execute(LIST_WEBHOOKS, {"tenant": tenant, "all": include_removed}).fetchall()


def remove_webhook(conn: Conn, webhook_id: uuid.UUID) -> dict[str, Any] | None:
    return conn.execute(REMOVE_WEBHOOK, (webhook_id,)).fetchone()


def mark_delivered(
    conn: Conn,
    webhook_id: uuid.UUID,
    was: tuple[int, int],
    cursor: tuple[int, int],
    count: int,
    at: dt.datetime,
) -> bool:
    """Move the cursor from ``was`` to ``cursor``; False when another delivery moved it meanwhile."""
    cur = conn.execute(DELIVERED, (str(cursor[0]), cursor[1], count, at, webhook_id, str(was[0]), was[1]))
    return cur.rowcount == 1


def mark_failed(conn: Conn, webhook_id: uuid.UUID, error: str, at: dt.datetime) -> None:
    conn.execute(FAILED, (error[:500], at, webhook_id))
