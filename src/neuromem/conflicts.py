"""Conflicts between facts resolved on purpose (seed 003 §7.2–§7.3).

When a fact is written (``add`` and ingest), a new fact that contradicts current facts — the
same slot with another value (rules or the LLM extractor), or the same subject and relation
with another value of a single-valued relation (``neuromem.text.value_changes.value_change``, issue
21: templates, aligned words, then statement frames with the vectors' cosine,
``text.slot_frames``; the old facts come from ``metadata.slot`` and from the nearest current facts), or that
corrects the statement its speaker said just before (``text.corrections``, :data:`CORRECTION_WINDOW`) — is scored
against each of them with the conflict priority. The winner stays (or becomes)
the active version; the loser keeps its row with ``invalid_at``; a call closer than
``conflicts.review_margin`` leaves both active and opens an item of the review queue
(``memory_conflicts`` status ``open``), resolved by ``Memory.resolve_conflict`` or
``memctl conflicts resolve``. A pair whose relation has no known arity (no change words,
"I drive a Toyota" → "I now drive…" aside) goes to the queue without a score decision. A
multi-valued relation (allergies, likes, children) is no conflict. Every conflict is recorded
(status ``auto`` when the formula decided), drawn as ``CONTRADICTS`` old → new (properties:
``conflict_id``, ``slot``, ``old_value``, ``new_value``, ``reason``) plus ``SUPERSEDES`` new →
old when the new value won, the loser's history row names the reason, and the events
``ConflictDetected`` and ``FactPromoted`` / ``FactDemoted`` in ``pipeline_events``.
"""

from __future__ import annotations

import datetime as dt
import re
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from . import validation as check
from .conflict_priority import Side, Verdict, judge, source_trust
from .errors import ConflictNotFoundError, InvalidInputError
from .store import conflicts as store
from .store import graph, history, memories, usage
from .store.conflicts import ConflictRow
from .store.db import Conn
from .store.graph import EdgeInput
from .supersede import speaker_of

if TYPE_CHECKING:
    from .core import Runtime
from .text.corrections import CORRECTION_WINDOW, corrects, opens_with_a_correction
from .text.slots import claim_of
from .text.tokenize import query_terms
from .text.value_changes import may_change, value_change
from .types import HistoryEvent, MemoryRecord, MemoryType, Operation

Invalidate = Callable[[Conn, MemoryRecord, dt.datetime, str, dict[str, Any]], MemoryRecord | None]

ACTOR = "conflicts"
SUPERSEDES = "SUPERSEDES"  # edge new fact → the fact whose value it replaced
CONTRADICTS = "CONTRADICTS"
SLOT_CANDIDATES = 20  # current facts of one slot checked for a value change


def invalidate_fact(
    conn: Conn, old: MemoryRecord, at: dt.datetime, actor: str, detail: dict[str, Any]
) -> MemoryRecord | None:
    """End ``old`` at ``at`` (event time; it stays in history and time travel), with a history row
    naming why (``detail``); None when a concurrent writer already ended or replaced it."""
    current = memories.get(conn, old.user_id, old.id, for_update=True)
    if current is None or current.expired_at is not None or current.invalid_at is not None:
        return None
    if current.valid_at is not None and at <= current.valid_at:
        at = current.valid_at + dt.timedelta(microseconds=1)  # invalid_at must follow valid_at
    ended = memories.invalidate(conn, old.user_id, old.id, expected_version=current.version, invalid_at=at)
    assert ended is not None  # the row is locked and current
    history.record(
        conn,
        HistoryEvent.UPDATE,
        old=current,
        new=ended,
        actor=actor,
        extra={"reason": "contradicted", **detail, "invalid_at": at.isoformat()},
    )
    return ended


# the writes whose words may end a current fact's value: a fact, and an event that changes one (ingest
# keeps "我今年一月戒烟了，到现在一根都没抽" as an episode, with a time of its own; it ends "我每天抽一包烟")
CHANGES_FACTS = frozenset({MemoryType.FACT, MemoryType.EPISODIC})


@dataclass(frozen=True, slots=True)
class Opposed:
    """A current fact the new one contradicts, with the attribute and both values."""

    old: MemoryRecord
    attribute: str
    old_value: str
    new_value: str
    detector: str  # "slot" or "attribute"
    arity: str = "single"  # "unknown": the review queue decides
    reason: str = ""

    def detail(self) -> dict[str, Any]:
        """What the history row and the edges say about this change."""
        return {
            "slot": self.attribute,
            "old_value": self.old_value,
            "new_value": self.new_value,
            "why": self.reason or f"same {self.detector}, another value",
        }


@dataclass
class ConflictPlan:
    verdicts: list[tuple[Opposed, Verdict]] = field(default_factory=list)

    def outcome(self, new: MemoryRecord) -> tuple[Operation, uuid.UUID | None, str] | None:
        """The write's operation, the id of the fact whose value it replaced and the reason (for the
        ``WriteResult``), or None when no conflict was found."""
        if not self.verdicts:
            return None
        for o, v in self.verdicts:
            if v.winner == "new" and o.old.id != new.id:
                return (
                    Operation.UPDATE,
                    o.old.id,
                    f"value update of {o.attribute!r}: {o.old_value!r} → {o.new_value!r} ({o.reason or o.detector}); "
                    f"the old fact ends at {new.valid_at or new.created_at:%Y-%m-%d %H:%M}",
                )
        o, v = self.verdicts[0]
        if v.winner == "old":
            return Operation.ADD, None, f"lost a conflict on {o.attribute!r} to {o.old.id}"
        return Operation.ADD, None, f"conflicts with {o.old.id} on {o.attribute!r}: open in the review queue"


@dataclass
class ConflictResolver:
    """The ingest-time half: detection, scoring, invalidation, queue, edges and events."""

    settings: Any  # Settings
    dim: int
    events: list[tuple[str, dict[str, Any]]]

    def detect(
        self,
        conn: Conn,
        user_id: str,
        content: str,
        vector: np.ndarray | None,
        *,
        exclude: Sequence[uuid.UUID],
        metadata: dict[str, Any] | None = None,
        said: dt.datetime | None = None,
    ) -> list[Opposed]:
        """Offline: current facts of the same slot (``metadata.slot`` = the slot of ``content`` or
        the one ``metadata`` names), the nearest current facts (embeddings) and those sharing a word
        with it (full text) whose value
        ``content`` changes (``text.value_changes.value_change``); and the statement said just before
        ``said`` (the new one's event time, default now) when ``content`` corrects it (:func:`_corrected`).
        Multi-valued relations and statements of another speaker are no conflict."""
        corrected = self._corrected(conn, user_id, content, exclude, metadata, said)
        if corrected is not None:
            return [corrected]
        c = self.settings.conflicts
        seen: dict[uuid.UUID, MemoryRecord] = {}
        cosines: dict[uuid.UUID, float] = {}  # of the vector neighbours: the statement frames' closeness
        claim = claim_of(content, generic=True)
        if not (metadata or {}).get("slot") and not may_change(content):
            return []  # a statement that fills no slot and says no change changes no value
        for slot in {(metadata or {}).get("slot"), None if claim is None else claim.key} - {None, ""}:
            seen.update(
                (m.id, m) for m in memories.current_in_slot(conn, user_id, str(slot), SLOT_CANDIDATES)
            )
        if vector is not None and c.detect_neighbours > 0:
            near = memories.nearest_current(
                conn, user_id, MemoryType.FACT, vector, self.dim, limit=c.detect_neighbours
            )
            seen.update((m.id, m) for m, s in near if s >= c.detect_min_similarity and m.id not in seen)
            cosines.update((m.id, s) for m, s in near)
        if (
            c.detect_neighbours > 0
        ):  # lexical neighbours: a shared word ("flat", 储物柜) when the vectors are far apart
            lexical = memories.current_sharing_terms(conn, user_id, _stems(content), c.detect_neighbours)
            seen.update((m.id, m) for m in lexical if m.id not in seen)
        speaker = speaker_of(metadata or {})
        found = []
        for old in seen.values():
            if old.id in exclude or old.invalid_at is not None or speaker_of(old.metadata) != speaker:
                continue
            change = value_change(content, old.content, cosine=cosines.get(old.id))
            if change is not None:
                found.append(
                    Opposed(
                        old,
                        change.key,
                        change.old_value,
                        change.new_value,
                        "attribute",
                        arity=change.arity,
                        reason=change.reason,
                    )
                )
        return found

    @staticmethod
    def _corrected(
        conn: Conn,
        user_id: str,
        content: str,
        exclude: Sequence[uuid.UUID],
        metadata: dict[str, Any] | None,
        said: dt.datetime | None,
    ) -> Opposed | None:
        """The current fact ``content`` takes back: the speaker's statement said last, at most
        :data:`CORRECTION_WINDOW` before, when ``content`` opens as a correction of it and gives a value of its
        kind or shares a word with it (``text.corrections.corrects``). Said last means newest of the user's facts
        and episodes: a correction after an episode ("We met Jo for lunch") takes back no older fact."""
        if not opens_with_a_correction(content):
            return None  # most statements: no query
        when = said or dt.datetime.now(dt.UTC)
        last = memories.said_just_before(conn, user_id, when, CORRECTION_WINDOW)
        if (
            last is None
            or last.memory_type is not MemoryType.FACT
            or last.invalid_at is not None
            or last.id in exclude
            or speaker_of(last.metadata) != speaker_of(metadata or {})
            or not corrects(content, last.content)
        ):
            return None
        return Opposed(
            last, "what was said just before", last.content, content, "correction", reason="a correction"
        )

    def before_write(
        self, conn: Conn, draft: Any, opposed: Sequence[Opposed], invalidate: Invalidate, actor: str
    ) -> ConflictPlan:
        """Score each pair; an old fact that loses is invalidated now (before the new one is written)."""
        plan = ConflictPlan()
        new_trust = source_trust(draft.metadata, self.settings.conflicts)
        when = draft.valid_at or dt.datetime.now(dt.UTC)
        for o in opposed:
            agreeing_old, agreeing_new, others = _agreement(conn, draft.user_id, o)
            old_side = Side(
                source_trust(o.old.metadata, self.settings.conflicts),
                False,
                store.support_count(conn, draft.user_id, o.old.id),
                agreeing_old,
                others,
            )
            new_side = Side(new_trust, True, 1, agreeing_new, others)
            verdict = judge(old_side, new_side, self.settings.conflicts)
            if o.arity == "unknown":  # the relation may hold several values: a person decides
                verdict = Verdict(verdict.old_score, verdict.new_score, None)
            if verdict.winner == "new":
                invalidate(conn, o.old, when, actor, {**o.detail(), "by_content": str(draft.content)[:200]})
            plan.verdicts.append((o, verdict))
        return plan

    def after_write(
        self, conn: Conn, new: MemoryRecord, plan: ConflictPlan, invalidate: Invalidate, actor: str
    ) -> MemoryRecord:
        """Invalidate a new fact that lost, open review items, record conflicts, edges and events.
        Returns the new fact as it now stands."""
        for o, verdict in plan.verdicts:
            if new.id == o.old.id:
                continue  # the write merged into the old fact: no conflict left
            if verdict.winner == "old":
                current = memories.get(conn, new.user_id, new.id)
                if current is not None and current.invalid_at is None and current.expired_at is None:
                    new = (
                        invalidate(
                            conn,
                            current,
                            current.valid_at or current.created_at,
                            actor,
                            {**o.detail(), "reason": "lost a conflict"},
                        )
                        or new
                    )
            winner = {"old": o.old.id, "new": new.id}.get(verdict.winner or "")
            row = store.insert(
                conn,
                new.user_id,
                attribute=o.attribute,
                old_id=o.old.id,
                new_id=new.id,
                old_score=verdict.old_score,
                new_score=verdict.new_score,
                status="open" if winner is None else "auto",
                winner_id=winner,
                detector=o.detector,
            )
            props = {"conflict_id": str(row.id), **o.detail()}
            edges = [
                EdgeInput(
                    o.old.id, "memory", new.id, "memory", CONTRADICTS, properties=props, valid_at=new.valid_at
                )
            ]
            if winner == new.id:
                edges.append(
                    EdgeInput(
                        new.id,
                        "memory",
                        o.old.id,
                        "memory",
                        SUPERSEDES,
                        properties=props,
                        valid_at=new.valid_at,
                    )
                )
            graph.add_edges(conn, new.user_id, edges)
            self.events.extend(_events(row))
        return new


def _stems(text: str) -> list[str]:
    """The search stems of ``text``: its terms, English ones without an inflection ("extensions" →
    "extension", "moved" → "mov"), for a prefix match."""
    return [
        re.sub(r"(?:ing|ed|es|s)$", "", t) if t.isascii() and len(t) > 5 else t for t in query_terms(text)
    ]


def _agreement(conn: Conn, user_id: str, o: Opposed) -> tuple[int, int, int]:
    """How many of the user's other facts on the slot agree with the old and with the new value."""
    if o.detector != "slot":
        return 0, 0, 0
    values = store.slot_values(conn, user_id, o.attribute, excluding=o.old.id)
    return values.count(o.old_value), values.count(o.new_value), len(values)


def _events(row: ConflictRow) -> list[tuple[str, dict[str, Any]]]:
    detail = {
        "conflict_id": str(row.id),
        "old_id": str(row.old_id),
        "new_id": str(row.new_id),
        "old_score": round(row.old_score, 4),
        "new_score": round(row.new_score, 4),
        "status": row.status,
    }
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


def list_conflicts(runtime: Runtime, uid: str, *, status: str = "open", limit: int = 100) -> list[Conflict]:
    """One user's conflicts; ``uid`` is checked by the facade."""
    statuses = {
        "open": ["open"],
        "resolved": ["resolved"],
        "auto": ["auto"],
        "all": ["open", "resolved", "auto"],
    }
    if status not in statuses:
        raise InvalidInputError(f"status must be one of {sorted(statuses)}, got {status!r}")
    with runtime.db.connection() as conn:
        rows = store.list_conflicts(conn, uid, statuses[status], check.limit(limit, maximum=10_000))
        records = memories.get_many(conn, uid, [i for r in rows for i in (r.old_id, r.new_id)])
    return [Conflict(r, records.get(r.old_id), records.get(r.new_id)) for r in rows]


def resolve_conflict(
    runtime: Runtime, uid: str, cid: uuid.UUID, *, keep: uuid.UUID, actor: str = "user"
) -> Conflict:
    """Resolve an open conflict: ``keep`` (one side's memory id) stays active, the other gets ``invalid_at``.
    The ids are checked by the facade."""
    kept = keep
    with runtime.db.transaction() as conn:
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
            at = max(runtime.now(), (loser.valid_at or loser.created_at) + dt.timedelta(microseconds=1))
            invalidate_fact(
                conn, loser, at, actor[:50], {"reason": "conflict resolved", "conflict_id": str(cid)}
            )
        resolved = store.mark_resolved(conn, uid, cid, kept, actor)
        usage.record_events(conn, uid, _events(resolved))
        records = memories.get_many(conn, uid, [row.old_id, row.new_id])
    return Conflict(resolved, records.get(row.old_id), records.get(row.new_id))


__all__ = [
    "CONTRADICTS",
    "SUPERSEDES",
    "Conflict",
    "ConflictPlan",
    "ConflictResolver",
    "Opposed",
    "invalidate_fact",
    "list_conflicts",
    "opposed_by_slot",
    "resolve_conflict",
]
