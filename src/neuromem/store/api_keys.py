"""SQL over ``api_keys`` (migration 0009): the service's hashed keys. Rows come back as dicts;
``neuromem.service.api.keys`` turns them into ``ApiKey`` / ``Principal`` values."""

from __future__ import annotations

import datetime as dt
import uuid
from typing import Any

from .db import Conn

INSERT_KEY = """INSERT INTO api_keys (id, tenant, name, scope, bound_user, secret_sha256)
           VALUES (%s, %s, %s, %s, %s, %s) RETURNING *"""


def insert(
    conn: Conn,
    key_id: uuid.UUID,
    *,
    tenant: str,
    name: str,
    scope: str,
    bound_user: str | None,
    secret_sha256: bytes,
) -> dict[str, Any]:
    row = conn.execute(INSERT_KEY, (key_id, tenant, name, scope, bound_user, secret_sha256)).fetchone()
    assert row is not None
    return row


LIST_KEYS = """SELECT * FROM api_keys
           WHERE (%(t)s::text IS NULL OR tenant = %(t)s) AND (%(all)s OR revoked_at IS NULL)
           ORDER BY tenant, created_at"""


def list_keys(conn: Conn, tenant: str | None, *, include_revoked: bool) -> list[dict[str, Any]]:
    return conn.execute(LIST_KEYS, {"t": tenant, "all": include_revoked}).fetchall()


# the clock is a parameter: on a Citus cluster (a reference table) only immutable functions may sit in coalesce()
REVOKE_KEY = "UPDATE api_keys SET revoked_at = coalesce(revoked_at, %s) WHERE id = %s RETURNING *"


def revoke(conn: Conn, key_id: uuid.UUID, at: dt.datetime) -> dict[str, Any] | None:
    return conn.execute(REVOKE_KEY, (at, key_id)).fetchone()


ACTIVE_KEY = "SELECT * FROM api_keys WHERE id = %s AND revoked_at IS NULL"


def active(conn: Conn, key_id: uuid.UUID) -> dict[str, Any] | None:
    return conn.execute(ACTIVE_KEY, (key_id,)).fetchone()


TOUCH_KEY = "UPDATE api_keys SET last_used_at = now() WHERE id = %s"


def touch(conn: Conn, key_id: uuid.UUID) -> None:
    conn.execute(TOUCH_KEY, (key_id,))


DELETE_NAMED_KEYS = "DELETE FROM api_keys WHERE tenant = %s AND name = %s"


def delete_named(conn: Conn, tenant: str, name: str) -> int:
    """Remove every key of ``tenant`` called ``name`` (keys a process made for itself); how many."""
    return conn.execute(DELETE_NAMED_KEYS, (tenant, name)).rowcount
