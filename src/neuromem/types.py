"""Domain values: plain, frozen data with no I/O (STYLE.md habit 2).

The vocabulary comes from seed 001 (memory types, trait subtypes, stages,
contexts, evidence quality) and seed 000 (history events, operations).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

# What the public calls accept, before ``neuromem.validation`` checks it at the facade (``Memory``) or the
# HTTP boundary (``service.api.context``); below them every pipeline takes the checked value.
#: an id of a memory, trait, document, receipt, conflict or job: a UUID or its text form
MemoryId = uuid.UUID | str
#: a moment: a datetime (naive is taken as UTC) or an ISO-8601 text
When = dt.datetime | str
#: a JSON object given by the caller: a memory's metadata, a filter
JsonObject = Mapping[str, Any]
#: conversation turns in the Mem0 style: one ``{"role": ..., "content": ...}`` mapping or a list of them
Messages = JsonObject | Sequence[JsonObject]


class MemoryType(StrEnum):
    """The four memory types and partitions of seed 000 §2.4."""

    FACT = "fact"
    EPISODIC = "episodic"
    TRAIT = "trait"
    DOCUMENT = "document"


class FactCategory(StrEnum):
    """Categories of a fact (MISSION decision 6)."""

    IDENTITY = "identity"
    PREFERENCE = "preference"
    RELATIONSHIP = "relationship"
    TASK = "task"
    PROCEDURE = "procedure"
    GENERAL = "general"


class TraitSubtype(StrEnum):
    BEHAVIOR = "behavior"
    PREFERENCE = "preference"
    CORE = "core"


class TraitStage(StrEnum):
    """Trait life-cycle stages (seed 001 §3.3)."""

    TREND = "trend"
    CANDIDATE = "candidate"
    EMERGING = "emerging"
    ESTABLISHED = "established"
    CORE = "core"
    DISSOLVED = "dissolved"


class TraitContext(StrEnum):
    WORK = "work"
    PERSONAL = "personal"
    SOCIAL = "social"
    LEARNING = "learning"
    GENERAL = "general"
    CONTEXTUAL = "contextual"


class EvidenceQuality(StrEnum):
    """Evidence grades A–D (seed 001 §4.2)."""

    A = "A"
    B = "B"
    C = "C"
    D = "D"


class HistoryEvent(StrEnum):
    """Events of ``memory_history`` (seed 000 §2.6.2)."""

    ADD = "ADD"
    UPDATE = "UPDATE"
    DELETE = "DELETE"
    SUPERSEDE = "SUPERSEDE"
    STAGE_CHANGE = "STAGE_CHANGE"
    FORGET = "FORGET"  # content-free tombstone of a hard-deleted memory (seed 003 §24)
    ARCHIVE = "ARCHIVE"  # a low-weight memory moved out of recall, kept (seed 003 §6.4)
    RESTORE = "RESTORE"  # an archived memory brought back
    LINK = "LINK"  # consolidation filed the memory under a concept (ABOUT, seed 003 §6.3)


class Operation(StrEnum):
    """The write decision for one candidate memory (seed 000 §5.4)."""

    ADD = "add"
    UPDATE = "update"
    DELETE = "delete"
    NOOP = "noop"


@dataclass(frozen=True, slots=True)
class Emotion:
    valence: float
    arousal: float
    label: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class MemoryColumns:
    """The columns of a ``memories`` row that a new row and a stored one share, written once:
    ``MemoryRecord`` (a stored row) and ``store.memories.NewMemory`` (a row to insert) extend it."""

    id: uuid.UUID | None = None
    user_id: str
    memory_type: MemoryType
    content: str
    created_at: dt.datetime | None = None
    version: int = 1
    importance: float = 0.5
    metadata: dict[str, Any] = field(default_factory=dict)
    valid_at: dt.datetime | None = None
    invalid_at: dt.datetime | None = None
    content_hash: str | None = None
    category: str | None = None
    language: str | None = None
    trait_subtype: str | None = None
    trait_stage: str | None = None
    trait_confidence: float | None = None
    trait_context: str | None = None
    trait_parent_id: uuid.UUID | None = None
    trait_reinforcement_count: int = 0
    trait_contradiction_count: int = 0
    trait_last_reinforced: dt.datetime | None = None
    trait_first_observed: dt.datetime | None = None
    trait_window_start: dt.datetime | None = None
    trait_window_end: dt.datetime | None = None
    trait_derived_from: str | None = None
    subject_entity_id: uuid.UUID | None = None
    object_entity_id: uuid.UUID | None = None
    source_episode_ids: tuple[uuid.UUID, ...] = ()
    raw_refs: tuple[dict[str, Any], ...] = ()
    tags: tuple[str, ...] = ()  # the caller's labels (seed 002), filtered with contains_any / contains_all
    archived_at: dt.datetime | None = None  # set while archived (seed 003 §6.4): out of recall, restorable
    agent_id: str | None = None  # the agent that owns it (None: the user's, shared by all the user's agents)
    run_id: str | None = None  # the run it belongs to (None: not tied to a run)
    visibility: str = (
        "private"  # private / team / public (seed 003 privacy.scope; docs/architecture.md "Scopes")
    )
    team_id: str | None = None  # the team that sees it (visibility "team" only)


@dataclass(frozen=True, slots=True, kw_only=True)
class MemoryRecord(MemoryColumns):
    """One row of ``memories`` as the application sees it."""

    id: uuid.UUID  # type: ignore[assignment]  # a stored row always has its id and creation time
    created_at: dt.datetime  # type: ignore[assignment]
    updated_at: dt.datetime | None = None
    expired_at: dt.datetime | None = None
    superseded_by: uuid.UUID | None = None
    access_count: int = 0
    last_accessed_at: dt.datetime | None = None
    has_embedding: bool = False

    @property
    def is_current(self) -> bool:
        """Known now (not expired), still holding (not invalidated) and, for a trait, not dissolved."""
        return self.expired_at is None and self.invalid_at is None and self.trait_stage != "dissolved"


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    id: uuid.UUID
    memory_id: uuid.UUID
    memory_type: MemoryType
    event: HistoryEvent
    old_content: str | None
    new_content: str | None
    old_metadata: dict[str, Any] | None
    new_metadata: dict[str, Any] | None
    actor: str
    created_at: dt.datetime


@dataclass(frozen=True, slots=True)
class WriteResult:
    """What ``add`` did with one piece of content."""

    operation: Operation
    memory: MemoryRecord
    previous_id: uuid.UUID | None = None
    reason: str = ""
    warnings: tuple[str, ...] = ()  # e.g. the embedder failed: stored without a vector, backfilled later


@dataclass(frozen=True, slots=True)
class ScoreBreakdown:
    """Every component of a recall score, so a caller can see why a memory ranked."""

    rrf: float
    recency: float
    importance: float
    stage_boost: float
    final: float
    ranks: dict[str, int] = field(default_factory=dict)
    extra: dict[str, float] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class SearchHit:
    """One recalled unit. ``memory`` is the memory, or for a turn no memory came from, a read-only
    view of that turn (``metadata["turn_only"]``, id = the message id); ``turns`` are the stored
    conversation turns the hit stands for (issue 14: a memory and its source turn are one hit)."""

    memory: MemoryRecord
    score: ScoreBreakdown
    turns: tuple[TurnRef, ...] = ()

    @property
    def retrievers(self) -> tuple[str, ...]:
        return tuple(sorted(self.score.ranks))


@dataclass(frozen=True, slots=True)
class TurnRef:
    """A stored conversation turn (``conversation_messages``) as recall cites it."""

    id: uuid.UUID
    session_id: str  # the caller's session id
    seq: int
    role: str
    speaker: str | None
    content: str
    sent_at: dt.datetime


@dataclass(frozen=True, slots=True)
class RawPassage:
    """Original words found by recall's raw-text fallback (seed 003 W5), with where they live."""

    sha256: str
    offset: int  # characters into the decoded chunk, like ``raw_refs`` items
    length: int
    text: str
    memory_ids: tuple[uuid.UUID, ...] = ()


@dataclass(frozen=True, slots=True)
class SearchResults:
    """Ranked hits plus a trace of how recall produced them; iterates like a list of hits."""

    hits: tuple[SearchHit, ...]
    trace: dict[str, Any] = field(default_factory=dict)
    passages: tuple[RawPassage, ...] = ()
    # retrieval paths that were wanted but failed or had no input, as "path: why"; empty when
    # recall ran in full. Non-empty means the hits may miss memories (issue #12 item 4).
    degraded: tuple[str, ...] = ()

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self.hits)

    def __len__(self) -> int:
        return len(self.hits)

    def __getitem__(self, index: int) -> SearchHit:
        return self.hits[index]

    @property
    def memories(self) -> list[MemoryRecord]:
        return [h.memory for h in self.hits]


@dataclass(frozen=True, slots=True)
class DocumentFile:
    """A stored document (``Memory.add_document``): its chunks are memories of type ``document``."""

    id: uuid.UUID
    user_id: str
    file_name: str
    mime_type: str
    size_bytes: int
    sha256: str
    chunk_count: int
    metadata: dict[str, Any]
    created_at: dt.datetime
    deleted_at: dt.datetime | None


@dataclass(frozen=True, slots=True)
class DocumentStatus:
    """How far a document's embedding has come (issue #12 item 7). Its chunks are searchable by
    full text from the moment ``add_document`` returns; by vector once ``embedded``."""

    file_id: uuid.UUID
    chunks: int
    embedded: int
    failed: int  # chunks whose last embedding attempt failed (retried by the backfill)

    @property
    def pending(self) -> int:
        return self.chunks - self.embedded

    @property
    def state(self) -> str:
        """``"ready"`` (every chunk embedded), ``"embedding"``, or ``"retrying"`` (attempts failed)."""
        if self.pending == 0:
            return "ready"
        return "retrying" if self.failed else "embedding"

    @property
    def progress(self) -> float:
        return 1.0 if self.chunks == 0 else self.embedded / self.chunks


@dataclass(frozen=True, slots=True)
class UsageRecord:
    """One model call as the store records it per user and operation (``ok=False`` for failures)."""

    operation: str
    model: str
    prompt_tokens: int
    completion_tokens: int
    latency_ms: float
    ok: bool
    error: str | None = None


def sha256_text(text: str) -> str:
    """The hex sha256 of a text's UTF-8 bytes: what a forget receipt proves was deleted."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True, slots=True)
class ForgetReceipt:
    """Proof of a forget (``forget_receipts``): counts, hashes, actor, time — none of the deleted content."""

    # the store reads and writes the first twelve fields (the table's columns); the forget
    # pipeline adds what it did after the deletion (traits recomputed or dissolved, files removed)

    id: uuid.UUID
    user_id: str
    target_kind: str
    target_sha256: str
    actor: str
    counts: dict[str, int]
    content_sha256: tuple[str, ...]
    id_sha256: tuple[str, ...]
    digest: str
    created_at: dt.datetime
    relations: tuple[str, ...] = ()  # where the rows were: what physical erasure (compaction) rewrites
    erased_at: dt.datetime | None = None  # when that rewrite completed and the WAL retired
    traits_recomputed: int = 0
    traits_deleted: int = 0
    files_removed: int = 0

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    def proves(self, value: Any) -> bool:
        """Whether this receipt covers an id (memory, message, session, document) or a content text."""
        digest = sha256_text(str(value))
        return digest in self.id_sha256 or digest in self.content_sha256
