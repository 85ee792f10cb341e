"""A dry run: the memories a forget would remove, and the sizes of the work sets."""

from __future__ import annotations

import datetime as dt
import uuid
from dataclasses import dataclass

from psycopg import sql

from ..db import Conn
from .work_sets import COUNT_SET, WORK_SETS


@dataclass(frozen=True, slots=True)
class PreviewRow:
    """One memory a forget would remove (a dry run shows the words, nothing is deleted)."""

    id: uuid.UUID
    memory_type: str
    content: str
    created_at: dt.datetime
    current: bool


PREVIEW_MEMORIES = """SELECT m.id, m.memory_type, m.content, m.created_at, m.expired_at IS NULL AS current
           FROM memories m JOIN _forget_mem f ON f.id = m.id AND f.memory_type = m.memory_type
           WHERE m.user_id = %s ORDER BY m.created_at, m.id LIMIT %s"""


def preview(conn: Conn, user_id: str, limit: int) -> tuple[list[PreviewRow], dict[str, int]]:
    rows = conn.execute(PREVIEW_MEMORIES, (user_id, limit)).fetchall()
    counts = {
        name: int(conn.execute(COUNT_SET.format(name=sql.Identifier(name))).fetchone()["n"])  # type: ignore[index]
        for name in WORK_SETS
    }
    return [PreviewRow(**r) for r in rows], counts
