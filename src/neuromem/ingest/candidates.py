"""The one output schema of both extractors (seed 000 §5.4, seed 001 §2, MISSION capability 2).

Extraction may only produce ``fact`` (with a category) and ``episodic`` candidates:
traits never come from a single conversation (seed 001 §2). Every candidate points
back to the words it came from (``turn_index`` + ``span`` in that turn's stored text).
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from ..text.entities import normalize_entity_name
from ..types import Emotion, FactCategory, MemoryType


@dataclass(frozen=True, slots=True)
class EntityRef:
    name: str
    type: str  # person | place | organization | other | concept

    @property
    def normalized(self) -> str:
        return normalize_entity_name(self.name)


@dataclass(frozen=True, slots=True)
class Relation:
    """A relation from the speaker to an entity, e.g. ``works_at`` → ``Google`` (organization)."""

    predicate: str
    object: EntityRef


@dataclass(frozen=True, slots=True)
class TimeInfo:
    """A resolved time expression, kept with its original words (seed 003 R2G-4)."""

    text: str
    start: dt.datetime
    end: dt.datetime
    granularity: str

    def as_metadata(self) -> dict[str, str]:
        return {
            "text": self.text,
            "start": self.start.isoformat(),
            "end": self.end.isoformat(),
            "granularity": self.granularity,
        }


@dataclass(frozen=True, slots=True)
class Candidate:
    content: str
    memory_type: MemoryType
    category: FactCategory | None
    importance: float
    turn_index: int
    span: tuple[int, int]  # [start, end) characters in the turn's (privacy-filtered) text
    language: str
    extractor: str  # "rules" | "llm"
    entities: tuple[EntityRef, ...] = ()
    keywords: tuple[str, ...] = ()
    time: TimeInfo | None = None
    emotion: Emotion | None = None
    slot: str | None = (
        None  # subject attribute; a current fact with the same slot and another value is contradicted
    )
    value: str | None = None  # the normalised value of the slot
    relation: Relation | None = None
    topic: str | None = None
    sensitive: frozenset[str] = frozenset()
    polarity: str | None = None  # "positive" | "negative" for preferences

    def metadata(self) -> dict[str, Any]:
        """What goes into ``memories.metadata`` (read by recall and reflection)."""
        meta: dict[str, Any] = {"extractor": self.extractor, "language": self.language}
        if self.entities:
            meta["entities"] = [{"name": e.name, "type": e.type} for e in self.entities]
        if self.keywords:
            meta["keywords"] = list(self.keywords)
        if self.time is not None:
            meta["time"] = self.time.as_metadata()
        if self.emotion is not None:
            meta["emotion"] = {
                "valence": self.emotion.valence,
                "arousal": self.emotion.arousal,
                "label": self.emotion.label,
            }
        if self.slot is not None:
            meta["slot"] = self.slot
            meta["slot_value"] = self.value
        if self.relation is not None:
            meta["relation"] = {"predicate": self.relation.predicate, "object": self.relation.object.name}
        if self.topic:
            meta["topic"] = self.topic
        if self.polarity:
            meta["polarity"] = self.polarity
        if self.sensitive:
            # seed 001 §8.2: sensitive memories are tagged and never become traits
            meta["sensitive"] = sorted(self.sensitive)
            meta["trait_eligible"] = False
        return meta


@dataclass
class Extraction:
    """Candidates of a batch of turns, and how many units were dropped for which reason."""

    candidates: list[Candidate] = field(default_factory=list)
    dropped: Counter[str] = field(default_factory=Counter)
    events: list[tuple[str, dict[str, Any]]] = field(default_factory=list)  # → pipeline_events
