"""The reflection cycle: the nine steps of seed 001 §4.5, recorded in ``reflection_cycles``.

One cycle for one user, at an injected clock ``now`` (tests replay weeks of
conversation; nothing below calls ``datetime.now()``):

1. scan the fact/episodic memories written since the watermark (sensitive ones
   dropped, seed 001 §8.2) plus the unexplained ones of the look-back window;
2. link new observations to existing trends and behaviours (support or
   contradiction, graded A–D) — a trend is reinforced once per cycle;
3. expire trends whose window ended: ≥ 2 reinforcements → candidate at 0.3,
   else dissolved (seed 001 §4.1);
4. propose new trends and behaviours (behaviour at 0.4) from what no trait
   explains; reinforce existing behaviours once per cycle with the best grade
   of the cycle's new evidence: ``c' = reinforce(decayed(c), grade)``;
   reinforcement propagates to parents, which inherit the evidence (§4.3);
5. behaviours → preference (≥ 2 related, each ≥ 0.5);
6. preferences → core (≥ 2 related, each ≥ 0.6) — upgrades inherit the set of
   child contexts and start at the mean of their children's confidence;
7. contradictions: ``c' = contradict(c, strength)``; above the ratio 0.3 a
   focused judgement revises, splits by context or dissolves (§4.4);
8. decay every trait not touched by this cycle: its stage follows the decayed
   confidence, and below 0.05 it is dissolved (seed 000 §5.2) — the stored
   ``trait_confidence`` stays the raw value the decay is computed from;
9. the watermark ``(created_at, id)`` of the last scanned memory, the cycle's
   clock and counts go into ``reflection_cycles.details``, and every session's
   ``last_reflected_at`` moves to ``now``.

Concurrency (seed 000 §5.5): the cycle runs in one transaction that first takes
a per-user ``pg_advisory_xact_lock`` (a second worker waits, then sees the
advanced watermark); every trait write is an optimistic-lock update, and a lost
race (e.g. recall reinforcing a trait meanwhile) rolls the cycle back and
retries it from a fresh read.
"""

from __future__ import annotations

import datetime as dt
import logging
import statistics
import uuid
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import validation as check
from ..decay import decayed_trait
from ..errors import InvalidInputError
from ..store import history, memories, usage
from ..store import traits as store
from ..store.db import Conn
from ..store.memories import NewMemory
from ..text.token_count import count_tokens
from ..text.tokenize import search_text
from ..types import EvidenceQuality, HistoryEvent, MemoryRecord, MemoryType, TraitStage
from . import math as tm
from .detector import EvidenceLink, PatternDetector, ProposedTrait, TraitView

if TYPE_CHECKING:
    from ..core import Runtime
from .observations import Observation, from_row, parse_vector
from .offline import related
from .suppression import Suppressions

log = logging.getLogger(__name__)
_CAP = 50  # sessions / cycle ids kept in a trait's metadata


@dataclass(slots=True)
class ReflectionReport:
    """What one cycle did (also stored in ``reflection_cycles``)."""

    cycle_id: uuid.UUID
    user_id: str
    trigger: str
    status: str = "completed"
    scanned: int = 0
    created: int = 0
    updated: int = 0
    dissolved: int = 0
    promoted: int = 0
    attempts: int = 1
    detector: str = ""
    error: str | None = None
    created_ids: list[uuid.UUID] = field(default_factory=list)
    detector_log: dict[str, Any] = field(default_factory=dict)  # LLM calls, rejections, fallback


def _aware(now: dt.datetime) -> dt.datetime:
    if not isinstance(now, dt.datetime):
        raise InvalidInputError("now must be a datetime")
    return now if now.tzinfo is not None else now.replace(tzinfo=dt.UTC)


class ReflectionEngine:
    """Runs reflection cycles against one database with one detector."""

    def __init__(self, runtime: Runtime, detector: PatternDetector) -> None:
        self.runtime = runtime
        self.settings = runtime.settings
        self.t = runtime.settings.traits
        self.db = runtime.db
        self.detector = detector

    # ------------------------------------------------------------------ entry point
    def run(
        self,
        user_id: str,
        now: dt.datetime,
        *,
        trigger: tm.TriggerType | str = tm.TriggerType.MANUAL,
        trigger_value: float | None = None,
    ) -> ReflectionReport:
        """One cycle for the (checked) ``user_id``; returns its report. A failure is recorded (status
        ``failed``) and re-raised."""
        uid = user_id
        now = _aware(now)
        with self.db.transaction() as conn:
            cycle_id = store.start_cycle(conn, uid, str(trigger), trigger_value)
        report = ReflectionReport(cycle_id, uid, str(trigger), detector=self.detector.name)
        attempts = self.t.reflection_retries + 1
        for attempt in range(1, attempts + 1):
            report.attempts = attempt
            cycle: _Cycle | None = None
            try:
                with self.db.transaction() as conn:
                    store.lock_user_for_cycle(conn, uid, lock_timeout_s=self.t.reflection_lock_timeout_s)
                    cycle = _Cycle(self, conn, uid, now, report)
                    cycle.run()
                return report
            except store.TraitConflict as exc:
                log.info("reflection for %s lost an optimistic lock (attempt %d): %s", uid, attempt, exc)
                report = ReflectionReport(
                    cycle_id, uid, str(trigger), detector=self.detector.name, attempts=attempt
                )
                if attempt == attempts:
                    self._fail(cycle_id, report, exc)
                    raise
            except Exception as exc:
                self._fail(cycle_id, report, exc)
                raise
            finally:
                if cycle is not None:
                    self._account(uid, cycle_id, cycle.detector, report)
        return report  # pragma: no cover - loop always returns or raises

    def _account(
        self, user_id: str, cycle_id: uuid.UUID, detector: PatternDetector, report: ReflectionReport
    ) -> None:
        """Model usage and the detector's events of one attempt, committed even when the attempt failed."""
        record = detector.cycle_log()
        report.detector_log = record.details
        if not record.usage and not record.events:
            return
        events = [(kind, {**detail, "cycle_id": str(cycle_id)}) for kind, detail in record.events]
        with self.db.transaction() as conn:
            usage.record_usage(conn, user_id, record.usage)
            usage.record_events(conn, user_id, events)

    def _fail(self, cycle_id: uuid.UUID, report: ReflectionReport, exc: Exception) -> None:
        report.status, report.error = "failed", f"{type(exc).__name__}: {exc}"
        with self.db.transaction() as conn:
            store.fail_cycle(conn, report.user_id, cycle_id, report.error, self.runtime.now())


class _Cycle:
    """The state of one attempt of one cycle, inside one transaction."""

    def __init__(
        self, engine: ReflectionEngine, conn: Conn, user_id: str, now: dt.datetime, report: ReflectionReport
    ):
        self.e = engine
        self.t = engine.t
        self.conn = conn
        self.user_id = user_id
        self.now = now
        self.report = report
        self.detector = engine.detector.for_cycle(user_id, now)
        self.touched: set[uuid.UUID] = set()
        self.traits: dict[uuid.UUID, MemoryRecord] = {}
        self.contradicted: dict[uuid.UUID, list[EvidenceLink]] = defaultdict(list)
        self.sessions: dict[uuid.UUID, str] = {}  # memory id → session key, for the traits' metadata
        self.suppressions = Suppressions(conn, user_id, now)  # traits the user deleted (issue 27 item 5)

    # ------------------------------------------------------------------ helpers
    def decayed(self, trait: MemoryRecord) -> float:
        return decayed_trait(trait, self.now, self.t)

    def write(
        self, trait: MemoryRecord, fields: dict[str, Any], event: HistoryEvent = HistoryEvent.UPDATE
    ) -> MemoryRecord:
        if (
            "trait_stage" in fields
            and fields["trait_stage"] != trait.trait_stage
            and event is HistoryEvent.UPDATE
        ):
            event = HistoryEvent.STAGE_CHANGE
        meta = dict(fields.get("metadata", trait.metadata))
        cycles = [c for c in meta.get("reflection_cycle_ids", []) if c != str(self.report.cycle_id)]
        meta["reflection_cycle_ids"] = [*cycles, str(self.report.cycle_id)][-_CAP:]
        fields["metadata"] = meta
        updated = store.update_trait(self.conn, trait, fields, event=event)
        self.traits[updated.id] = updated
        if trait.id not in self.touched:
            self.report.updated += 1
        self.touched.add(updated.id)
        if fields.get("trait_stage") == TraitStage.DISSOLVED and trait.trait_stage != TraitStage.DISSOLVED:
            self.report.dissolved += 1
        return updated

    def view(self, trait: MemoryRecord, vector: np.ndarray | None = None) -> TraitView:
        meta = trait.metadata
        return TraitView(
            id=trait.id,
            content=trait.content,
            subtype=trait.trait_subtype or "behavior",
            stage=trait.trait_stage or "candidate",
            context=trait.trait_context,
            confidence=self.decayed(trait)
            if trait.trait_stage != TraitStage.TREND
            else (trait.trait_confidence or 0),
            keywords=tuple(meta.get("keywords", ())),
            negated=bool(meta.get("negated", False)),
            language=str(meta.get("language") or trait.language or "en"),
            contexts_seen=frozenset(meta.get("contexts_seen", ())),
            sessions_seen=frozenset(meta.get("sessions_seen", ())),
            vector=vector,
            last_reinforced=trait.trait_last_reinforced,
        )

    def trait_vectors(self, ids: Sequence[uuid.UUID]) -> dict[uuid.UUID, np.ndarray | None]:
        stored = store.trait_vectors(self.conn, self.user_id, ids)
        return {trait_id: parse_vector(data) for trait_id, data in stored.items()}

    def views(self, records: Sequence[MemoryRecord]) -> list[TraitView]:
        vectors = self.trait_vectors([r.id for r in records])
        return [self.view(r, vectors.get(r.id)) for r in records]

    # ------------------------------------------------------------------ the nine steps
    def run(self) -> None:
        last = store.last_completed_cycle(self.conn, self.user_id)
        mark = (last or {}).get("details", {}).get("watermark")
        after_created = dt.datetime.fromisoformat(mark[0]) if mark else None
        after_id = uuid.UUID(mark[1]) if mark else None
        # step 1: scan
        new_rows = store.new_memories(self.conn, self.user_id, after_created=after_created, after_id=after_id)
        self.report.scanned = len(new_rows)
        since = self.now - dt.timedelta(days=self.t.pattern_lookback_days)
        older = store.pool_memories(
            self.conn, self.user_id, since=since, until_created=after_created, until_id=after_id
        )
        explained = store.evidenced_memory_ids(self.conn, self.user_id, [r["id"] for r in older])
        new_obs = [o for o in (from_row(r) for r in new_rows) if o is not None]
        pool_obs = [o for o in (from_row(r) for r in older if r["id"] not in explained) if o is not None]
        self.sessions = {o.id: o.session for o in new_obs + pool_obs}
        self.traits = {t.id: t for t in store.active_traits(self.conn, self.user_id)}
        # steps 2 and 4 (existing traits): link the new observations
        patterns = [t for t in self.traits.values() if t.trait_subtype == "behavior"]
        links = self.detector.link(new_obs, self.views(patterns)) if new_obs and patterns else []
        linked = self.apply_links(links)
        # step 3: trends whose window ended
        self.expire_trends()
        # steps 2 and 4 (new traits): propose from what nothing explains
        unexplained = [o for o in pool_obs + new_obs if o.id not in linked]
        new_ids = frozenset(o.id for o in new_obs)
        if any(o.id in new_ids for o in unexplained):
            for proposal in self.detector.propose(unexplained, new_ids):
                self.create_pattern(proposal, {o.id: o for o in unexplained})
        # steps 5 and 6: upgrades
        self.upgrade(
            "behavior", "preference", self.t.preference_min_children, self.t.preference_child_min_confidence
        )
        self.upgrade("preference", "core", self.t.core_min_children, self.t.core_child_min_confidence)
        # step 7: contradictions
        self.handle_contradictions()
        # step 8: decay
        self.apply_decay()
        # step 9: watermark
        last_row = new_rows[-1] if new_rows else None
        watermark = [last_row["created_at"].isoformat(), str(last_row["id"])] if last_row else mark
        store.advance_session_watermark(self.conn, self.user_id, self.now)
        store.finish_cycle(
            self.conn,
            self.user_id,
            self.report.cycle_id,
            scanned=self.report.scanned,
            created=self.report.created,
            updated=self.report.updated,
            dissolved=self.report.dissolved,
            at=self.e.runtime.now(),
            details={
                "watermark": watermark,
                "now": self.now.isoformat(),
                "detector": self.detector.name,
                "detector_log": self.detector.cycle_log().details,
                "promoted": self.report.promoted,
                "linked": len(linked),
                "sensitive_skipped": len(new_rows) - len(new_obs),
                "suppressed": self.suppressions.held,
            },
        )

    # ------------------------------------------------------------------ step 2/4: links
    def apply_links(self, links: Sequence[EvidenceLink]) -> set[uuid.UUID]:
        by_trait: dict[uuid.UUID, list[EvidenceLink]] = defaultdict(list)
        for link in links:
            if link.trait_id in self.traits:
                by_trait[link.trait_id].append(link)
        obs_sessions = self.sessions
        for trait_id, batch in by_trait.items():
            trait = self.traits[trait_id]
            support = [x for x in batch if x.relation == "supporting"]
            against = [x for x in batch if x.relation == "contradicting"]
            store.add_evidence(
                self.conn, self.user_id, [self._evidence(trait_id, x) for x in batch], created_at=self.now
            )
            meta = self._seen(trait.metadata, batch, obs_sessions)
            fields: dict[str, Any] = {"metadata": meta}
            if support:
                best = min((x.quality for x in support), key=lambda q: "ABCD".index(str(q)))
                fields["trait_reinforcement_count"] = trait.trait_reinforcement_count + 1
                fields["trait_last_reinforced"] = self.now
                if trait.trait_stage != TraitStage.TREND:
                    conf = tm.reinforce(self.decayed(trait), best, self.t)
                    fields["trait_confidence"] = conf
                    fields["trait_stage"] = tm.stage_for_confidence(conf, self.t).value
            if against:
                fields["trait_contradiction_count"] = trait.trait_contradiction_count + len(against)
                if trait.trait_stage != TraitStage.TREND:
                    base = fields.get("trait_confidence", self.decayed(trait))
                    strength = tm.contradiction_strength(len(against), any(x.strong for x in against))
                    conf = tm.contradict(base, strength, self.t)
                    fields["trait_confidence"] = conf
                    fields["trait_stage"] = tm.stage_for_confidence(conf, self.t).value
                self.contradicted[trait_id].extend(against)
            updated = self.write(trait, fields)
            if support and updated.trait_parent_id is not None:
                best = min((x.quality for x in support), key=lambda q: "ABCD".index(str(q)))
                self.propagate(updated.trait_parent_id, support, best)
        return {x.memory_id for x in links}

    def _evidence(self, trait_id: uuid.UUID, link: EvidenceLink) -> store.NewEvidence:
        return store.NewEvidence(trait_id, link.memory_id, link.relation, link.quality, link.context)

    def _seen(
        self, meta: dict[str, Any], batch: Sequence[EvidenceLink], sessions: dict[uuid.UUID, str]
    ) -> dict[str, Any]:
        out = dict(meta)
        contexts = set(out.get("contexts_seen", ())) | {
            x.context for x in batch if x.context and x.relation == "supporting"
        }
        out["contexts_seen"] = sorted(contexts)
        seen = list(out.get("sessions_seen", ()))
        for x in batch:
            s = sessions.get(x.memory_id)
            if s and s not in seen:
                seen.append(s)
        out["sessions_seen"] = seen[-_CAP:]
        return out

    def propagate(self, parent_id: uuid.UUID, support: Sequence[EvidenceLink], best: EvidenceQuality) -> None:
        """A reinforced child reinforces its parent once per cycle; the parent inherits the evidence (seed 001 §4.3)."""
        parent = self.traits.get(parent_id)
        if parent is None or parent.trait_stage == TraitStage.DISSOLVED:
            return
        rows = [
            store.NewEvidence(parent_id, x.memory_id, "supporting", x.quality, x.context) for x in support
        ]
        store.add_evidence(self.conn, self.user_id, rows, created_at=self.now)
        if parent_id in self.touched and parent.trait_last_reinforced == self.now:
            return
        conf = tm.reinforce(self.decayed(parent), best, self.t)
        updated = self.write(
            parent,
            {
                "trait_confidence": conf,
                "trait_stage": tm.stage_for_confidence(conf, self.t).value,
                "trait_reinforcement_count": parent.trait_reinforcement_count + 1,
                "trait_last_reinforced": self.now,
            },
        )
        if updated.trait_parent_id is not None:
            self.propagate(updated.trait_parent_id, support, best)

    # ------------------------------------------------------------------ step 3: trends
    def expire_trends(self) -> None:
        for trait in list(self.traits.values()):
            if trait.trait_stage != TraitStage.TREND or trait.trait_window_end is None:
                continue
            if self.now <= trait.trait_window_end:
                continue
            if trait.trait_reinforcement_count >= self.t.trend_promote_reinforcements:
                conf = self.t.trend_promoted_confidence
                self.write(
                    trait,
                    {
                        "trait_stage": tm.stage_for_confidence(conf, self.t).value,
                        "trait_confidence": conf,
                        "trait_window_start": None,
                        "trait_window_end": None,
                        "trait_derived_from": "trend_promotion",
                        "trait_last_reinforced": self.now,
                    },
                )
                self.report.promoted += 1
            else:
                self.write(trait, {"trait_stage": TraitStage.DISSOLVED.value})

    # ------------------------------------------------------------------ step 4: new patterns
    def create_pattern(self, proposal: ProposedTrait, observations: dict[uuid.UUID, Observation]) -> None:
        primary = proposal.keywords[0] if proposal.keywords else None
        for t in self.traits.values():
            if (
                t.trait_subtype == "behavior"
                and primary
                and (t.metadata.get("keywords") or [None])[0] == primary
            ):
                return  # the theme already has a trait; its new evidence was linked
        evidence = [e for e in proposal.evidence if e.memory_id in observations]
        admitted = self.suppressions.admit(proposal.keywords, evidence)  # a deleted trait stays deleted
        if admitted is None or len(admitted) < self.t.trend_min_support:
            return
        evidence = admitted
        members = [observations[e.memory_id] for e in evidence]
        first = min(o.observed_at for o in members)
        meta: dict[str, Any] = {
            "keywords": list(proposal.keywords),
            "negated": proposal.negated,
            "language": proposal.language,
            "emotional": proposal.emotional,
            "contexts_seen": sorted({o.context for o in members if o.context}),
            "sessions_seen": sorted({o.session for o in members})[-_CAP:],
            "detector": self.detector.name,
        }
        fields: dict[str, Any] = {
            "trait_subtype": "behavior",
            "trait_context": proposal.context,
            "trait_first_observed": first,
            "trait_last_reinforced": self.now,
            "trait_derived_from": "reflection",
        }
        if proposal.kind == "trend":
            start, end = tm.trend_window(self.now, proposal.emotional, self.t)
            fields |= {
                "trait_stage": TraitStage.TREND.value,
                "trait_confidence": None,
                "trait_window_start": start,
                "trait_window_end": end,
                "trait_reinforcement_count": 0,
            }
        else:
            conf = self.t.behavior_initial_confidence
            fields |= {
                "trait_stage": tm.stage_for_confidence(conf, self.t).value,
                "trait_confidence": conf,
                "trait_reinforcement_count": 1,
            }
        record = self.insert(proposal.content, proposal.language, meta, fields)
        rows = [
            store.NewEvidence(record.id, e.memory_id, "supporting", e.quality, e.context) for e in evidence
        ]
        store.add_evidence(self.conn, self.user_id, rows, created_at=self.now)

    def insert(
        self, content: str, language: str, meta: dict[str, Any], fields: dict[str, Any]
    ) -> MemoryRecord:
        meta = {**meta, "reflection_cycle_ids": [str(self.report.cycle_id)]}
        vectors = self.e.runtime.embed_passages([content])
        record = memories.insert(
            self.conn,
            NewMemory(
                user_id=self.user_id,
                memory_type=MemoryType.TRAIT,
                content=content,
                content_hash=check.content_hash(content),
                search_tokens=search_text(content),
                token_count=count_tokens(content),
                embedding=None if vectors is None else vectors[0],
                importance=0.5,
                metadata=meta,
                language=language[:8],
                valid_at=self.now,
                **fields,
            ),
            self.e.db.dim,
        )
        history.record(self.conn, HistoryEvent.ADD, new=record, actor="reflection")
        self.traits[record.id] = record
        self.touched.add(record.id)
        self.report.created += 1
        self.report.created_ids.append(record.id)
        return record

    # ------------------------------------------------------------------ steps 5/6: upgrades
    def upgrade(self, child_subtype: str, parent_subtype: str, min_children: int, min_conf: float) -> None:
        records = [
            t
            for t in self.traits.values()
            if t.trait_subtype == child_subtype
            and t.trait_stage not in (TraitStage.TREND, TraitStage.DISSOLVED)
            and t.trait_parent_id is None
        ]
        eligible = [v for v in self.views(records) if v.confidence >= min_conf]
        if not eligible:
            return
        parents = [
            t
            for t in self.traits.values()
            if t.trait_subtype == parent_subtype and t.trait_stage != TraitStage.DISSOLVED
        ]
        parent_views = self.views(parents)
        link = _upgrade_relation(parent_subtype)
        loose: list[TraitView] = []
        for child in eligible:  # join an existing parent of the same tendency
            home = next((p for p in parent_views if link(child, p)), None)
            if home is None:
                loose.append(child)
            else:
                self.adopt(home.id, [child])
        groups = _components(loose, link)
        for group in groups:
            if len(group) < min_children:
                continue
            content = self.detector.abstract(group, parent_subtype)
            contexts = sorted({c.context for c in group if c.context})
            keywords: list[str] = []
            for child in group:
                keywords += [k for k in child.keywords if k not in keywords]
            conf = round(statistics.fmean(c.confidence for c in group), 6)
            language = group[0].language
            meta = {
                "keywords": keywords[:8],
                "negated": False,
                "language": language,
                "child_contexts": contexts,
                "contexts_seen": contexts,
                "child_traits": [str(c.id) for c in group],
                "detector": self.detector.name,
            }
            ctx = contexts[0] if len(contexts) == 1 else "general"
            record = self.insert(
                content,
                language,
                meta,
                {
                    "trait_subtype": parent_subtype,
                    "trait_stage": tm.stage_for_confidence(conf, self.t).value,
                    "trait_confidence": conf,
                    "trait_context": ctx,
                    "trait_reinforcement_count": 1,
                    "trait_first_observed": min(
                        (self.traits[c.id].trait_first_observed or self.now) for c in group
                    ),
                    "trait_last_reinforced": self.now,
                    "trait_derived_from": "reflection",
                },
            )
            self.adopt(record.id, group)
            self.report.promoted += 1

    def adopt(self, parent_id: uuid.UUID, children: Sequence[TraitView]) -> None:
        """Set ``trait_parent_id`` on each child and copy its supporting evidence to the parent."""
        parent = self.traits[parent_id]
        child_ids = [str(c.id) for c in children]
        for child in children:
            self.write(self.traits[child.id], {"trait_parent_id": parent_id})
        inherited = [
            e
            for e in store.evidence_for(self.conn, self.user_id, [c.id for c in children])
            if e.evidence_type == "supporting"
        ]
        store.add_evidence(
            self.conn,
            self.user_id,
            [
                store.NewEvidence(parent_id, e.memory_id, "supporting", e.quality, e.context)
                for e in inherited
            ],
            created_at=self.now,
        )
        known = list(parent.metadata.get("child_traits", []))
        if set(child_ids) - set(known):
            meta = dict(parent.metadata)
            meta["child_traits"] = known + [c for c in child_ids if c not in known]
            ctxs = sorted(set(meta.get("child_contexts", [])) | {c.context for c in children if c.context})
            meta["child_contexts"] = ctxs
            self.write(parent, {"metadata": meta, "trait_context": ctxs[0] if len(ctxs) == 1 else "general"})

    # ------------------------------------------------------------------ step 7: contradictions
    def handle_contradictions(self) -> None:
        for trait_id in list(self.contradicted):
            trait = self.traits[trait_id]
            if trait.trait_stage == TraitStage.DISSOLVED:
                continue
            evidence = store.evidence_for(self.conn, self.user_id, [trait_id])
            support = [e for e in evidence if e.evidence_type == "supporting"]
            against = [e for e in evidence if e.evidence_type == "contradicting"]
            if not tm.needs_contradiction_reflection(len(against), len(support), self.t):
                continue
            judgement = self.detector.judge(self.view(trait), support, against)
            record = {"action": judgement.action, "reason": judgement.reason, "at": self.now.isoformat()}
            meta = {**trait.metadata, "last_judgement": record}
            if judgement.action == "dissolve":
                self.write(trait, {"trait_stage": TraitStage.DISSOLVED.value, "metadata": meta})
            elif judgement.action in ("revise", "split") and judgement.content:
                fields: dict[str, Any] = {"metadata": meta, **self._content_fields(judgement.content)}
                if judgement.confidence is not None:
                    conf = min(1.0, max(0.0, judgement.confidence))
                    fields["trait_confidence"] = conf
                    fields["trait_stage"] = tm.stage_for_confidence(conf, self.t).value
                    fields["trait_last_reinforced"] = self.now
                if judgement.action == "split":
                    meta["contexts"] = judgement.contexts
                    fields["trait_context"] = "contextual"
                self.write(trait, fields)
            else:
                self.write(trait, {"metadata": meta})

    def _content_fields(self, content: str) -> dict[str, Any]:
        return {
            "content": content,
            "content_hash": check.content_hash(content),
            "search_tokens": search_text(content),
            "token_count": count_tokens(content),
        }

    # ------------------------------------------------------------------ step 8: decay
    def apply_decay(self) -> None:
        for trait in list(self.traits.values()):
            if trait.id in self.touched or trait.trait_stage in (TraitStage.TREND, TraitStage.DISSOLVED):
                continue
            if trait.trait_confidence is None:
                continue
            d = self.decayed(trait)
            if tm.should_dissolve(d, self.t):
                self.write(trait, {"trait_stage": TraitStage.DISSOLVED.value})
                continue
            stage = tm.stage_for_confidence(d, self.t).value
            if stage != trait.trait_stage:
                self.write(trait, {"trait_stage": stage})


def _upgrade_relation(parent_subtype: str) -> Any:
    """When two traits point at the same tendency (offline proxy, both detectors).

    Behaviours → preference: a shared theme keyword. Preferences → core (the
    same "personality dimension", seed 001 §3.3): a shared keyword, or the same
    specific context — the seed's own example induces a [work] core trait from
    [work] preferences. Trait embeddings are not used: generated trait texts
    share their template words, which would make every trait look alike.
    """

    def link(a: TraitView, b: TraitView) -> bool:
        if related(a.keywords, None, b.keywords, None, 1.0):
            return True
        specific = a.context not in (None, "general", "contextual")
        return parent_subtype == "core" and specific and a.context == b.context

    return link


def _components(items: Sequence[TraitView], linked: Any) -> list[list[TraitView]]:
    """Connected components of ``items`` under the relation ``linked`` (small n: traits per user)."""
    parent = list(range(len(items)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i in range(len(items)):
        for j in range(i + 1, len(items)):
            if linked(items[i], items[j]):
                parent[find(i)] = find(j)
    groups: dict[int, list[TraitView]] = defaultdict(list)
    for i, item in enumerate(items):
        groups[find(i)].append(item)
    return list(groups.values())
