"""SQL for traits: rows, evidence, lineage, reflection cycles and watermarks (seed 000 §2.6, §4.2, §5.5).

Every function takes an open connection (the caller owns the transaction). Trait
writes use the optimistic lock on ``version`` (seed 000 §5.5): an update returns
``None`` when another writer changed the row first, and the caller re-reads and
retries (:class:`TraitConflict` is what the reflection engine raises for that).
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from psycopg import sql
from psycopg.types.json import Jsonb

from ..errors import VersionConflictError
from ..ids import uuid7
from ..types import EvidenceQuality, HistoryEvent, MemoryRecord, MemoryType
from . import history, memories
from .db import Conn
from .memories import MEMORY_COLUMNS, row_to_memory

ADVISORY_NAMESPACE = "neuromem.reflect:"


class TraitConflict(VersionConflictError):
    """A trait changed under us (optimistic lock lost); re-read and retry (seed 000 §5.5)."""


@dataclass(frozen=True, slots=True)
class Evidence:
    """One ``trait_evidence`` row joined with the memory it points at."""

    trait_id: uuid.UUID
    memory_id: uuid.UUID
    evidence_type: str  # supporting | contradicting
    quality: EvidenceQuality
    context: str | None
    created_at: dt.datetime
    content: str | None = None
    memory_type: str | None = None


@dataclass(frozen=True, slots=True)
class NewEvidence:
    trait_id: uuid.UUID
    memory_id: uuid.UUID
    evidence_type: str
    quality: EvidenceQuality
    context: str | None = None


# --------------------------------------------------------------------------- trait rows


_ACTIVE_TRAITS = sql.SQL(
    """SELECT {columns} FROM memories
       WHERE user_id = %s AND memory_type = 'trait' AND expired_at IS NULL AND trait_stage NOT IN {stages}
       ORDER BY created_at, id"""
)
ACTIVE_TRAITS = _ACTIVE_TRAITS.format(columns=MEMORY_COLUMNS, stages=sql.SQL("('dissolved')"))
ACTIVE_TRAITS_BUT_TRENDS = _ACTIVE_TRAITS.format(
    columns=MEMORY_COLUMNS, stages=sql.SQL("('dissolved', 'trend')")
)
_LIST_TRAITS = sql.SQL(
    """SELECT {columns} FROM memories
       WHERE user_id = %s AND memory_type = 'trait' AND expired_at IS NULL {live}
       ORDER BY CASE trait_subtype WHEN 'core' THEN 1 WHEN 'preference' THEN 2 ELSE 3 END,
                trait_confidence DESC NULLS LAST, created_at"""
)
LIST_TRAITS = _LIST_TRAITS.format(columns=MEMORY_COLUMNS, live=sql.SQL("AND trait_stage <> 'dissolved'"))
LIST_TRAITS_WITH_DISSOLVED = _LIST_TRAITS.format(columns=MEMORY_COLUMNS, live=sql.SQL(""))


def active_traits(conn: Conn, user_id: str, *, include_trends: bool = True) -> list[MemoryRecord]:
    """Current traits that are not dissolved, oldest first."""
    rows = conn.execute(ACTIVE_TRAITS if include_trends else ACTIVE_TRAITS_BUT_TRENDS, (user_id,)).fetchall()
    return [row_to_memory(r) for r in rows]


def list_traits(conn: Conn, user_id: str, *, include_dissolved: bool = False) -> list[MemoryRecord]:
    """Every current trait of a user (dissolved ones on request), grouped core → preference → behavior."""
    rows = conn.execute(
        LIST_TRAITS_WITH_DISSOLVED if include_dissolved else LIST_TRAITS, (user_id,)
    ).fetchall()
    return [row_to_memory(r) for r in rows]


def get_trait(conn: Conn, user_id: str, trait_id: uuid.UUID) -> MemoryRecord | None:
    record = memories.get(conn, user_id, trait_id)
    return record if record is not None and record.memory_type is MemoryType.TRAIT else None


def get_many_traits(conn: Conn, user_id: str, ids: Sequence[uuid.UUID]) -> dict[uuid.UUID, MemoryRecord]:
    return {
        k: v for k, v in memories.get_many(conn, user_id, ids).items() if v.memory_type is MemoryType.TRAIT
    }


def update_trait(
    conn: Conn,
    current: MemoryRecord,
    fields: dict[str, Any],
    *,
    event: HistoryEvent = HistoryEvent.UPDATE,
    actor: str = "reflection",
) -> MemoryRecord:
    """Change a trait in place under the optimistic lock and record the change in history.

    Raises :class:`TraitConflict` when ``current.version`` is no longer the stored one.
    """
    updated = memories.update_fields(
        conn, current.user_id, current.id, expected_version=current.version, fields=fields
    )
    if updated is None:
        raise TraitConflict(f"trait {current.id} changed since version {current.version}")
    history.record(conn, event, old=current, new=updated, actor=actor)
    return updated


def reinforce_on_recall(
    conn: Conn,
    user_id: str,
    trait_id: uuid.UUID,
    decide: Callable[[MemoryRecord, bool], tuple[float, dict[str, Any]] | None],
    *,
    retries: int = 3,
) -> MemoryRecord | None:
    """Recall reinforcement (seed 001 §8.2), as ``decide(trait, has_evidence)`` rules it
    (``recall.reinforcement``): it returns ``(delta, metadata)`` or None for no change.

    Adds ``delta`` to the raw confidence (capped at 1) and stores ``metadata``, under the
    optimistic lock, re-reading and retrying on a conflict. Never moves
    ``trait_last_reinforced`` (the decay clock belongs to evidence). Trends, dissolved and
    missing traits are left alone (returns None). Not a reflection reinforcement.
    """
    for _ in range(retries + 1):
        current = get_trait(conn, user_id, trait_id)
        if current is None or current.expired_at is not None or current.trait_stage in ("trend", "dissolved"):
            return None
        change = decide(current, has_supporting_evidence(conn, user_id, current))
        if change is None:
            return None
        delta, metadata = change
        confidence = min(1.0, (current.trait_confidence or 0.0) + delta)
        updated = memories.update_fields(
            conn,
            user_id,
            trait_id,
            expected_version=current.version,
            fields={"trait_confidence": confidence, "metadata": metadata},
        )
        if updated is not None:
            return updated
    raise TraitConflict(f"trait {trait_id} kept changing during recall reinforcement")


HAS_SUPPORTING_EVIDENCE = (
    "SELECT EXISTS (SELECT 1 FROM trait_evidence WHERE user_id = %s AND trait_id = %s "
    "AND evidence_type = 'supporting') AS e"
)


def has_supporting_evidence(conn: Conn, user_id: str, trait: MemoryRecord) -> bool:
    """Whether reflection ever reinforced the trait or recorded a supporting memory for it."""
    if (trait.trait_reinforcement_count or 0) > 0:
        return True
    row = conn.execute(HAS_SUPPORTING_EVIDENCE, (user_id, trait.id)).fetchone()
    return bool(row and row["e"])


# --------------------------------------------------------------------------- evidence


# which of the rows exist already, then a plain INSERT of the others: both name the user, so each runs
# on the user's shard (an INSERT … SELECT … WHERE NOT EXISTS is planned through the coordinator on Citus,
# which then copies rows into the shards, refused under row-level security); the cycle holds the
# user's reflection lock, so no other writer adds evidence in between
EXISTING_EVIDENCE = """SELECT trait_id, memory_id, evidence_type FROM trait_evidence
               WHERE user_id = %s AND trait_id = ANY(%s)"""
ADD_EVIDENCE = """INSERT INTO trait_evidence (id, user_id, trait_id, memory_id, evidence_type, quality, context,
                                           created_at)
               VALUES (%s, %s, %s, %s, %s, %s, %s, %s)"""


def add_evidence(conn: Conn, user_id: str, rows: Sequence[NewEvidence], *, created_at: dt.datetime) -> int:
    """Insert evidence rows (seed 000 §2.6.1); a memory is recorded once per trait and type."""
    if not rows:
        return 0
    existing = conn.execute(EXISTING_EVIDENCE, (user_id, list({r.trait_id for r in rows}))).fetchall()
    seen = {(e["trait_id"], e["memory_id"], e["evidence_type"]) for e in existing}
    new = []
    for r in rows:
        if (r.trait_id, r.memory_id, r.evidence_type) not in seen:
            seen.add((r.trait_id, r.memory_id, r.evidence_type))
            new.append(
                (
                    uuid7(),
                    user_id,
                    r.trait_id,
                    r.memory_id,
                    r.evidence_type,
                    str(r.quality),
                    r.context,
                    created_at,
                )
            )
    if new:
        with conn.cursor() as cur:
            cur.executemany(ADD_EVIDENCE, new)
    return len(rows)


EVIDENCE_FOR = """SELECT e.trait_id, e.memory_id, e.evidence_type, e.quality, e.context, e.created_at,
                  m.content, m.memory_type
           FROM trait_evidence e
           LEFT JOIN memories m ON m.id = e.memory_id AND m.user_id = e.user_id
           WHERE e.user_id = %s AND e.trait_id = ANY(%s)
             AND (m.id IS NULL OR m.expired_at IS NULL OR m.superseded_by IS NOT NULL)  -- never a deleted memory
           ORDER BY e.created_at, e.id"""


def evidence_for(conn: Conn, user_id: str, trait_ids: Iterable[uuid.UUID]) -> list[Evidence]:
    """Evidence rows of some traits with the content of each memory, oldest first."""
    rows = conn.execute(EVIDENCE_FOR, (user_id, list(trait_ids))).fetchall()
    return [
        Evidence(
            trait_id=r["trait_id"],
            memory_id=r["memory_id"],
            evidence_type=r["evidence_type"],
            quality=EvidenceQuality(r["quality"]),
            context=r["context"],
            created_at=r["created_at"],
            content=r["content"],
            memory_type=r["memory_type"],
        )
        for r in rows
    ]


EVIDENCED_MEMORY_IDS = """SELECT DISTINCT e.memory_id FROM trait_evidence e
           JOIN memories t ON t.id = e.trait_id AND t.memory_type = 'trait' AND t.user_id = e.user_id
           WHERE e.user_id = %s AND e.memory_id = ANY(%s)
             AND t.expired_at IS NULL AND t.trait_stage <> 'dissolved'"""


def evidenced_memory_ids(conn: Conn, user_id: str, memory_ids: Sequence[uuid.UUID]) -> set[uuid.UUID]:
    """Which of ``memory_ids`` already support or contradict some live trait."""
    if not memory_ids:
        return set()
    rows = conn.execute(EVIDENCED_MEMORY_IDS, (user_id, list(memory_ids))).fetchall()
    return {r["memory_id"] for r in rows}


# --------------------------------------------------------------------------- lineage (seed 000 §4.2)


DESCENDANTS = """WITH RECURSIVE chain AS (
               SELECT id, content, trait_subtype, trait_stage, trait_confidence, trait_parent_id, 0 AS depth
               FROM memories_trait WHERE user_id = %(u)s AND id = %(id)s AND expired_at IS NULL
               UNION ALL
               SELECT t.id, t.content, t.trait_subtype, t.trait_stage, t.trait_confidence, t.trait_parent_id,
                      c.depth + 1
               FROM memories_trait t JOIN chain c ON t.trait_parent_id = c.id
               WHERE t.user_id = %(u)s AND t.expired_at IS NULL AND c.depth < %(d)s
           )
           SELECT * FROM chain ORDER BY depth, id"""


def descendants(conn: Conn, user_id: str, trait_id: uuid.UUID, max_depth: int = 3) -> list[dict[str, Any]]:
    """The trait and everything below it (children, grandchildren…) with their depth — seed 000 §4.2."""
    return conn.execute(DESCENDANTS, {"u": user_id, "id": trait_id, "d": max_depth}).fetchall()


ANCESTORS = """WITH RECURSIVE chain AS (
               SELECT id, content, trait_subtype, trait_stage, trait_confidence, trait_parent_id, 0 AS depth
               FROM memories_trait WHERE user_id = %(u)s AND id = %(id)s
               UNION ALL
               SELECT t.id, t.content, t.trait_subtype, t.trait_stage, t.trait_confidence, t.trait_parent_id,
                      c.depth + 1
               FROM memories_trait t JOIN chain c ON t.id = c.trait_parent_id
               WHERE t.user_id = %(u)s AND c.depth < %(d)s
           )
           SELECT * FROM chain WHERE depth > 0 ORDER BY depth"""


def ancestors(conn: Conn, user_id: str, trait_id: uuid.UUID, max_depth: int = 3) -> list[dict[str, Any]]:
    """The upgrade chain above a trait: its parent, the parent's parent… (nearest first)."""
    return conn.execute(ANCESTORS, {"u": user_id, "id": trait_id, "d": max_depth}).fetchall()


# --------------------------------------------------------------------------- reflection cycles


START_CYCLE = """INSERT INTO reflection_cycles (id, user_id, trigger_type, trigger_value, status)
           VALUES (%s, %s, %s, %s, 'running')"""


def start_cycle(conn: Conn, user_id: str, trigger_type: str, trigger_value: float | None) -> uuid.UUID:
    cycle_id = uuid7()
    conn.execute(START_CYCLE, (cycle_id, user_id, trigger_type, trigger_value))
    return cycle_id


FINISH_CYCLE = """UPDATE reflection_cycles
           SET memories_scanned = %s, traits_created = %s, traits_updated = %s, traits_dissolved = %s,
               completed_at = %s, status = 'completed', details = %s
           WHERE user_id = %s AND id = %s"""


def finish_cycle(
    conn: Conn,
    user_id: str,
    cycle_id: uuid.UUID,
    *,
    scanned: int,
    created: int,
    updated: int,
    dissolved: int,
    details: dict[str, Any],
    at: dt.datetime,
) -> None:
    conn.execute(FINISH_CYCLE, (scanned, created, updated, dissolved, at, Jsonb(details), user_id, cycle_id))


# the clock is a parameter: on a Citus cluster an UPDATE may not call a volatile function (clock_timestamp)
FAIL_CYCLE = """UPDATE reflection_cycles SET status = 'failed', completed_at = %s, error_message = %s
           WHERE user_id = %s AND id = %s"""


def fail_cycle(conn: Conn, user_id: str, cycle_id: uuid.UUID, error: str, at: dt.datetime) -> None:
    conn.execute(FAIL_CYCLE, (at, error[:2000], user_id, cycle_id))


LAST_COMPLETED_CYCLE = """SELECT * FROM reflection_cycles WHERE user_id = %s AND status = 'completed'
           ORDER BY started_at DESC, id DESC LIMIT 1"""


def last_completed_cycle(conn: Conn, user_id: str) -> dict[str, Any] | None:
    """The newest completed cycle; its ``details`` hold the watermark and the reflection clock."""
    return conn.execute(LAST_COMPLETED_CYCLE, (user_id,)).fetchone()


RECENT_CYCLES = (
    "SELECT * FROM reflection_cycles WHERE user_id = %s ORDER BY started_at DESC, id DESC LIMIT %s"
)


def cycles(conn: Conn, user_id: str, limit: int = 20) -> list[dict[str, Any]]:
    return conn.execute(RECENT_CYCLES, (user_id, limit)).fetchall()


# --------------------------------------------------------------------------- scanning and watermarks


def new_memories(
    conn: Conn, user_id: str, *, after_created: dt.datetime | None, after_id: uuid.UUID | None
) -> list[dict[str, Any]]:
    """Current fact/episodic rows written after the watermark ``(created_at, id)``, oldest first.

    Rows carry the columns the reflection engine needs, plus the session of the
    memory from ``memory_sources`` (NULL when it has none) and the embedding as text.
    """
    params: list[Any] = [user_id]
    where = [_M_OF_USER]
    if after_created is not None:
        where.append(_M_AFTER)
        params += [after_created, after_id or uuid.UUID(int=0)]
    return _memory_rows(conn, where, params)


def pool_memories(
    conn: Conn,
    user_id: str,
    *,
    since: dt.datetime,
    until_created: dt.datetime | None,
    until_id: uuid.UUID | None,
) -> list[dict[str, Any]]:
    """Older current fact/episodic rows (up to the watermark) whose event time is after ``since``."""
    if until_created is None:
        return []
    params: list[Any] = [user_id, since, until_created, until_id or uuid.UUID(int=0)]
    return _memory_rows(conn, [_M_OF_USER, _M_OBSERVED_SINCE, _M_UP_TO], params)


_M_OF_USER = sql.SQL("m.user_id = %s")
_M_AFTER = sql.SQL("(m.created_at, m.id) > (%s, %s)")
_M_UP_TO = sql.SQL("(m.created_at, m.id) <= (%s, %s)")
_M_OBSERVED_SINCE = sql.SQL("coalesce(m.valid_at, m.created_at) >= %s")
REFLECTION_ROWS = sql.SQL(
    """SELECT m.id, m.content, m.memory_type, m.category, m.importance, m.metadata, m.language,
                   m.created_at, coalesce(m.valid_at, m.created_at) AS observed_at,
                   halfvec_send(m.embedding) AS embedding,
                   (SELECT s.session_id FROM memory_sources s WHERE s.user_id = m.user_id AND s.memory_id = m.id
                    LIMIT 1) AS session_id
            FROM memories m
            WHERE {where} AND m.memory_type IN ('fact', 'episodic')
              AND m.expired_at IS NULL AND m.invalid_at IS NULL
            ORDER BY m.created_at, m.id"""
)


def _memory_rows(conn: Conn, where: Sequence[sql.Composable], params: list[Any]) -> list[dict[str, Any]]:
    return conn.execute(REFLECTION_ROWS.format(where=sql.SQL(" AND ").join(where)), params).fetchall()


_UNREFLECTED_IMPORTANCE = sql.SQL(
    """SELECT importance, coalesce(valid_at, created_at) AS observed_at FROM memories
       WHERE user_id = %s {after} AND memory_type IN ('fact', 'episodic') AND expired_at IS NULL"""
)
UNREFLECTED_IMPORTANCE = _UNREFLECTED_IMPORTANCE.format(after=sql.SQL(""))
UNREFLECTED_IMPORTANCE_AFTER = _UNREFLECTED_IMPORTANCE.format(
    after=sql.SQL("AND (created_at, id) > (%s, %s)")
)


def unreflected_importance(
    conn: Conn, user_id: str, *, after_created: dt.datetime | None, after_id: uuid.UUID | None
) -> tuple[list[float], dt.datetime | None]:
    """Importances of fact/episodic rows after the watermark, and the oldest event time among them."""
    if after_created is None:
        rows = conn.execute(UNREFLECTED_IMPORTANCE, (user_id,)).fetchall()
    else:
        params = (user_id, after_created, after_id or uuid.UUID(int=0))
        rows = conn.execute(UNREFLECTED_IMPORTANCE_AFTER, params).fetchall()
    oldest = min((r["observed_at"] for r in rows), default=None)
    return [float(r["importance"]) for r in rows], oldest


SESSIONS_AWAITING_REFLECTION = """SELECT id FROM conversation_sessions
           WHERE user_id = %(u)s
             AND (
               (ended_at IS NOT NULL AND (last_reflected_at IS NULL OR last_reflected_at < ended_at))
               OR (ended_at IS NULL AND last_message_at IS NOT NULL
                   AND last_message_at <= %(now)s - make_interval(secs => %(idle)s)
                   AND (last_reflected_at IS NULL OR last_reflected_at < last_message_at))
             )"""


def sessions_awaiting_reflection(
    conn: Conn, user_id: str, now: dt.datetime, idle_s: float
) -> list[uuid.UUID]:
    """Sessions that ended (explicitly, or idle for ``idle_s``) after their last reflection (seed 001 §4.5)."""
    rows = conn.execute(
        SESSIONS_AWAITING_REFLECTION,
        {"u": user_id, "now": now, "idle": idle_s},
    ).fetchall()
    return [r["id"] for r in rows]


LATEST_MESSAGE_AT = "SELECT max(last_message_at) AS at FROM conversation_sessions WHERE user_id = %s"


def latest_message_at(conn: Conn, user_id: str) -> dt.datetime | None:
    """When the user's newest stored message was sent: the conversation's clock for trigger checks."""
    row = conn.execute(LATEST_MESSAGE_AT, (user_id,)).fetchone()
    return None if row is None else row["at"]


ADVANCE_SESSION_WATERMARK = """UPDATE conversation_sessions SET last_reflected_at = %s
           WHERE user_id = %s AND (last_reflected_at IS NULL OR last_reflected_at < %s)"""


def advance_session_watermark(conn: Conn, user_id: str, now: dt.datetime) -> int:
    """Step 9 of seed 001 §4.5: every session of the user was reflected up to ``now``."""
    cur = conn.execute(ADVANCE_SESSION_WATERMARK, (now, user_id, now))
    return cur.rowcount


TRY_LOCK_USER = "SELECT pg_try_advisory_lock(hashtextextended(%s, 0)) AS ok"


def try_lock_user(conn: Conn, user_id: str) -> bool:
    """Session-level advisory lock: one reflection per user at a time (released by :func:`unlock_user`)."""
    row = conn.execute(TRY_LOCK_USER, (ADVISORY_NAMESPACE + user_id,)).fetchone()
    return bool(row and row["ok"])


UNLOCK_USER = "SELECT pg_advisory_unlock(hashtextextended(%s, 0))"


def unlock_user(conn: Conn, user_id: str) -> None:
    conn.execute(UNLOCK_USER, (ADVISORY_NAMESPACE + user_id,))


_LOCK_TIMEOUT = sql.SQL("SET LOCAL lock_timeout = {ms}")
_LOCK_USER = sql.SQL("SELECT pg_advisory_xact_lock(hashtextextended({key}, 0))").format(key=sql.Placeholder())
_TRAIT_VECTORS = sql.SQL(
    "SELECT id, halfvec_send(embedding) AS e FROM memories_trait WHERE user_id = {user} AND id = ANY({ids})"
).format(user=sql.Placeholder(), ids=sql.Placeholder())


def lock_user_for_cycle(conn: Conn, user_id: str, *, lock_timeout_s: float) -> None:
    """Inside a reflection cycle's transaction: wait (at most ``lock_timeout_s`` for any row or
    advisory lock) for the user's reflection lock, so two cycles of one user never interleave."""
    conn.execute(_LOCK_TIMEOUT.format(ms=sql.Literal(f"{int(lock_timeout_s * 1000)}ms")))
    conn.execute(_LOCK_USER, (ADVISORY_NAMESPACE + user_id,))


def trait_vectors(conn: Conn, user_id: str, ids: Sequence[uuid.UUID]) -> dict[uuid.UUID, bytes | None]:
    """The stored vectors of traits, in pgvector's binary form (``vectors.from_halfvec_send``)."""
    rows = conn.execute(_TRAIT_VECTORS, (user_id, list(ids))).fetchall()
    return {r["id"]: r["e"] for r in rows}
