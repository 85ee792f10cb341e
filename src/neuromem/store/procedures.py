"""SQL of procedural memory: the user's current procedures and their similarity to a task."""

from __future__ import annotations

import uuid

import numpy as np

from ..types import MemoryRecord
from .db import Conn
from .memories import SELECT_COLUMNS, row_to_memory
from .vectors import to_halfvec

_CURRENT = "user_id = %(u)s AND memory_type = 'fact' AND category = %(c)s AND expired_at IS NULL AND invalid_at IS NULL"


def current_procedures(conn: Conn, user_id: str, category: str, *, limit: int = 500) -> list[MemoryRecord]:
    """The user's current procedure facts, most important first."""
    rows = conn.execute(
        f"SELECT {SELECT_COLUMNS} FROM memories WHERE {_CURRENT} ORDER BY importance DESC, created_at DESC LIMIT %(n)s",
        {"u": user_id, "c": category, "n": limit},
    ).fetchall()
    return [row_to_memory(r) for r in rows]


def similarities(conn: Conn, user_id: str, category: str, vector: np.ndarray, dim: int) -> dict[uuid.UUID, float]:
    """Cosine similarity of ``vector`` to each current procedure that has an embedding."""
    rows = conn.execute(
        f"SELECT id, 1 - (embedding <=> %(v)s::halfvec) AS similarity FROM memories "
        f"WHERE {_CURRENT} AND embedding IS NOT NULL",
        {"u": user_id, "c": category, "v": to_halfvec(vector, dim)},
    ).fetchall()
    return {r["id"]: float(r["similarity"]) for r in rows}
