"""SQL over ``trait_suppressions`` (migration 0021): deleted traits that reflection must not form again."""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Sequence
from dataclasses import dataclass

from ..ids import uuid7
from .db import Conn


@dataclass(frozen=True, slots=True)
class Suppression:
    id: uuid.UUID
    trait_id: uuid.UUID
    content: str
    keywords: tuple[str, ...]
    evidence_ids: frozenset[uuid.UUID]
    deleted_at: dt.datetime


# two statements, not INSERT … SELECT array_agg(…): Citus cannot route an INSERT … SELECT whose target's
# user_id is a parameter, and runs it through the coordinator with COPY, which row-level security forbids
SUPPORTING = """SELECT coalesce(array_agg(DISTINCT memory_id), '{}') AS ids
            FROM trait_evidence WHERE user_id = %s AND trait_id = %s AND evidence_type = 'supporting'"""
INSERT = """INSERT INTO trait_suppressions (id, user_id, trait_id, content, keywords, evidence_ids)
            VALUES (%s, %s, %s, %s, %s, %s)"""
ACTIVE = """SELECT id, trait_id, content, keywords, evidence_ids, deleted_at FROM trait_suppressions
            WHERE user_id = %s AND lifted_at IS NULL ORDER BY deleted_at"""
LIFT = "UPDATE trait_suppressions SET lifted_at = %s WHERE user_id = %s AND id = %s"
STORED_AFTER = "SELECT id FROM memories WHERE user_id = %s AND id = ANY(%s) AND created_at > %s"


def record(conn: Conn, user_id: str, trait_id: uuid.UUID, content: str, keywords: Sequence[str]) -> None:
    """Suppress a deleted trait: its theme and every memory that supported it, as of now."""
    row = conn.execute(SUPPORTING, (user_id, trait_id)).fetchone()
    evidence = list(row["ids"]) if row is not None else []
    conn.execute(INSERT, (uuid7(), user_id, trait_id, content, list(keywords), evidence))


def active(conn: Conn, user_id: str) -> list[Suppression]:
    rows = conn.execute(ACTIVE, (user_id,)).fetchall()
    return [
        Suppression(
            r["id"],
            r["trait_id"],
            r["content"],
            tuple(r["keywords"]),
            frozenset(r["evidence_ids"]),
            r["deleted_at"],
        )
        for r in rows
    ]


def lift(conn: Conn, user_id: str, suppression_id: uuid.UUID, at: dt.datetime) -> None:
    conn.execute(LIFT, (at, user_id, suppression_id))


def stored_after(
    conn: Conn, user_id: str, memory_ids: Sequence[uuid.UUID], moment: dt.datetime
) -> set[uuid.UUID]:
    """Which of ``memory_ids`` were stored after ``moment`` (record time)."""
    if not memory_ids:
        return set()
    return {r["id"] for r in conn.execute(STORED_AFTER, (user_id, list(memory_ids), moment)).fetchall()}
