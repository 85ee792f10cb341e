"""SQL over ``memory_history`` (seed 000 §2.6.2): one row per change, written in the change's transaction."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

from psycopg.types.json import Jsonb

from ..ids import uuid7
from ..types import HistoryEntry, HistoryEvent, MemoryRecord, MemoryType
from .db import Conn

RECORD_HISTORY = """INSERT INTO memory_history (id, user_id, memory_id, memory_type, event, old_content, new_content,
                                       old_metadata, new_metadata, actor)
           VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)"""


def record(
    conn: Conn,
    event: HistoryEvent,
    *,
    new: MemoryRecord | None = None,
    old: MemoryRecord | None = None,
    actor: str = "system",
    memory_id: uuid.UUID | None = None,
    extra: dict[str, Any] | None = None,
) -> None:
    """Write one history row describing ``old`` → ``new`` (either may be None)."""
    subject = new or old
    assert subject is not None, "a history row needs the old or the new memory"
    new_meta = None if new is None else {**new.metadata, **(extra or {})}
    conn.execute(
        RECORD_HISTORY,
        (
            uuid7(),
            subject.user_id,
            memory_id or subject.id,
            str(subject.memory_type),
            str(event),
            None if old is None else old.content,
            None if new is None else new.content,
            None if old is None else Jsonb(old.metadata),
            None if new_meta is None else Jsonb(new_meta),
            actor,
        ),
    )


HISTORY_OF_MEMORIES = """SELECT id, memory_id, memory_type, event, old_content, new_content, old_metadata, new_metadata,
                  actor, created_at
           FROM memory_history WHERE user_id = %s AND memory_id = ANY(%s)
           ORDER BY created_at, id"""


def for_memories(conn: Conn, user_id: str, memory_ids: Sequence[uuid.UUID]) -> list[HistoryEntry]:
    rows = conn.execute(HISTORY_OF_MEMORIES, (user_id, list(memory_ids))).fetchall()
    return [
        HistoryEntry(
            id=r["id"],
            memory_id=r["memory_id"],
            memory_type=MemoryType(r["memory_type"]),
            event=HistoryEvent(r["event"]),
            old_content=r["old_content"],
            new_content=r["new_content"],
            old_metadata=r["old_metadata"],
            new_metadata=r["new_metadata"],
            actor=r["actor"],
            created_at=r["created_at"],
        )
        for r in rows
    ]
