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


INSERT = """INSERT INTO trait_suppressions (id, user_id, trait_id, content, keywords, evidence_ids)
            SELECT %s, %s, %s, %s, %s, coalesce(array_agg(DISTINCT memory_id), '{}')
            FROM trait_evidence WHERE user_id = %s AND trait_id = %s AND evidence_type = 'supporting'"""
ACTIVE = """SELECT id, trait_id, content, keywords, evidence_ids, deleted_at FROM trait_suppressions
            WHERE user_id = %s AND lifted_at IS NULL ORDER BY deleted_at"""
LIFT = "UPDATE trait_suppressions SET lifted_at = %s WHERE user_id = %s AND id = %s"
STORED_AFTER = "SELECT id FROM memories WHERE user_id = %s AND id = ANY(%s) AND created_at > %s"


def record(conn: Conn, user_id: str, trait_id: uuid.UUID, content: str, keywords: Sequence[str]) -> None:
    """Suppress a deleted trait: its theme and every memory that supported it, as of now."""
    conn.execute(INSERT, (uuid7(), user_id, trait_id, content, list(keywords), user_id, trait_id))


def active(conn: Conn, user_id: str) -> list[Suppression]:
    rows = conn.execute(ACTIVE, (user_id,)).fetchall()
    return [Suppression(r["id"], r["trait_id"], r["content"], tuple(r["keywords"]), frozenset(r["evidence_ids"]),
                        r["deleted_at"]) for r in rows]  # fmt: skip


def lift(conn: Conn, user_id: str, suppression_id: uuid.UUID, at: dt.datetime) -> None:
    conn.execute(LIFT, (at, user_id, suppression_id))


def stored_after(conn: Conn, user_id: str, memory_ids: Sequence[uuid.UUID], moment: dt.datetime) -> set[uuid.UUID]:
    """Which of ``memory_ids`` were stored after ``moment`` (record time)."""
    if not memory_ids:
        return set()
    return {r["id"] for r in conn.execute(STORED_AFTER, (user_id, list(memory_ids), moment)).fetchall()}
