"""SQL over ``memory_conflicts`` (seed 003 §7.2 review queue) and the inputs of the conflict
priority: a fact's support and the agreement of the user's other facts on one attribute."""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Sequence
from dataclasses import dataclass

from psycopg import sql

from ..ids import uuid7
from .db import Conn


@dataclass(frozen=True, slots=True)
class ConflictRow:
    id: uuid.UUID
    user_id: str
    attribute: str
    old_id: uuid.UUID
    new_id: uuid.UUID
    old_score: float
    new_score: float
    status: str
    winner_id: uuid.UUID | None
    detector: str
    created_at: dt.datetime
    resolved_at: dt.datetime | None
    resolved_by: str | None


_COLUMNS = (
    "id, user_id, attribute, old_id, new_id, old_score, new_score, status, winner_id, detector, "
    "created_at, resolved_at, resolved_by"
)


SLOT_VALUES = """SELECT metadata->>'slot_value' AS v FROM memories WHERE user_id = %s AND memory_type = 'fact'
           AND metadata->>'slot' = %s AND id <> %s AND (expired_at IS NULL OR superseded_by IS NOT NULL)"""


def slot_values(conn: Conn, user_id: str, slot: str, *, excluding: uuid.UUID) -> list[str | None]:
    """The values of the user's other facts on ``slot`` (current ones, and versions that were superseded)."""
    rows = conn.execute(SLOT_VALUES, (user_id, slot, excluding)).fetchall()
    return [r["v"] for r in rows]


SUPPORT_COUNT = """SELECT (SELECT count(*) FROM memory_sources WHERE user_id = %(u)s AND memory_id = %(m)s)
                + (SELECT count(*) FROM graph_edges WHERE user_id = %(u)s AND target_id = %(m)s
                   AND edge_type = 'SUPPORTS' AND expired_at IS NULL) AS n"""


def support_count(conn: Conn, user_id: str, memory_id: uuid.UUID) -> int:
    """Supporting pieces of a fact: its provenance rows and the SUPPORTS edges pointing at it (≥ 1)."""
    row = conn.execute(SUPPORT_COUNT, {"u": user_id, "m": memory_id}).fetchone()
    return max(1, int(row["n"])) if row else 1


INSERT_CONFLICT = sql.SQL("""INSERT INTO memory_conflicts (id, user_id, attribute, old_id, new_id, old_score, new_score, status,
                                          winner_id, detector, resolved_at, resolved_by)
            VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s,
                    CASE WHEN %s = 'auto' THEN now() END, CASE WHEN %s = 'auto' THEN 'formula' END)
            RETURNING {columns}""").format(columns=sql.SQL(_COLUMNS))


def insert(
    conn: Conn,
    user_id: str,
    *,
    attribute: str,
    old_id: uuid.UUID,
    new_id: uuid.UUID,
    old_score: float,
    new_score: float,
    status: str,
    winner_id: uuid.UUID | None,
    detector: str,
) -> ConflictRow:
    row = conn.execute(
        INSERT_CONFLICT,
        (
            uuid7(),
            user_id,
            attribute[:500],
            old_id,
            new_id,
            old_score,
            new_score,
            status,
            winner_id,
            detector,
            status,
            status,
        ),
    ).fetchone()
    assert row is not None
    return ConflictRow(**row)


LIST_CONFLICTS = sql.SQL("""SELECT {columns} FROM memory_conflicts WHERE user_id = %s AND status = ANY(%s)
            ORDER BY created_at DESC, id DESC LIMIT %s""").format(columns=sql.SQL(_COLUMNS))


def list_conflicts(conn: Conn, user_id: str, statuses: Sequence[str], limit: int) -> list[ConflictRow]:
    rows = conn.execute(LIST_CONFLICTS, (user_id, list(statuses), limit)).fetchall()
    return [ConflictRow(**r) for r in rows]


LOCK_CONFLICT = sql.SQL(
    "SELECT {columns} FROM memory_conflicts WHERE user_id = %s AND id = %s FOR UPDATE"
).format(columns=sql.SQL(_COLUMNS))


def get_for_update(conn: Conn, user_id: str, conflict_id: uuid.UUID) -> ConflictRow | None:
    row = conn.execute(LOCK_CONFLICT, (user_id, conflict_id)).fetchone()
    return None if row is None else ConflictRow(**row)


MARK_RESOLVED = sql.SQL("""UPDATE memory_conflicts SET status = 'resolved', winner_id = %s, resolved_at = now(), resolved_by = %s
            WHERE user_id = %s AND id = %s RETURNING {columns}""").format(columns=sql.SQL(_COLUMNS))


def mark_resolved(
    conn: Conn, user_id: str, conflict_id: uuid.UUID, winner_id: uuid.UUID, actor: str
) -> ConflictRow:
    row = conn.execute(MARK_RESOLVED, (winner_id, actor[:50], user_id, conflict_id)).fetchone()
    assert row is not None
    return ConflictRow(**row)
