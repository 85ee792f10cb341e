"""The one output schema of both pattern detectors (issue 5 §4; seed 001 §4.4–§4.5).

A detector answers four questions for the reflection engine; the engine owns the
math, the stages and every write, so the LLM detector and the offline detector
are interchangeable:

- :meth:`PatternDetector.link` — which new observations support or contradict
  which existing trait, with an evidence grade A–D and a context (steps 2–4, 7);
- :meth:`PatternDetector.propose` — new trends and behaviours in the memories
  that no trait explains yet (steps 2 and 4);
- :meth:`PatternDetector.judge` — revise, split by context, or dissolve a trait
  whose contradiction ratio passed the threshold (step 7, seed 001 §4.4);
- :meth:`PatternDetector.abstract` — the wording of a preference or core trait
  induced from its children (steps 5–6).

A stateful detector (the LLM one) returns a fresh per-cycle instance from
:meth:`PatternDetector.for_cycle` and reports what it did beyond its answers —
model usage, rejected output, a fallback — in :meth:`PatternDetector.cycle_log`.
"""

from __future__ import annotations

import datetime as dt
import uuid
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from ..llm.base import UsageRecord
from ..store.traits import Evidence
from ..types import EvidenceQuality
from .observations import Observation

Relation = Literal["supporting", "contradicting"]
Action = Literal["keep", "revise", "split", "dissolve"]


@dataclass(frozen=True, slots=True)
class TraitView:
    """What a detector knows of an existing trait."""

    id: uuid.UUID
    content: str
    subtype: str
    stage: str
    context: str | None
    confidence: float
    keywords: tuple[str, ...]
    negated: bool
    language: str
    contexts_seen: frozenset[str] = frozenset()
    sessions_seen: frozenset[str] = frozenset()
    vector: np.ndarray | None = None
    last_reinforced: dt.datetime | None = None


@dataclass(frozen=True, slots=True)
class EvidenceLink:
    trait_id: uuid.UUID
    memory_id: uuid.UUID
    relation: Relation
    quality: EvidenceQuality
    context: str | None
    strong: bool = False  # an explicit, direct contradiction (seed 001 §4.2 "强矛盾")


@dataclass(frozen=True, slots=True)
class ProposedEvidence:
    memory_id: uuid.UUID
    quality: EvidenceQuality
    context: str | None


@dataclass(frozen=True, slots=True)
class ProposedTrait:
    """A new ``trend`` (kind "trend") or ``behavior`` trait and the observations behind it."""

    content: str
    kind: Literal["trend", "behavior"]
    context: str
    keywords: tuple[str, ...]
    evidence: tuple[ProposedEvidence, ...]
    language: str
    emotional: bool = False
    negated: bool = False


@dataclass(frozen=True, slots=True)
class Judgement:
    """The outcome of a focused contradiction reflection (seed 001 §4.4)."""

    action: Action
    content: str | None = None
    confidence: float | None = None
    contexts: dict[str, dict[str, float | str]] = field(default_factory=dict)
    reason: str = ""


@dataclass(slots=True)
class CycleLog:
    """What a detector did in one cycle besides answering: model calls, rejections, fallbacks.

    The engine stores ``usage`` in ``model_usage``, ``events`` (kind, detail) in
    ``pipeline_events`` and ``details`` under ``reflection_cycles.details["detector_log"]``.
    """

    usage: list[UsageRecord] = field(default_factory=list)
    events: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    details: dict[str, Any] = field(default_factory=dict)


class PatternDetector(ABC):
    """Interchangeable pattern detection: ``OfflineDetector`` (rules) or ``LLMDetector``."""

    name: str = "detector"

    def for_cycle(self, user_id: str, now: dt.datetime) -> PatternDetector:
        """The detector one cycle of ``user_id`` at ``now`` uses (stateless detectors: ``self``)."""
        return self

    def cycle_log(self) -> CycleLog:
        """What this cycle's detector did besides answering (empty for rule detectors)."""
        return CycleLog()

    @abstractmethod
    def link(self, new: Sequence[Observation], traits: Sequence[TraitView]) -> list[EvidenceLink]: ...

    @abstractmethod
    def propose(self, pool: Sequence[Observation], new_ids: frozenset[uuid.UUID]) -> list[ProposedTrait]: ...

    @abstractmethod
    def judge(
        self, trait: TraitView, supporting: Sequence[Evidence], contradicting: Sequence[Evidence]
    ) -> Judgement: ...

    @abstractmethod
    def abstract(self, children: Sequence[TraitView], subtype: str) -> str: ...
