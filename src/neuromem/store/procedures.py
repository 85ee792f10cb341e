"""SQL of procedural memory: the user's current procedures and their similarity to a task."""

from __future__ import annotations

import uuid

import numpy as np
from psycopg import sql

from ..types import MemoryRecord
from .db import Conn
from .memories import MEMORY_COLUMNS, row_to_memory
from .vectors import to_halfvec

_CURRENT = "user_id = %(u)s AND memory_type = 'fact' AND category = %(c)s AND expired_at IS NULL AND invalid_at IS NULL"


CURRENT_PROCEDURES = sql.SQL(
    "SELECT {select_columns} FROM memories WHERE {current} ORDER BY importance DESC, created_at DESC LIMIT %(n)s"
).format(select_columns=MEMORY_COLUMNS, current=sql.SQL(_CURRENT))


def current_procedures(conn: Conn, user_id: str, category: str, *, limit: int = 500) -> list[MemoryRecord]:
    """The user's current procedure facts, most important first."""
    rows = conn.execute(CURRENT_PROCEDURES, {"u": user_id, "c": category, "n": limit}).fetchall()
    return [row_to_memory(r) for r in rows]


SIMILARITIES = sql.SQL(
    "SELECT id, 1 - (embedding <=> %(v)s::halfvec) AS similarity FROM memories WHERE {current} AND embedding IS NOT NULL"
).format(current=sql.SQL(_CURRENT))


def similarities(
    conn: Conn, user_id: str, category: str, vector: np.ndarray, dim: int
) -> dict[uuid.UUID, float]:
    """Cosine similarity of ``vector`` to each current procedure that has an embedding."""
    rows = conn.execute(
        SIMILARITIES,
        {"u": user_id, "c": category, "v": to_halfvec(vector, dim)},
    ).fetchall()
    return {r["id"]: float(r["similarity"]) for r in rows}
