"""Conflicts between facts resolved on purpose (seed 003 §7.2–§7.3).

At ingest, a new fact that contradicts current facts — the same slot with another value
(rules or the LLM extractor), or, found offline by embeddings and confirmed by a rule, the
same attribute of the speaker with another value (``conflict_priority.attribute_and_value``)
— is scored against each of them with the conflict priority. The winner stays (or becomes)
the active version; the loser keeps its row with ``invalid_at``; a call closer than
``conflicts.review_margin`` leaves both active and opens an item of the review queue
(``memory_conflicts`` status ``open``), resolved by ``Memory.resolve_conflict`` or
``memctl conflicts resolve``. Every conflict is recorded (status ``auto`` when the formula
decided), drawn as ``CONTRADICTS`` edges both ways, and announced by the events
``ConflictDetected`` and ``FactPromoted`` / ``FactDemoted`` in ``pipeline_events``.
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .. import validation as check
from ..errors import ConflictNotFoundError, InvalidInputError
from ..store import conflicts as store
from ..store import graph, history, memories, usage
from ..store.conflicts import ConflictRow
from ..store.db import Conn
from ..store.graph import EdgeInput
from ..types import HistoryEvent, MemoryRecord, MemoryType
from .conflict_priority import Side, Verdict, attribute_and_value, judge, source_trust

Invalidate = Callable[[Conn, MemoryRecord, dt.datetime, str], MemoryRecord | None]

ACTOR = "conflicts"


@dataclass(frozen=True, slots=True)
class Opposed:
    """A current fact the new one contradicts, with the attribute and both values."""

    old: MemoryRecord
    attribute: str
    old_value: str
    new_value: str
    detector: str  # "slot" or "attribute"


@dataclass
class ConflictPlan:
    verdicts: list[tuple[Opposed, Verdict]] = field(default_factory=list)


@dataclass
class ConflictResolver:
    """The ingest-time half: detection, scoring, invalidation, queue, edges and events."""

    settings: Any  # Settings
    dim: int
    events: list[tuple[str, dict[str, Any]]]

    def detect(self, conn: Conn, user_id: str, content: str, vector: np.ndarray | None, *,
               exclude: Sequence[uuid.UUID]) -> list[Opposed]:  # fmt: skip
        """Offline: nearest current facts (embeddings) that state the same attribute of the speaker
        with another value (rule)."""
        c = self.settings.conflicts
        mine = attribute_and_value(content)
        if mine is None or vector is None or c.detect_neighbours == 0:
            return []
        found = []
        near = memories.nearest_current(conn, user_id, MemoryType.FACT, vector, self.dim, limit=c.detect_neighbours)
        for old, similarity in near:
            if old.id in exclude or similarity < c.detect_min_similarity or old.invalid_at is not None:
                continue
            theirs = attribute_and_value(old.content)
            if theirs is not None and theirs[0] == mine[0] and theirs[1] != mine[1]:
                found.append(Opposed(old, mine[0], theirs[1], mine[1], "attribute"))
        return found

    def before_write(self, conn: Conn, draft: Any, opposed: Sequence[Opposed], invalidate: Invalidate,
                     actor: str) -> ConflictPlan:  # fmt: skip
        """Score each pair; an old fact that loses is invalidated now (before the new one is written)."""
        plan = ConflictPlan()
        new_trust = source_trust(draft.metadata, self.settings.conflicts)
        when = draft.valid_at or dt.datetime.now(dt.UTC)
        for o in opposed:
            agreeing_old, agreeing_new, others = _agreement(conn, draft.user_id, o)
            old_side = Side(source_trust(o.old.metadata, self.settings.conflicts), False,
                            store.support_count(conn, draft.user_id, o.old.id), agreeing_old, others)  # fmt: skip
            new_side = Side(new_trust, True, 1, agreeing_new, others)
            verdict = judge(old_side, new_side, self.settings.conflicts)
            if verdict.winner == "new":
                invalidate(conn, o.old, when, actor)
            plan.verdicts.append((o, verdict))
        return plan

    def after_write(self, conn: Conn, new: MemoryRecord, plan: ConflictPlan, invalidate: Invalidate,
                    actor: str) -> MemoryRecord:  # fmt: skip
        """Invalidate a new fact that lost, open review items, record conflicts, edges and events.
        Returns the new fact as it now stands."""
        for o, verdict in plan.verdicts:
            if new.id == o.old.id:
                continue  # the write merged into the old fact: no conflict left
            if verdict.winner == "old":
                current = memories.get(conn, new.user_id, new.id)
                if current is not None and current.invalid_at is None and current.expired_at is None:
                    new = invalidate(conn, current, current.valid_at or current.created_at, actor) or new
            winner = {"old": o.old.id, "new": new.id}.get(verdict.winner or "")
            row = store.insert(conn, new.user_id, attribute=o.attribute, old_id=o.old.id, new_id=new.id,
                               old_score=verdict.old_score, new_score=verdict.new_score,
                               status="open" if winner is None else "auto", winner_id=winner,
                               detector=o.detector)  # fmt: skip
            graph.add_edges(conn, new.user_id, [EdgeInput(o.old.id, "memory", new.id, "memory", "CONTRADICTS",
                                                          properties={"conflict_id": str(row.id)})])  # fmt: skip
            self.events.extend(_events(row))
        return new


def _agreement(conn: Conn, user_id: str, o: Opposed) -> tuple[int, int, int]:
    """How many of the user's other facts on the slot agree with the old and with the new value."""
    if o.detector != "slot":
        return 0, 0, 0
    values = store.slot_values(conn, user_id, o.attribute, excluding=o.old.id)
    return values.count(o.old_value), values.count(o.new_value), len(values)


def _events(row: ConflictRow) -> list[tuple[str, dict[str, Any]]]:
    detail = {"conflict_id": str(row.id), "old_id": str(row.old_id), "new_id": str(row.new_id),
              "old_score": round(row.old_score, 4), "new_score": round(row.new_score, 4), "status": row.status}  # fmt: skip
    out = [("ConflictDetected", detail)]
    if row.winner_id is not None:
        loser = row.new_id if row.winner_id == row.old_id else row.old_id
        out.append(("FactPromoted", {"conflict_id": str(row.id), "memory_id": str(row.winner_id)}))
        out.append(("FactDemoted", {"conflict_id": str(row.id), "memory_id": str(loser)}))
    return out


def opposed_by_slot(contradicted: Sequence[MemoryRecord], slot: str, value: str | None) -> list[Opposed]:
    return [Opposed(m, slot, str(m.metadata.get("slot_value")), str(value), "slot") for m in contradicted]


# --------------------------------------------------------------------------- the review queue (SDK)


@dataclass(frozen=True, slots=True)
class Conflict:
    """A conflict with both sides' current rows (``memories`` of the old and the new fact)."""

    row: ConflictRow
    old: MemoryRecord | None
    new: MemoryRecord | None


def list_conflicts(core: Any, user_id: Any, *, status: str = "open", limit: int = 100) -> list[Conflict]:
    uid = check.user_id(user_id, core.settings.write)
    statuses = {"open": ["open"], "resolved": ["resolved"], "auto": ["auto"], "all": ["open", "resolved", "auto"]}
    if status not in statuses:
        raise InvalidInputError(f"status must be one of {sorted(statuses)}, got {status!r}")
    with core.db.connection() as conn:
        rows = store.list_conflicts(conn, uid, statuses[status], check.limit(limit, maximum=10_000))
        records = memories.get_many(conn, uid, [i for r in rows for i in (r.old_id, r.new_id)])
    return [Conflict(r, records.get(r.old_id), records.get(r.new_id)) for r in rows]


def resolve_conflict(core: Any, user_id: Any, conflict_id: Any, *, keep: Any, actor: str = "user") -> Conflict:
    """Resolve an open conflict: ``keep`` (one side's memory id) stays active, the other gets ``invalid_at``."""
    uid = check.user_id(user_id, core.settings.write)
    cid, kept = check.memory_id(conflict_id), check.memory_id(keep)
    with core.db.transaction() as conn:
        row = store.get_for_update(conn, uid, cid)
        if row is None:
            raise ConflictNotFoundError(f"no conflict {cid} for user {uid!r}")
        if row.status != "open":
            raise InvalidInputError(f"conflict {cid} is already {row.status}")
        if kept not in (row.old_id, row.new_id):
            raise InvalidInputError(f"keep must be {row.old_id} or {row.new_id}, got {kept}")
        loser_id = row.new_id if kept == row.old_id else row.old_id
        loser = memories.get(conn, uid, loser_id)
        if loser is not None and loser.expired_at is None and loser.invalid_at is None:
            at = max(dt.datetime.now(dt.UTC), (loser.valid_at or loser.created_at) + dt.timedelta(microseconds=1))
            ended = memories.invalidate(conn, uid, loser.id, expected_version=loser.version, invalid_at=at)
            if ended is not None:
                history.record(conn, HistoryEvent.UPDATE, old=loser, new=ended, actor=actor[:50],
                               extra={"reason": "conflict resolved", "conflict_id": str(cid)})  # fmt: skip
        resolved = store.mark_resolved(conn, uid, cid, kept, actor)
        usage.record_events(conn, uid, _events(resolved))
        records = memories.get_many(conn, uid, [row.old_id, row.new_id])
    return Conflict(resolved, records.get(row.old_id), records.get(row.new_id))


__all__ = ["Conflict", "ConflictPlan", "ConflictResolver", "Opposed", "list_conflicts", "opposed_by_slot",
           "resolve_conflict"]  # fmt: skip
