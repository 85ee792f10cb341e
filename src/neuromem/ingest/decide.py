"""Write decisions for extracted candidates (seed 000 §5.4, seed 004 §4.1).

Order of the rules, per candidate, inside the batch's transaction:

1. importance below ``ingest.importance_threshold`` → dropped (reason counted, before this module);
2. a current fact with the same ``slot`` and another value (a new employer, a flipped
   preference), or — any statement shape, ``text.slots`` — a current fact whose value the new
   one changes ("my extension is now 4492") → scored by the conflict priority
   (``neuromem.conflicts``): the loser gets ``invalid_at`` = the new fact's ``valid_at`` (it
   stays visible to time travel), CONTRADICTS / SUPERSEDES edges are drawn, a close call or a
   relation of unknown arity goes to the review queue; the same slot with the same value →
   the new fact SUPPORTS the old one;
3. ``neuromem.writes.write``: identical hash → NOOP, a restatement of a current fact → UPDATE
   (supersede; ``neuromem.supersede``), else ADD with ``SIMILAR_TO`` links.

With an LLM configured (``ingest.llm_decisions``) and similar memories present, the LLM
chooses ADD / UPDATE / DELETE / NOOP instead of step 3; its answer is checked (the target
must be one of the memories shown, an UPDATE needs content in the user's language) and a
bad answer falls back to the rules. Episodes are append-only (seed 001 §2.3): the LLM is
not asked about them and they are never superseded. A memory a concurrent writer already
ended or replaced is left alone (no ``VersionConflictError`` from ingest). Every change
writes ``memory_history`` with its actor.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import logging
from dataclasses import dataclass, field

import numpy as np

from .. import validation as check
from .. import writes
from ..conflicts import CHANGES_FACTS, ConflictResolver, invalidate_fact, opposed_by_slot
from ..core import Runtime
from ..errors import LLMError
from ..llm.base import ChatModel, UsageRecord
from ..llm.prompts.decide_operation import decide_operation
from ..store import memories
from ..store.db import Conn
from ..store.filters import compile_filter
from ..text.language import detect_language
from ..text.pii import mask
from ..types import MemoryRecord, MemoryType, Operation, WriteResult
from ..writes import Draft
from .candidates import Candidate

log = logging.getLogger(__name__)

ACTOR_RULES = "ingest:rules"
ACTOR_LLM = "ingest:llm"
_SIMILAR_FLOOR = 0.5  # below this cosine a memory is not shown to the deciding LLM


@dataclass
class Decision:
    result: WriteResult
    contradicted: list[MemoryRecord] = field(default_factory=list)
    supported: list[MemoryRecord] = field(default_factory=list)


@dataclass
class Decider:
    runtime: Runtime
    chat: ChatModel | None = None
    usage: list[UsageRecord] = field(default_factory=list)
    events: list[tuple[str, dict]] = field(default_factory=list)  # type: ignore[type-arg]

    def __post_init__(self) -> None:
        self.conflicts = ConflictResolver(self.runtime.settings, self.runtime.dim, self.events)

    def decide(
        self,
        conn: Conn,
        candidate: Candidate,
        draft: Draft,
        vector: np.ndarray | None,
        said: dt.datetime | None = None,
    ) -> Decision:
        """Conflicts are scored first (seed 003 §7.2, ``neuromem.conflicts``): an old fact that loses is
        invalidated before the write, a new one that loses after it, a close call goes to review. ``said``: when
        the candidate's turn was sent (its ``valid_at`` may be a time its words name), for a correction of what
        was said just before."""
        draft = writes.annotated(draft)
        contradicted, supported = self._slot_conflicts(conn, candidate, draft)
        opposed = opposed_by_slot(contradicted, candidate.slot or "", candidate.value)
        offline = candidate.memory_type in CHANGES_FACTS and not contradicted
        if offline and not self._llm_decides(vector):
            opposed += self.conflicts.detect(
                conn,
                draft.user_id,
                draft.content,
                vector,
                exclude=[m.id for m in supported],
                metadata=draft.metadata,
                said=said or draft.valid_at,
            )
        plan = self.conflicts.before_write(conn, draft, opposed, invalidate_fact, ACTOR_RULES)
        decision = self._write(
            conn,
            candidate,
            draft,
            vector,
            [o.old for o in opposed],
            supported,
            fallback=self.conflicts if offline else None,
        )
        stands = self.conflicts.after_write(conn, decision.result.memory, plan, invalidate_fact, ACTOR_RULES)
        outcome = plan.outcome(stands)
        if outcome is not None and decision.result.operation is Operation.ADD:
            op, previous, reason = outcome
            decision.result = dataclasses.replace(
                decision.result, operation=op, memory=stands, previous_id=previous, reason=reason
            )
        elif stands is not decision.result.memory:  # the new fact lost: it is kept with invalid_at
            decision.result = dataclasses.replace(decision.result, memory=stands, reason="lost a conflict")
        return decision

    def _llm_decides(self, vector: np.ndarray | None) -> bool:
        return self.chat is not None and self.runtime.settings.ingest.llm_decisions and vector is not None

    def _write(
        self,
        conn: Conn,
        candidate: Candidate,
        draft: Draft,
        vector: np.ndarray | None,
        contradicted: list[MemoryRecord],
        supported: list[MemoryRecord],
        fallback: ConflictResolver | None,
    ) -> Decision:
        """With an LLM configured it decides (seed 004 §4.1); when it fails or is not asked, the
        rules decide, value changes included (``fallback``: the offline detector of issue 21)."""
        if self._llm_decides(vector):
            assert vector is not None
            decided = self._llm_decide(conn, candidate, draft, vector)
            if decided is not None:
                return Decision(decided, contradicted, supported)
        else:
            fallback = None  # the offline detector already ran in ``decide``
        actor = ACTOR_LLM if candidate.extractor == "llm" else ACTOR_RULES
        result = writes.write(self.runtime, conn, draft, vector=vector, actor=actor, conflicts=fallback)
        return Decision(result, contradicted, supported)

    # ---------------------------------------------------------------- slots
    def _slot_conflicts(
        self, conn: Conn, candidate: Candidate, draft: Draft
    ) -> tuple[list[MemoryRecord], list[MemoryRecord]]:
        if candidate.slot is None or candidate.memory_type is not MemoryType.FACT:
            return [], []
        where = compile_filter({"memory_type": "fact", "metadata.slot": candidate.slot})
        current = memories.list_memories(conn, draft.user_id, where=where, limit=20)
        contradicted = [m for m in current if m.metadata.get("slot_value") != candidate.value]
        supported = [m for m in current if m.metadata.get("slot_value") == candidate.value]
        return contradicted, supported

    # ---------------------------------------------------------------- LLM
    def _llm_decide(
        self, conn: Conn, candidate: Candidate, draft: Draft, vector: np.ndarray
    ) -> WriteResult | None:
        if draft.memory_type is not MemoryType.FACT:
            return None  # episodes are append-only (seed 001 §2.3): the rules add them
        same = memories.find_current_by_hash(
            conn, draft.user_id, draft.memory_type, check.content_hash(draft.content), owner=draft.owner
        )
        if same is not None:  # identical content stays a rule: NOOP without asking
            return writes.write(self.runtime, conn, draft, vector=vector, actor=ACTOR_RULES)
        k = self.runtime.settings.ingest.decision_candidates
        near = [
            (m, s)
            for m, s in memories.nearest_current(
                conn, draft.user_id, draft.memory_type, vector, self.runtime.dim, k, owner=draft.owner
            )
            if s >= _SIMILAR_FLOOR
        ]
        if not near:
            return None
        assert self.chat is not None
        try:
            answer = decide_operation(
                self.chat, draft.content, [m.content for m, _ in near], usage_sink=self.usage.append
            )
        except LLMError as exc:
            self.events.append(
                ("decision_fallback", {"error": str(exc)[:500], "content": mask(draft.content[:200])})
            )
            return None
        op = answer.operation
        target = (
            near[answer.target - 1][0]
            if answer.target is not None and 1 <= answer.target <= len(near)
            else None
        )
        if op != "ADD" and target is None:
            self.events.append(("decision_rejected", {"reason": "target out of range", "operation": op}))
            return None
        if op == "NOOP":
            assert target is not None
            return WriteResult(Operation.NOOP, target, reason="LLM: already known")
        if op == "UPDATE":
            assert target is not None
            content = (answer.content or draft.content).strip()
            if detect_language(content) != detect_language(draft.content):
                content = draft.content  # a memory stays in the language the user spoke
            merged = draft.with_content(content)
            current = memories.get(conn, target.user_id, target.id, for_update=True)
            if current is None or current.expired_at is not None:  # a concurrent writer replaced it
                self.events.append(
                    ("decision_rejected", {"reason": "target no longer current", "operation": op})
                )
                return None
            vectors = self.runtime.embed_passages([content]) if content != draft.content else None
            new = writes.supersede(
                self.runtime,
                conn,
                current,
                merged,
                vector=vector if vectors is None else vectors[0],
                actor=ACTOR_LLM,
            )
            return WriteResult(
                Operation.UPDATE, new, previous_id=target.id, reason=f"LLM: {answer.mode or 'merge'}"
            )
        if op == "DELETE":
            assert target is not None
            why = f"LLM: {answer.reason or 'no longer true'}"[:300]
            invalidate_fact(
                conn,
                target,
                draft.valid_at or self.runtime.now(),
                ACTOR_LLM,
                {"reason": "contradicted", "why": why, "by_content": draft.content[:200]},
            )
            result = writes.write(self.runtime, conn, draft, vector=vector, actor=ACTOR_LLM)
            done = Operation.UPDATE if result.operation is Operation.ADD else result.operation
            return WriteResult(
                done, result.memory, previous_id=target.id, reason=f"{why}; replaces {target.id}"
            )
        result = writes.write(self.runtime, conn, draft, vector=vector, actor=ACTOR_LLM)
        return result
