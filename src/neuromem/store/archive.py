"""SQL of the archive (seed 003 §6.4 "低权重归档"): low-weight memories and graph nodes leave recall
(``expired_at``) without being deleted or superseded (``archived_at``); ``restore`` brings them back.
The caller owns the transaction."""

from __future__ import annotations

import datetime as dt
import uuid
from dataclasses import dataclass
from typing import Any

from psycopg import sql
from psycopg.types.json import Jsonb

from ..ids import uuid7
from ..types import MemoryRecord
from .db import Conn
from .memories import MEMORY_COLUMNS, row_to_memory

#: node types never archived: the user's own node and the raw-chunk nodes of the citation paths
KEPT_NODE_TYPES = ("user", "raw_chunk")


MEMORY_CANDIDATES = sql.SQL("""SELECT {select_columns} FROM memories m
            WHERE m.user_id = %s AND m.memory_type IN ('fact', 'episodic') AND m.expired_at IS NULL
              AND coalesce((m.metadata->>'pinned')::boolean, false) = false
              AND (m.memory_type = 'fact' OR coalesce(m.valid_at, m.created_at) < %s)
            ORDER BY m.created_at, m.id LIMIT %s""").format(select_columns=MEMORY_COLUMNS)


def memory_candidates(
    conn: Conn, user_id: str, episodes_before: dt.datetime, limit: int
) -> list[MemoryRecord]:
    """Current facts and episodes, not pinned; episodes only once past ``episodes_before`` (compression's
    line: a rarely used episode is summarised first, and what is left of it may then be archived)."""
    rows = conn.execute(MEMORY_CANDIDATES, (user_id, episodes_before, limit)).fetchall()
    return [row_to_memory(r) for r in rows]


@dataclass(frozen=True, slots=True)
class NodeCandidate:
    id: uuid.UUID
    node_type: str
    name: str
    last_seen: dt.datetime
    live_links: int  # current memories linked to it (ABOUT / MENTIONS / …)
    importance: float  # their mean importance, 0 without any


NODE_CANDIDATES = """SELECT n.id, n.node_type, n.name, coalesce(n.updated_at, n.created_at) AS last_seen,
                  count(m.id) AS live_links, coalesce(avg(m.importance), 0) AS importance
           FROM graph_nodes n
           LEFT JOIN graph_edges e ON e.user_id = n.user_id AND e.target_id = n.id AND e.source_kind = 'memory'
                                  AND e.expired_at IS NULL
           LEFT JOIN memories m ON m.user_id = e.user_id AND m.id = e.source_id AND m.expired_at IS NULL
           WHERE n.user_id = %s AND n.expired_at IS NULL AND n.node_type <> ALL(%s)
           GROUP BY n.user_id, n.id ORDER BY n.id LIMIT %s"""  # (user_id, id): the key on a Citus cluster too


def node_candidates(conn: Conn, user_id: str, limit: int) -> list[NodeCandidate]:
    rows = conn.execute(NODE_CANDIDATES, (user_id, list(KEPT_NODE_TYPES), limit)).fetchall()
    return [
        NodeCandidate(
            r["id"], r["node_type"], r["name"], r["last_seen"], int(r["live_links"]), float(r["importance"])
        )
        for r in rows
    ]


ARCHIVE_MEMORY = sql.SQL("""UPDATE memories SET expired_at = now(), archived_at = now(), updated_at = now()
            WHERE user_id = %s AND id = %s AND version = %s AND expired_at IS NULL RETURNING {select_columns}""").format(
    select_columns=MEMORY_COLUMNS
)


def archive_memory(conn: Conn, user_id: str, memory_id: uuid.UUID, version: int) -> MemoryRecord | None:
    row = conn.execute(ARCHIVE_MEMORY, (user_id, memory_id, version)).fetchone()
    return None if row is None else row_to_memory(row)


RESTORE_MEMORY = sql.SQL("""UPDATE memories SET expired_at = NULL, archived_at = NULL, updated_at = now()
            WHERE user_id = %s AND id = %s AND archived_at IS NOT NULL RETURNING {select_columns}""").format(
    select_columns=MEMORY_COLUMNS
)


def restore_memory(conn: Conn, user_id: str, memory_id: uuid.UUID) -> MemoryRecord | None:
    row = conn.execute(RESTORE_MEMORY, (user_id, memory_id)).fetchone()
    return None if row is None else row_to_memory(row)


def set_node_archived(conn: Conn, user_id: str, node_id: uuid.UUID, archived: bool) -> dict[str, Any] | None:
    """Archive a current node, or restore an archived one; returns the node or None when it was not so."""
    if archived:
        query = """UPDATE graph_nodes SET expired_at = now(), archived_at = now()
                   WHERE user_id = %s AND id = %s AND expired_at IS NULL RETURNING id, node_type, name"""
    else:
        query = """UPDATE graph_nodes SET expired_at = NULL, archived_at = NULL, updated_at = now()
                   WHERE user_id = %s AND id = %s AND archived_at IS NOT NULL RETURNING id, node_type, name"""
    return conn.execute(query, (user_id, node_id)).fetchone()


LOG_NODE_EVENT = "INSERT INTO pipeline_events (id, user_id, kind, detail) VALUES (%s, %s, %s, %s)"


def log_node_event(conn: Conn, user_id: str, kind: str, detail: dict[str, Any]) -> None:
    """Nodes have no history table: their archive and restore go to ``pipeline_events`` with the actor."""
    conn.execute(LOG_NODE_EVENT, (uuid7(), user_id, kind, Jsonb(detail)))
