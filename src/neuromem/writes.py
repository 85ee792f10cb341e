"""The write rules: how one memory enters the store (seed 000 §5.4, §2.6.2, §5.5; issue 12).

An identical content hash is a NOOP; a **fact** that *restates* a current fact
(``neuromem.supersede``: same wording after normalisation, the same slot with the same
value, or the LLM's judgement) is an UPDATE done as a supersede; a fact that gives a **new
value** to the slot of a current fact (issue 21, ``neuromem.text.slots``: "my extension is
now 4492" after "my extension is 4417") is written and, by the conflict priority
(``neuromem.conflicts``), ends the old fact (``invalid_at`` = the new fact's event time: it
stays in history and time travel) — an UPDATE whose ``previous_id`` is the old fact — or
opens a review item when the relation may hold several values; anything else is an ADD,
linked ``SIMILAR_TO`` the similar memories. Every fact that fills a slot carries it in
``metadata.slot`` / ``metadata.slot_value`` (unless the caller or the extractor set them). A cosine alone never supersedes, and episodes
are append-only (seed 001 §2.3): a near-duplicate episode is linked, never superseded.
Every change writes its ``memory_history`` row in the same transaction. ``update`` uses
optimistic locking on ``version`` and is the only write that raises
``VersionConflictError``: ``add`` and ingest lock the row they supersede and, when a
concurrent writer got there first, decide again (``write.conflict_retries``). Deletes are
soft (``expired_at``).

Every function takes the runtime (``neuromem.core.Runtime``) and typed, validated values:
user input is checked once, at the public boundary, by ``draft`` and ``neuromem.validation``.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

import numpy as np

from . import validation as check
from .conflicts import CHANGES_FACTS, ConflictResolver, invalidate_fact
from .core import Runtime
from .errors import InvalidInputError, MemoryNotFoundError, VersionConflictError
from .store import conversations, graph, history, memories, suppressions, usage
from .store.db import Conn
from .store.memories import NewMemory
from .store.retry import run_with_retries
from .store.visibility import Owner
from .supersede import RestatementJudge, restates, speaker_of
from .text.language import detect_language
from .text.pii import privacy_spans
from .text.restatement import restatement_keys
from .text.slots import claim_of
from .text.token_count import count_tokens
from .text.tokenize import search_text
from .types import HistoryEvent, MemoryRecord, MemoryType, Operation, WriteResult

LINKED_TYPES = (MemoryType.FACT, MemoryType.EPISODIC)  # compared with their neighbours when written
SIMILAR_TO = "SIMILAR_TO"  # edge from a new memory to a similar one it does not restate


@dataclass(frozen=True, slots=True)
class Draft:
    """A validated memory about to be written."""

    user_id: str
    memory_type: MemoryType
    content: str
    importance: float
    metadata: dict[str, Any]
    category: str | None = None
    valid_at: dt.datetime | None = None
    invalid_at: dt.datetime | None = None
    extra: dict[str, Any] = field(
        default_factory=dict
    )  # further NewMemory fields (trait columns, provenance)

    def with_content(self, content: str) -> Draft:
        return dataclasses.replace(self, content=content)

    @property
    def owner(self) -> Owner:
        """The agent, run and visibility the draft is written with (``Owner()``: the user's own memory)."""
        return Owner(**{name: self.extra[name] for name in _OWNER_FIELDS if name in self.extra})

    def owned_by(self, owner: Owner) -> Draft:
        return (
            self if owner == Owner() else dataclasses.replace(self, extra={**self.extra, **owner.columns()})
        )


_OWNER_FIELDS = ("agent_id", "run_id", "visibility", "team_id")


def draft(
    runtime: Runtime,
    content: Any,
    uid: str,
    *,
    memory_type: Any = MemoryType.FACT,
    metadata: Any = None,
    importance: Any = None,
    category: Any = None,
    valid_at: Any = None,
    invalid_at: Any = None,
) -> Draft:
    """Validate raw input into a ``Draft`` of the (checked) user ``uid`` (raises a typed ``InvalidInputError``;
    writes nothing)."""
    w = runtime.settings.write
    valid = check.timestamp(valid_at, "valid_at")
    invalid = check.timestamp(invalid_at, "invalid_at")
    if valid and invalid and invalid <= valid:
        raise InvalidInputError("invalid_at must be later than valid_at")
    return Draft(
        user_id=uid,
        memory_type=check.memory_type(memory_type),
        content=check.content(content, w),
        importance=check.importance(importance, w.default_importance),
        metadata=check.metadata(metadata),
        category=check.optional_text(category, "category", max_chars=20),
        valid_at=valid,
        invalid_at=invalid,
    )


def vector_of(runtime: Runtime, text: str) -> np.ndarray | None:
    """The vector of ``text``, or None: the embedder failed, or the text is longer than
    ``embedder.inline_max_chars`` and the backfill embeds it after the call (issue 23 item 1)."""
    if len(text) > runtime.settings.embedder.inline_max_chars:
        runtime.embeddings_deferred = True
        return None
    vectors = runtime.embed_passages([text])
    return None if vectors is None else vectors[0]


# ---------------------------------------------------------------------- ADD / NOOP / UPDATE
def add(
    runtime: Runtime,
    d: Draft,
    *,
    actor: str = "user",
    vector: np.ndarray | None = None,
    session: str | None = None,
    judge: RestatementJudge | None = None,
) -> WriteResult:
    """Write one memory by the rules; ``session`` (a caller's session id) records the session as
    the memory's source (``memory_sources``, no message)."""
    if vector is None:
        vector = vector_of(runtime, d.content)

    def attempt() -> WriteResult:
        with runtime.db.transaction() as conn:
            row = None  # the session first, in the same lock order as ingest
            if session is not None:
                row, _ = conversations.lock_session(conn, d.user_id, session, runtime.now())
            resolver = ConflictResolver(runtime.settings, runtime.dim, [])
            result = write(runtime, conn, d, vector=vector, actor=actor, judge=judge, conflicts=resolver)
            if row is not None:
                conversations.add_sources(conn, d.user_id, [(result.memory.id, row.id, None)])
            usage.record_events(conn, d.user_id, resolver.events)
            return result

    return run_with_retries(attempt, runtime.settings.write.conflict_retries, what="add")


def add_many(runtime: Runtime, drafts: Sequence[Draft], *, actor: str = "user") -> list[WriteResult]:
    """Write many memories: one embedding batch, one transaction."""
    inline = [i for i, d in enumerate(drafts) if len(d.content) <= runtime.settings.embedder.inline_max_chars]
    runtime.embeddings_deferred |= len(inline) < len(drafts)  # the longer ones: the backfill (``vector_of``)
    embedded = runtime.embed_passages([drafts[i].content for i in inline])
    vectors = {} if embedded is None else dict(zip(inline, embedded, strict=True))

    def attempt() -> list[WriteResult]:
        with runtime.db.transaction() as conn:
            results = []
            for i, d in enumerate(drafts):
                resolver = ConflictResolver(runtime.settings, runtime.dim, [])
                results.append(
                    write(runtime, conn, d, vector=vectors.get(i), actor=actor, conflicts=resolver)
                )
                usage.record_events(conn, d.user_id, resolver.events)
            return results

    return run_with_retries(attempt, runtime.settings.write.conflict_retries, what="add_many")


def insert(runtime: Runtime, d: Draft, *, actor: str = "user") -> MemoryRecord:
    """Write ``d`` as a new memory without the NOOP / near-duplicate decision: for callers
    that own the identity of what they store (the LangGraph store's namespace and key)."""
    row = new_row(d, check.content_hash(d.content), vector_of(runtime, d.content))
    with runtime.db.transaction() as conn:
        record = memories.insert(conn, row, runtime.dim)
        history.record(conn, HistoryEvent.ADD, new=record, actor=actor)
    return record


def write(
    runtime: Runtime,
    conn: Conn,
    d: Draft,
    *,
    vector: np.ndarray | None,
    actor: str,
    judge: RestatementJudge | None = None,
    conflicts: ConflictResolver | None = None,
) -> WriteResult:
    """Decide NOOP / UPDATE / ADD for a draft and write it inside ``conn``'s transaction.
    ``conflicts``: find and resolve value changes of current facts here (``add``); ingest's
    ``Decider`` passes None and resolves them around this call."""
    d = annotated(d)
    digest = check.content_hash(d.content)
    # serialise concurrent writers of the same content, or of restatements of one fact, for this user
    keys = [digest, *(restatement_keys(d.content, d.metadata) if d.memory_type is MemoryType.FACT else [])]
    memories.lock_write_keys(conn, d.user_id, keys)
    same = memories.find_current_by_hash(
        conn, d.user_id, d.memory_type, digest, speaker=speaker_of(d.metadata), owner=d.owner
    )
    if same is not None:
        return WriteResult(Operation.NOOP, same, reason="identical content hash")
    w = runtime.settings.write
    similar: list[tuple[MemoryRecord, float]] = []
    if vector is not None and d.memory_type in LINKED_TYPES:
        for _attempt in range(w.conflict_retries + 1):
            near = memories.nearest_current(
                conn,
                d.user_id,
                d.memory_type,
                vector,
                runtime.dim,
                limit=w.restatement_candidates,
                owner=d.owner,
            )
            similar = [(m, s) for m, s in near if s >= w.near_duplicate_threshold]
            if d.memory_type is not MemoryType.FACT:
                break  # episodes are append-only (seed 001 §2.3): linked, never superseded
            restated = _restated(runtime, d, near, judge)
            if restated is None:
                break
            old, similarity, reason = restated
            current = memories.get(conn, d.user_id, old.id, for_update=True)
            if current is None or current.expired_at is not None:
                continue  # a concurrent writer superseded or deleted it meanwhile: decide again
            new = supersede(runtime, conn, current, d, vector=vector, actor=actor)
            return WriteResult(
                Operation.UPDATE,
                new,
                previous_id=old.id,
                reason=f"restatement: {reason} (cosine {similarity:.3f})",
            )
    plan = None
    if conflicts is not None and d.memory_type in CHANGES_FACTS:
        opposed = conflicts.detect(
            conn, d.user_id, d.content, vector, exclude=[], metadata=d.metadata, said=d.valid_at
        )
        plan = conflicts.before_write(conn, d, opposed, invalidate_fact, actor) if opposed else None
    record = memories.insert(conn, new_row(d, digest, vector), runtime.dim)
    history.record(conn, HistoryEvent.ADD, new=record, actor=actor)
    if similar:
        graph.add_edges(
            conn,
            d.user_id,
            [
                graph.EdgeInput(
                    record.id,
                    "memory",
                    m.id,
                    "memory",
                    SIMILAR_TO,
                    weight=s,
                    confidence=s,
                    valid_at=record.valid_at,
                )
                for m, s in similar
            ],
        )
    if plan is not None and conflicts is not None:
        record = conflicts.after_write(conn, record, plan, invalidate_fact, actor)
        outcome = plan.outcome(record)
        if outcome is not None:
            return WriteResult(outcome[0], record, previous_id=outcome[1], reason=outcome[2])
    return WriteResult(Operation.ADD, record, reason="new memory")


def _without_slot(metadata: dict[str, Any]) -> dict[str, Any]:
    """Metadata a new wording inherits: not the slot and value of the old wording."""
    return {k: v for k, v in metadata.items() if k not in ("slot", "slot_value", "privacy")}


def annotated(d: Draft) -> Draft:
    """``d`` with what its words say about themselves: ``metadata.slot`` / ``slot_value`` of the slot
    a fact fills (``text.slots``; unless the caller or the extractor named one), and
    ``metadata.privacy``, the spans of personal data in the content (``text.pii``, issue 21 item 5)."""
    meta = d.metadata
    if d.memory_type is MemoryType.FACT and "slot" not in meta:
        claim = claim_of(d.content, generic=True)
        if claim is not None and not claim.negated:
            meta = {**meta, "slot": claim.key, "slot_value": claim.value}
    spans = privacy_spans(d.content)
    if spans:
        meta = {**meta, "privacy": spans}
    elif "privacy" in meta:
        meta = {k: v for k, v in meta.items() if k != "privacy"}
    return d if meta is d.metadata else dataclasses.replace(d, metadata=meta)


def _restated(
    runtime: Runtime, d: Draft, near: Sequence[tuple[MemoryRecord, float]], judge: RestatementJudge | None
) -> tuple[MemoryRecord, float, str] | None:
    """The first of ``near`` that ``d`` restates, with the cosine and the reason."""
    for old, similarity in near:
        reason = restates(
            d.content,
            old.content,
            new_meta=d.metadata,
            old_meta=old.metadata,
            similarity=similarity,
            judge=judge,
            judge_floor=runtime.settings.write.near_duplicate_threshold,
        )
        if reason is not None:
            return old, similarity, reason
    return None


def new_row(d: Draft, digest: str, vector: np.ndarray | None, *, version: int = 1) -> NewMemory:
    """The store row of a draft: its search tokens, token count and language derived here, once."""
    language = d.metadata.get("language") or detect_language(d.content)
    return NewMemory(
        user_id=d.user_id,
        memory_type=d.memory_type,
        content=d.content,
        content_hash=digest,
        search_tokens=search_text(_searchable(d)),
        token_count=count_tokens(d.content),
        embedding=vector,
        importance=d.importance,
        metadata=d.metadata,
        category=d.category,
        language=str(language)[:8],
        valid_at=d.valid_at,
        invalid_at=d.invalid_at,
        version=version,
        **d.extra,
    )


def supersede(
    runtime: Runtime,
    conn: Conn,
    old: MemoryRecord,
    d: Draft,
    *,
    vector: np.ndarray | None,
    actor: str,
    ends_previous: bool = False,
) -> MemoryRecord:
    """Replace ``old`` by a new version: old gets expired_at + superseded_by (+ invalid_at)."""
    new = memories.insert(
        conn, new_row(d, check.content_hash(d.content), vector, version=old.version + 1), runtime.dim
    )
    invalid_at = (d.valid_at or new.created_at) if ends_previous else None
    expired = memories.expire(
        conn, old.user_id, old.id, expected_version=old.version, superseded_by=new.id, invalid_at=invalid_at
    )
    if expired is None:
        raise VersionConflictError(
            f"memory {old.id} was changed by another writer (expected version {old.version}); re-read and retry"
        )
    history.record(conn, HistoryEvent.SUPERSEDE, old=old, new=new, actor=actor, memory_id=old.id)
    history.record(conn, HistoryEvent.UPDATE, old=old, new=new, actor=actor)
    return new


# ---------------------------------------------------------------------- UPDATE / DELETE of one memory
@dataclass(frozen=True, slots=True)
class Change:
    """A validated change of one memory (``update``): each field None = unchanged."""

    content: str | None = None
    metadata: dict[str, Any] | None = None
    importance: float | None = None
    valid_at: dt.datetime | None = None
    ends_previous: bool = False
    expected_version: int | None = None
    tags: tuple[str, ...] | None = None  # replaces the memory's tags (seed 002)

    @classmethod
    def checked(
        cls,
        runtime: Runtime,
        *,
        content: Any = None,
        metadata: Any = None,
        importance: Any = None,
        valid_at: Any = None,
        ends_previous: bool = False,
        expected_version: Any = None,
        tags: Any = None,
    ) -> Change:
        if content is None and metadata is None and importance is None and tags is None:
            raise InvalidInputError("update needs content, metadata, importance or tags")
        if expected_version is not None and (
            isinstance(expected_version, bool) or not isinstance(expected_version, int)
        ):
            raise InvalidInputError(f"expected_version must be an integer, got {expected_version!r}")
        return cls(
            content=None if content is None else check.content(content, runtime.settings.write),
            metadata=None if metadata is None else check.metadata(metadata),
            importance=None if importance is None else check.importance(importance, 0.5),
            valid_at=check.timestamp(valid_at, "valid_at"),
            ends_previous=bool(ends_previous),
            expected_version=expected_version,
            tags=None if tags is None else check.tags(tags),
        )


def update(
    runtime: Runtime, user_id: str, memory_id: UUID, change: Change, *, actor: str = "user"
) -> MemoryRecord:
    """Change a memory. New content supersedes (new row, version + 1; a trait keeps its subtype,
    stage and confidence); metadata or importance alone change the row in place (version + 1).
    ``ends_previous`` marks the old content as no longer holding from ``valid_at`` (event time).
    Raises ``VersionConflictError`` when another writer got there first."""
    vector = None if change.content is None else vector_of(runtime, change.content)
    with runtime.db.transaction() as conn:
        current = memories.get(conn, user_id, memory_id)
        if current is None:
            raise MemoryNotFoundError(f"no memory {memory_id} for user {user_id!r}")
        if current.expired_at is not None:
            raise VersionConflictError(
                f"memory {memory_id} is no longer current (superseded by {current.superseded_by}); update that one"
            )
        version = current.version if change.expected_version is None else change.expected_version
        if version != current.version:
            raise VersionConflictError(
                f"memory {memory_id} is at version {current.version}, not {version}; re-read and retry"
            )
        if change.content is not None and change.content != current.content:
            d = Draft(
                user_id=user_id,
                memory_type=current.memory_type,
                content=change.content,
                importance=current.importance if change.importance is None else change.importance,
                metadata={**_without_slot(current.metadata), **(change.metadata or {})},
                category=current.category,
                valid_at=change.valid_at or current.valid_at,
                extra={**_carried_fields(current), **({} if change.tags is None else {"tags": change.tags})},
            )
            return supersede(
                runtime,
                conn,
                current,
                annotated(d),
                vector=vector,
                actor=actor,
                ends_previous=change.ends_previous,
            )
        fields: dict[str, Any] = {}
        if change.metadata is not None:
            fields["metadata"] = {**current.metadata, **change.metadata}
        if change.importance is not None:
            fields["importance"] = change.importance
        if change.valid_at is not None:
            fields["valid_at"] = change.valid_at
        if change.tags is not None and change.tags != current.tags:
            fields["tags"] = change.tags
        if not fields:
            return current
        updated = memories.update_fields(conn, user_id, memory_id, expected_version=version, fields=fields)
        if updated is None:
            raise VersionConflictError(f"memory {memory_id} was changed by another writer; re-read and retry")
        history.record(conn, HistoryEvent.UPDATE, old=current, new=updated, actor=actor)
        return updated


def get(runtime: Runtime, user_id: str, memory_id: UUID) -> MemoryRecord:
    """One memory by id (any version), or ``MemoryNotFoundError``."""
    with runtime.db.connection() as conn:
        record = memories.get(conn, user_id, memory_id)
    if record is None:
        raise MemoryNotFoundError(f"no memory {memory_id} for user {user_id!r}")
    return record


def delete(runtime: Runtime, user_id: str, memory_id: UUID, *, actor: str = "user") -> MemoryRecord:
    """Soft delete: the memory gets ``expired_at`` and a DELETE history row."""
    with runtime.db.transaction() as conn:
        current = memories.get(conn, user_id, memory_id)
        if current is None or current.expired_at is not None:
            raise MemoryNotFoundError(f"no current memory {memory_id} for user {user_id!r}")
        expired = memories.expire(conn, user_id, memory_id, expected_version=current.version)
        if expired is None:
            raise VersionConflictError(f"memory {memory_id} was changed while deleting; retry")
        history.record(conn, HistoryEvent.DELETE, old=current, actor=actor)
        if current.memory_type is MemoryType.TRAIT and actor in (
            "user",
            "file",
        ):  # stays deleted (reflect.suppression)
            suppressions.record(
                conn, user_id, memory_id, current.content, current.metadata.get("keywords") or []
            )
        return expired


_TRAIT_FIELDS = (
    "trait_subtype",
    "trait_stage",
    "trait_confidence",
    "trait_context",
    "trait_parent_id",
    "trait_reinforcement_count",
    "trait_contradiction_count",
    "trait_last_reinforced",
    "trait_first_observed",
    "trait_window_start",
    "trait_window_end",
    "trait_derived_from",
)


def _searchable(d: Draft) -> str:
    """The text whose tokens make a memory findable: its content, and who said it (``metadata.speaker``),
    so "what did Caroline say about…" matches Caroline's words (issue 12 item 3b)."""
    speaker = d.metadata.get("speaker")
    return f"{speaker}: {d.content}" if isinstance(speaker, str) and speaker.strip() else d.content


def _carried_fields(current: MemoryRecord) -> dict[str, Any]:
    """Columns a new version inherits from the one it supersedes: provenance, entities and, for a
    trait, its whole state (subtype, stage, confidence…) — a corrected wording is the same trait."""
    carried = {
        "source_episode_ids": current.source_episode_ids,
        "raw_refs": current.raw_refs,
        "subject_entity_id": current.subject_entity_id,
        "object_entity_id": current.object_entity_id,
        "tags": current.tags,
        "agent_id": current.agent_id,
        "run_id": current.run_id,
        "visibility": current.visibility,
        "team_id": current.team_id,
    }
    if current.memory_type is MemoryType.TRAIT:
        carried.update({name: getattr(current, name) for name in _TRAIT_FIELDS})
    return carried
