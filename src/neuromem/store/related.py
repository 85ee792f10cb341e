"""SQL for a memory's neighbours in the graph (issue 26 item 4): every current edge touching it,
with the node at the other end when that end is a node. Memories at the other end are read by
``memories.get_many``."""

from __future__ import annotations

import uuid
from typing import Any

from .db import Conn

NEIGHBOURS = """
SELECT e.edge_type, e.weight, e.confidence, e.valid_at, e.invalid_at, e.created_at,
       CASE WHEN e.source_id = %(id)s THEN 'out' ELSE 'in' END AS direction,
       o.other_id, o.other_kind, n.node_type, n.name
FROM graph_edges e
CROSS JOIN LATERAL (SELECT CASE WHEN e.source_id = %(id)s THEN e.target_id ELSE e.source_id END AS other_id,
                           CASE WHEN e.source_id = %(id)s THEN e.target_kind ELSE e.source_kind END AS other_kind) o
LEFT JOIN graph_nodes n ON n.user_id = e.user_id AND n.id = o.other_id AND o.other_kind = 'node'
WHERE e.user_id = %(user)s AND (e.source_id = %(id)s OR e.target_id = %(id)s) AND e.expired_at IS NULL
ORDER BY e.weight DESC, e.created_at DESC, e.id
LIMIT %(limit)s"""


def neighbours(conn: Conn, user_id: str, memory_id: uuid.UUID, limit: int) -> list[dict[str, Any]]:
    """The current edges touching ``memory_id``, heaviest first, each with its far end."""
    return conn.execute(NEIGHBOURS, {"id": memory_id, "user": user_id, "limit": limit}).fetchall()
