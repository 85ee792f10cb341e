"""SQL of consolidation (seed 004 §2.2 / §4.1): old, rarely used episodes and their archiving
into summaries. The caller owns the transaction."""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Sequence

from psycopg import sql

from ..types import MemoryRecord
from .db import Conn
from .memories import MEMORY_COLUMNS, row_to_memory

COMPRESSIBLE_EPISODES = sql.SQL("""SELECT {select_columns},
                   coalesce((SELECT s.session_id::text FROM memory_sources s
                             WHERE s.user_id = m.user_id AND s.memory_id = m.id ORDER BY s.created_at LIMIT 1),
                            m.metadata->>'session_id',
                            to_char(coalesce(m.valid_at, m.created_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD')) AS group_key
            FROM memories m
            WHERE m.user_id = %s AND m.memory_type = 'episodic' AND m.expired_at IS NULL
              AND coalesce(m.valid_at, m.created_at) < %s AND m.access_count < %s
              AND NOT (m.metadata ? 'summary_of') AND coalesce((m.metadata->>'pinned')::boolean, false) = false
            ORDER BY group_key, coalesce(m.valid_at, m.created_at), m.id
            LIMIT %s""").format(select_columns=MEMORY_COLUMNS)


def compressible_episodes(
    conn: Conn, user_id: str, before: dt.datetime, max_access: int, limit: int
) -> list[tuple[str, MemoryRecord]]:
    """Current episodes valid (or written) before ``before``, recalled fewer than ``max_access``
    times, not pinned and not summaries themselves, with a grouping key: their first source
    session, else ``metadata.session_id``, else their day."""
    rows = conn.execute(COMPRESSIBLE_EPISODES, (user_id, before, max_access, limit)).fetchall()
    return [(r["group_key"], row_to_memory(r)) for r in rows]


USERS_WITH_OLD_EPISODES = """SELECT DISTINCT user_id FROM memories WHERE memory_type = 'episodic' AND expired_at IS NULL
           AND coalesce(valid_at, created_at) < %s ORDER BY user_id LIMIT %s"""


def users_with_old_episodes(conn: Conn, before: dt.datetime, limit: int) -> list[str]:
    rows = conn.execute(USERS_WITH_OLD_EPISODES, (before, limit)).fetchall()
    return [r["user_id"] for r in rows]


COPY_SOURCES = """INSERT INTO memory_sources (memory_id, session_id, message_id, user_id)
           SELECT DISTINCT ON (session_id) %s, session_id, message_id, user_id FROM memory_sources
           WHERE user_id = %s AND memory_id = ANY(%s) ORDER BY session_id, created_at
           ON CONFLICT ON CONSTRAINT memory_sources_pkey DO NOTHING"""


def copy_sources(conn: Conn, user_id: str, from_ids: Sequence[uuid.UUID], to_id: uuid.UUID) -> None:
    """The summary inherits the sessions and messages of what it summarises."""
    conn.execute(COPY_SOURCES, (to_id, user_id, list(from_ids)))


USERS_WITH_CURRENT = """SELECT DISTINCT user_id FROM memories WHERE memory_type IN ('fact', 'episodic') AND expired_at IS NULL
           ORDER BY user_id LIMIT %s"""


def users_with_current(conn: Conn, limit: int) -> list[str]:
    """Users with current facts or episodes (the scheduled concept and archive jobs)."""
    rows = conn.execute(USERS_WITH_CURRENT, (limit,)).fetchall()
    return [r["user_id"] for r in rows]
