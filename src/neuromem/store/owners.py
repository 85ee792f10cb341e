"""Who owns what, for the adapters whose APIs name a memory by id alone (Mem0's ``get(memory_id)``)."""

from __future__ import annotations

import uuid

from .db import Conn

OWNER_OF = "SELECT user_id FROM memories WHERE id = %s LIMIT 1"


def owner_of(conn: Conn, memory_id: uuid.UUID) -> str | None:
    """The user a memory id belongs to, or None."""
    row = conn.execute(OWNER_OF, (memory_id,)).fetchone()
    return None if row is None else str(row["user_id"])


ALL_USERS = "SELECT user_id FROM memories UNION SELECT user_id FROM conversation_sessions ORDER BY 1"


def users(conn: Conn) -> list[str]:
    """Every user with memories or conversations in the database."""
    rows = conn.execute(ALL_USERS).fetchall()
    return [str(r["user_id"]) for r in rows]
