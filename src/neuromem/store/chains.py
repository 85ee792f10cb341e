"""Supersede chains: the first version of each memory, its stable identity across updates."""

from __future__ import annotations

import uuid
from collections.abc import Sequence

from .db import Conn

CHAIN_ROOTS = """WITH RECURSIVE back AS (
               SELECT id AS head, id FROM memories WHERE user_id = %(u)s AND id = ANY(%(ids)s)
               UNION
               SELECT b.head, m.id FROM back b JOIN memories m ON m.superseded_by = b.id AND m.user_id = %(u)s
           )
           SELECT b.head, b.id AS root FROM back b
           WHERE NOT EXISTS (SELECT 1 FROM memories p WHERE p.user_id = %(u)s AND p.superseded_by = b.id)"""


def chain_roots(conn: Conn, user_id: str, ids: Sequence[uuid.UUID]) -> dict[uuid.UUID, uuid.UUID]:
    """For each memory id, the id of the first version of its chain (itself when never updated)."""
    if not ids:
        return {}
    rows = conn.execute(CHAIN_ROOTS, {"u": user_id, "ids": list(ids)}).fetchall()
    return {r["head"]: r["root"] for r in rows}
