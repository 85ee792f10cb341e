"""Reflection as the facade uses it: run a cycle, show traits (seed 000 §6.2), explain one trait.

``ReflectionService`` composes the engine with the detector chosen from the
settings (an LLM when ``llm.base_url`` is set, the offline rules otherwise) and
offers the read views of seed 001 §8.2 "Trait Transparency".
"""

from __future__ import annotations

import datetime as dt
import uuid
from dataclasses import dataclass, field
from typing import Any

from ..core import Runtime
from ..decay import decayed_trait
from ..errors import MemoryNotFoundError
from ..store import history
from ..store import traits as store
from ..store.decay import history_clock
from ..store.traits import Evidence
from ..types import HistoryEntry, MemoryRecord
from . import math as tm
from . import triggers
from .background import CHECK, ReflectionQueue, Request
from .calibration import SimilarityFloor
from .detector import PatternDetector
from .engine import ReflectionEngine, ReflectionReport
from .llm_detector import LLMDetector
from .offline import OfflineDetector


@dataclass(frozen=True, slots=True)
class TraitGroups:
    """A user's traits grouped as seed 000 §6.2 / seed 001 §6.2: core, preference, behaviour.

    ``core``/``preferences``/``behaviors`` hold recallable traits (emerging and above,
    decayed confidence above the recall floor); ``forming`` holds trends and
    candidates, which are not recalled yet.
    """

    core: tuple[MemoryRecord, ...] = ()
    preferences: tuple[MemoryRecord, ...] = ()
    behaviors: tuple[MemoryRecord, ...] = ()
    forming: tuple[MemoryRecord, ...] = ()

    def all(self) -> tuple[MemoryRecord, ...]:
        return self.core + self.preferences + self.behaviors + self.forming


@dataclass(frozen=True, slots=True)
class TraitDetail:
    """One trait with its evidence chain, lineage and history (seed 000 §4.2)."""

    trait: MemoryRecord
    decayed_confidence: float | None
    supporting: tuple[Evidence, ...]
    contradicting: tuple[Evidence, ...]
    parents: tuple[MemoryRecord, ...]
    children: tuple[MemoryRecord, ...]
    history: tuple[HistoryEntry, ...]
    extra: dict[str, Any] = field(default_factory=dict)


def create_detector(runtime: Runtime) -> PatternDetector:
    """The pattern detector for these settings — the one place it is chosen (STYLE habit 6).

    ``llm.base_url`` set → :class:`~neuromem.reflect.llm_detector.LLMDetector`
    (prompts ``reflect_*``, falling back to the offline rules for a cycle whose
    LLM calls fail); otherwise :class:`~neuromem.reflect.offline.OfflineDetector`.
    """
    offline = OfflineDetector(runtime.settings.traits, SimilarityFloor(runtime.embed_passages))
    chat = runtime.chat  # the runtime's one chat model: it closes it
    if chat is None:
        return offline
    return LLMDetector(chat, runtime.settings.traits, offline)


class ReflectionService:
    def __init__(self, runtime: Runtime, detector: PatternDetector | None = None) -> None:
        self.runtime = runtime
        self.detector = detector or create_detector(runtime)
        self._owns_detector = (
            detector is not None
        )  # one made here uses the runtime's chat model, which the runtime closes
        self.engine = ReflectionEngine(runtime, self.detector)
        self.queue = ReflectionQueue(self._run_queued)

    def _run_queued(self, user_id: str, request: Request) -> ReflectionReport | None:
        """The queue's worker: a check evaluates the triggers first; a cycle request just runs."""
        if request.trigger == CHECK:
            decision = triggers.due(
                self.runtime.db, user_id, request.now, session_ended=request.session_ended
            )
            if decision.trigger is None:
                return None
            return self.reflect(user_id, request.now, trigger=decision.trigger, trigger_value=decision.value)
        return self.reflect(user_id, request.now, trigger=request.trigger, trigger_value=request.value)

    def maybe_reflect(
        self, user_id: str, now: dt.datetime, *, session_ended: bool = False
    ) -> tm.TriggerType | None:
        """Seed 001 §4.5 triggers → a queued background cycle (see ``reflect.triggers``)."""
        return triggers.check_and_schedule(
            self.runtime.db, self.queue, user_id, now, session_ended=session_ended
        )

    def schedule_check(
        self, user_id: str, now: dt.datetime | None = None, *, session_ended: bool = False
    ) -> None:
        """The ingest hook: evaluate the triggers on the background worker, off the request path."""
        triggers.schedule_check(
            self.runtime.db, self.queue, user_id, now, self.runtime.now, session_ended=session_ended
        )

    def close(self) -> None:
        self.queue.stop()
        close = getattr(self.detector, "close", None) if self._owns_detector else None
        if close is not None:
            close()

    def reflect(
        self,
        uid: str,
        now: dt.datetime,
        *,
        trigger: tm.TriggerType | str = tm.TriggerType.MANUAL,
        trigger_value: float | None = None,
    ) -> ReflectionReport:
        """Run one cycle for the (checked) user ``uid`` at ``now`` on the user's history clock (:meth:`clock`)."""
        report = self.engine.run(uid, self.clock(uid, now), trigger=trigger, trigger_value=trigger_value)
        if self.runtime.settings.traits.refresh_view_after_reflect:
            from ..store.maintenance import refresh_trait_view

            refresh_trait_view(self.runtime.db)
        return report

    def clock(self, user_id: str, now: dt.datetime) -> dt.datetime:
        """``now`` on the history's own clock of ``user_id``: trait decay and trend windows measure
        event time against the user's history, so a history imported late is not taken as months
        of silence (``store.decay.history_clock``, migration 0016)."""
        with self.runtime.db.connection() as conn:
            clock = history_clock(conn, user_id, now)
            conn.rollback()
        return clock

    def traits(self, uid: str, now: dt.datetime) -> TraitGroups:
        when = self.clock(uid, now)
        floor = self.runtime.settings.recall.trait_confidence_floor
        groups: dict[str, list[MemoryRecord]] = {"core": [], "preference": [], "behavior": [], "forming": []}
        with self.runtime.db.connection() as conn:
            records = store.list_traits(conn, uid)
        for t in records:
            if (
                t.trait_stage in ("trend", "candidate")
                or decayed_trait(t, when, self.runtime.settings.traits) <= floor
            ):
                groups["forming"].append(t)
            else:
                groups.get(t.trait_subtype or "behavior", groups["behavior"]).append(t)
        return TraitGroups(
            tuple(groups["core"]),
            tuple(groups["preference"]),
            tuple(groups["behavior"]),
            tuple(groups["forming"]),
        )

    def trait(self, tid: uuid.UUID, uid: str, now: dt.datetime) -> TraitDetail:
        when = self.clock(uid, now)
        with self.runtime.db.connection() as conn:
            trait = store.get_trait(conn, uid, tid)
            if trait is None or (trait.expired_at is not None and trait.superseded_by is None):  # deleted
                raise MemoryNotFoundError(f"no trait {tid} for user {uid!r}")
            evidence = store.evidence_for(conn, uid, [tid])
            up = [r["id"] for r in store.ancestors(conn, uid, tid)]
            down = [r["id"] for r in store.descendants(conn, uid, tid) if r["depth"] > 0]
            related = store.get_many_traits(conn, uid, up + down)
            entries = history.for_memories(conn, uid, [tid])
        return TraitDetail(
            trait=trait,
            decayed_confidence=None
            if trait.trait_confidence is None
            else decayed_trait(trait, when, self.runtime.settings.traits),
            supporting=tuple(e for e in evidence if e.evidence_type == "supporting"),
            contradicting=tuple(e for e in evidence if e.evidence_type == "contradicting"),
            parents=tuple(related[i] for i in up if i in related),
            children=tuple(related[i] for i in down if i in related),
            history=tuple(entries),
        )


__all__ = ["ReflectionService", "TraitDetail", "TraitGroups", "create_detector"]
