"""The memory core: every operation written once, synchronously; ``Memory`` and
``AsyncMemory`` are thin facades over it (STYLE.md habit 3).

Write rules (seed 000 §5.4, issue 12): an identical content hash is a NOOP; a fact that
*restates* a current fact (``neuromem.supersede``: same wording after normalisation, the
same slot with the same value, or the LLM's judgement) is an UPDATE done as a supersede;
anything else is an ADD, linked ``SIMILAR_TO`` the similar memories. A cosine alone never
supersedes. Every change writes its ``memory_history`` row in the same transaction (seed
000 §2.6.2). ``update`` uses optimistic locking on ``version`` (seed 000 §5.5) and is the only
write that raises ``VersionConflictError``: ``add`` and ingest lock the row they supersede
and, when a concurrent writer got there first, decide again (``write.conflict_retries``).
Deletes are soft (``expired_at``).

Embedding (seed 000 "SQL 同步 + 向量异步"): in ``sync`` mode the vector is computed
before the row is written; if the embedder fails the row is still written with a
NULL embedding and the backfill picks it up later — nothing accepted is lost. In
``async`` mode rows are always written first and embedded by ``backfill_embeddings``.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from . import validation as check
from .config import Settings
from .embed.base import Embedder
from .errors import ConfigError, EmbedderError, InvalidInputError, MemoryNotFoundError, VersionConflictError
from .recall.access import AccessTracker
from .recall.pipeline import RecallPipeline
from .recall.recipes import get_recipe
from .store import conversations, graph, history, memories
from .store.db import Conn, Database
from .store.filters import compile_filter
from .store.memories import NewMemory
from .store.retry import run_with_retries
from .supersede import RestatementJudge, restates, speaker_of
from .text.language import detect_language
from .text.restatement import restatement_keys
from .text.token_count import count_tokens
from .text.tokenize import search_text
from .types import HistoryEntry, HistoryEvent, MemoryRecord, MemoryType, Operation, SearchResults, WriteResult

log = logging.getLogger(__name__)

SEARCHABLE_TYPES = (MemoryType.FACT, MemoryType.EPISODIC, MemoryType.TRAIT, MemoryType.DOCUMENT)
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
    extra: dict[str, Any] = field(default_factory=dict)  # further NewMemory fields (trait columns, provenance)


class MemoryCore:
    """Owns the database pool, the embedder and the settings; all operations live here."""

    def __init__(self, settings: Settings, db: Database, embedder: Embedder) -> None:
        if embedder.dim != settings.store.embedding_dim:
            raise ConfigError(
                f"the embedder {embedder.name!r} makes {embedder.dim}-d vectors but store.embedding_dim is "
                f"{settings.store.embedding_dim}: set NEUROMEM_EMBEDDING_DIM={embedder.dim}"
            )
        self.settings = settings
        self.db = db
        self.embedder = embedder
        self.dim = settings.store.embedding_dim
        self.access = AccessTracker(db, settings.recall)
        self.embed_failure: str | None = None  # the last sync-mode embedding failure, until one succeeds
        self.embeddings_deferred = False  # rows were written for the backfill on purpose (large documents)
        self.recall = RecallPipeline(settings, db, self.embed_query, self.access)

    # ------------------------------------------------------------------ drafts
    def draft(
        self,
        content: Any,
        user_id: Any,
        *,
        memory_type: Any = MemoryType.FACT,
        metadata: Any = None,
        importance: Any = None,
        category: str | None = None,
        valid_at: Any = None,
        invalid_at: Any = None,
    ) -> Draft:
        """Validate raw input into a ``Draft`` (raises a typed ``InvalidInputError``; writes nothing)."""
        w = self.settings.write
        valid = check.timestamp(valid_at, "valid_at")
        invalid = check.timestamp(invalid_at, "invalid_at")
        if valid and invalid and invalid <= valid:
            raise InvalidInputError("invalid_at must be later than valid_at")
        category = check.optional_text(category, "category", max_chars=20)
        return Draft(
            user_id=check.user_id(user_id, w),
            memory_type=check.memory_type(memory_type),
            content=check.content(content, w),
            importance=check.importance(importance, w.default_importance),
            metadata=check.metadata(metadata),
            category=category,
            valid_at=valid,
            invalid_at=invalid,
        )

    # ------------------------------------------------------------------ embedding
    def embed_passages(self, texts: Sequence[str]) -> np.ndarray | None:
        """Vectors for ``texts`` in sync mode, or None (async mode, or the embedder failed)."""
        if self.settings.embedder.mode == "async" or not texts:
            return None
        try:
            vectors = self.embedder.embed_passages(list(texts), batch_size=self.settings.embedder.batch_size)
        except EmbedderError as exc:
            log.warning("embedding failed, rows will be backfilled: %s", exc)
            self.embed_failure = str(exc)  # read by the facade: a warning, and the backfill starts
            return None
        self.embed_failure = None
        return vectors

    def embed_query(self, text: str) -> np.ndarray | None:
        try:
            return self.embedder.embed_query(text)
        except EmbedderError as exc:
            log.warning("query embedding failed, recall runs without vectors: %s", exc)
            return None

    # ------------------------------------------------------------------ writes
    def add(
        self, draft: Draft, *, actor: str = "user", vector: np.ndarray | None = None, session: str | None = None,
        judge: RestatementJudge | None = None,
    ) -> WriteResult:
        """Write one memory by the rules of seed 000 §5.4; ``session`` (a caller's session id)
        records the session as the memory's source (``memory_sources``, no message)."""
        if vector is None:
            vectors = self.embed_passages([draft.content])
            vector = None if vectors is None else vectors[0]

        def attempt() -> WriteResult:
            with self.db.transaction() as conn:
                row = None  # the session first, in the same lock order as ingest
                if session is not None:
                    row, _ = conversations.lock_session(conn, draft.user_id, session, dt.datetime.now(dt.UTC))
                result = self.write(conn, draft, vector=vector, actor=actor, judge=judge)
                if row is not None:
                    conversations.add_sources(conn, draft.user_id, [(result.memory.id, row.id, None)])
                return result

        return run_with_retries(attempt, self.settings.write.conflict_retries, what="add")

    def add_many(self, drafts: Sequence[Draft], *, actor: str = "user") -> list[WriteResult]:
        """Write many memories: one embedding batch, one transaction."""
        vectors = self.embed_passages([d.content for d in drafts])

        def attempt() -> list[WriteResult]:
            with self.db.transaction() as conn:
                return [
                    self.write(conn, d, vector=None if vectors is None else vectors[i], actor=actor)
                    for i, d in enumerate(drafts)
                ]

        return run_with_retries(attempt, self.settings.write.conflict_retries, what="add_many")

    def insert(self, draft: Draft, *, actor: str = "user") -> MemoryRecord:
        """Write ``draft`` as a new memory without the NOOP / near-duplicate decision: for callers
        that own the identity of what they store (the LangGraph store's namespace and key)."""
        vectors = self.embed_passages([draft.content])
        row = self._new_row(draft, check.content_hash(draft.content), None if vectors is None else vectors[0])
        with self.db.transaction() as conn:
            record = memories.insert(conn, row, self.dim)
            history.record(conn, HistoryEvent.ADD, new=record, actor=actor)
        return record

    def write(
        self, conn: Conn, draft: Draft, *, vector: np.ndarray | None, actor: str, judge: RestatementJudge | None = None
    ) -> WriteResult:
        """Decide NOOP / UPDATE / ADD for a draft and write it inside ``conn``'s transaction."""
        digest = check.content_hash(draft.content)
        # serialise concurrent writers of the same content, or of restatements of one fact, for this user
        keys = [digest, *(restatement_keys(draft.content, draft.metadata) if draft.memory_type is MemoryType.FACT
                          else [])]  # fmt: skip
        for key in sorted(keys):
            conn.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", (f"{draft.user_id}:{key}",))
        same = memories.find_current_by_hash(
            conn, draft.user_id, draft.memory_type, digest, speaker=speaker_of(draft.metadata)
        )
        if same is not None:
            return WriteResult(Operation.NOOP, same, reason="identical content hash")
        w = self.settings.write
        similar: list[tuple[MemoryRecord, float]] = []
        if vector is not None and draft.memory_type in LINKED_TYPES:
            for _attempt in range(w.conflict_retries + 1):
                near = memories.nearest_current(
                    conn, draft.user_id, draft.memory_type, vector, self.dim, limit=w.restatement_candidates
                )
                similar = [(m, s) for m, s in near if s >= w.near_duplicate_threshold]
                if draft.memory_type is not MemoryType.FACT:
                    break
                restated = self._restated(draft, near, judge)
                if restated is None:
                    break
                old, similarity, reason = restated
                current = memories.get(conn, draft.user_id, old.id, for_update=True)
                if current is None or current.expired_at is not None:
                    continue  # a concurrent writer superseded or deleted it meanwhile: decide again
                new = self._supersede(conn, current, draft, vector=vector, digest=digest, actor=actor)
                return WriteResult(
                    Operation.UPDATE, new, previous_id=old.id, reason=f"restatement: {reason} (cosine {similarity:.3f})"
                )
        record = memories.insert(conn, self._new_row(draft, digest, vector), self.dim)
        history.record(conn, HistoryEvent.ADD, new=record, actor=actor)
        if similar:
            graph.add_edges(conn, draft.user_id, [
                graph.EdgeInput(record.id, "memory", m.id, "memory", SIMILAR_TO, weight=s, confidence=s,
                                valid_at=record.valid_at)
                for m, s in similar
            ])  # fmt: skip
        return WriteResult(Operation.ADD, record, reason="new memory")

    def _restated(
        self, draft: Draft, near: Sequence[tuple[MemoryRecord, float]], judge: RestatementJudge | None
    ) -> tuple[MemoryRecord, float, str] | None:
        """The first of ``near`` that ``draft`` restates, with the cosine and the reason."""
        for old, similarity in near:
            reason = restates(
                draft.content, old.content, new_meta=draft.metadata, old_meta=old.metadata, similarity=similarity,
                judge=judge, judge_floor=self.settings.write.near_duplicate_threshold,
            )  # fmt: skip
            if reason is not None:
                return old, similarity, reason
        return None

    def _new_row(
        self, draft: Draft, digest: str, vector: np.ndarray | None, *, version: int = 1
    ) -> NewMemory:
        language = draft.metadata.get("language") or detect_language(draft.content)
        return NewMemory(
            user_id=draft.user_id,
            memory_type=draft.memory_type,
            content=draft.content,
            content_hash=digest,
            search_tokens=search_text(_searchable(draft)),
            token_count=count_tokens(draft.content),
            embedding=vector,
            importance=draft.importance,
            metadata=draft.metadata,
            category=draft.category,
            language=str(language)[:8],
            valid_at=draft.valid_at,
            invalid_at=draft.invalid_at,
            version=version,
            **draft.extra,
        )

    def supersede(
        self, conn: Conn, old: MemoryRecord, draft: Draft, *, vector: np.ndarray | None, actor: str,
        ends_previous: bool = False,
    ) -> MemoryRecord:
        """Public form of the supersede step for pipelines that decided an UPDATE themselves (ingest)."""
        digest = check.content_hash(draft.content)
        return self._supersede(
            conn, old, draft, vector=vector, digest=digest, actor=actor, ends_previous=ends_previous
        )

    def _supersede(
        self,
        conn: Conn,
        old: MemoryRecord,
        draft: Draft,
        *,
        vector: np.ndarray | None,
        digest: str,
        actor: str,
        ends_previous: bool = False,
    ) -> MemoryRecord:
        """Replace ``old`` by a new version: old gets expired_at + superseded_by (+ invalid_at)."""
        new = memories.insert(conn, self._new_row(draft, digest, vector, version=old.version + 1), self.dim)
        invalid_at = (draft.valid_at or new.created_at) if ends_previous else None
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

    def update(
        self,
        memory_id: Any,
        user_id: Any,
        *,
        content: Any = None,
        metadata: Any = None,
        importance: Any = None,
        valid_at: Any = None,
        ends_previous: bool = False,
        expected_version: int | None = None,
        actor: str = "user",
        tags: Any = None,
    ) -> MemoryRecord:
        """Change a memory. New content supersedes (new row, version + 1); metadata or
        importance alone change the row in place (version + 1). ``ends_previous`` marks
        the old content as no longer holding from ``valid_at`` (event time).
        Raises ``VersionConflictError`` when another writer got there first.
        """
        uid = check.user_id(user_id, self.settings.write)
        mid = check.memory_id(memory_id)
        if content is None and metadata is None and importance is None and tags is None:
            raise InvalidInputError("update needs content, metadata, importance or tags")
        new_tags = None if tags is None else check.tags(tags)
        new_meta = None if metadata is None else check.metadata(metadata)
        new_importance = None if importance is None else check.importance(importance, 0.5)
        valid = check.timestamp(valid_at, "valid_at")
        text = None if content is None else check.content(content, self.settings.write)
        vector = None
        if text is not None:
            vectors = self.embed_passages([text])
            vector = None if vectors is None else vectors[0]
        with self.db.transaction() as conn:
            current = memories.get(conn, uid, mid)
            if current is None:
                raise MemoryNotFoundError(f"no memory {mid} for user {uid!r}")
            if current.expired_at is not None:
                raise VersionConflictError(
                    f"memory {mid} is no longer current (superseded by {current.superseded_by}); update that one"
                )
            version = current.version if expected_version is None else expected_version
            if version != current.version:
                raise VersionConflictError(
                    f"memory {mid} is at version {current.version}, not {version}; re-read and retry"
                )
            if text is not None and text != current.content:
                draft = Draft(
                    user_id=uid,
                    memory_type=current.memory_type,
                    content=text,
                    importance=current.importance if new_importance is None else new_importance,
                    metadata={**current.metadata, **(new_meta or {})},
                    category=current.category,
                    valid_at=valid or current.valid_at,
                    extra={**_carried_fields(current), **({} if new_tags is None else {"tags": new_tags})},
                )
                current = replace(current, version=version)
                return self._supersede(
                    conn,
                    current,
                    draft,
                    vector=vector,
                    digest=check.content_hash(text),
                    actor=actor,
                    ends_previous=ends_previous,
                )
            fields: dict[str, Any] = {}
            if new_meta is not None:
                fields["metadata"] = {**current.metadata, **new_meta}
            if new_importance is not None:
                fields["importance"] = new_importance
            if valid is not None:
                fields["valid_at"] = valid
            if new_tags is not None and new_tags != current.tags:
                fields["tags"] = new_tags
            if not fields:
                return current
            updated = memories.update_fields(conn, uid, mid, expected_version=version, fields=fields)
            if updated is None:
                raise VersionConflictError(f"memory {mid} was changed by another writer; re-read and retry")
            history.record(conn, HistoryEvent.UPDATE, old=current, new=updated, actor=actor)
            return updated

    def delete(self, memory_id: Any, user_id: Any, *, actor: str = "user") -> MemoryRecord:
        """Soft delete: the memory gets ``expired_at`` and a DELETE history row."""
        uid = check.user_id(user_id, self.settings.write)
        mid = check.memory_id(memory_id)
        with self.db.transaction() as conn:
            current = memories.get(conn, uid, mid)
            if current is None or current.expired_at is not None:
                raise MemoryNotFoundError(f"no current memory {mid} for user {uid!r}")
            expired = memories.expire(conn, uid, mid, expected_version=current.version)
            if expired is None:
                raise VersionConflictError(f"memory {mid} was changed while deleting; retry")
            history.record(conn, HistoryEvent.DELETE, old=current, actor=actor)
            return expired

    def reset(self, user_id: Any) -> dict[str, int]:
        """Hard-delete everything stored for one user. Returns the rows removed per table."""
        from .lifecycle.forget import remove_files
        from .store.forget import chunk_paths

        uid = check.user_id(user_id, self.settings.write)
        with self.access.without_user(uid), self.db.transaction() as conn:
            files = chunk_paths(conn, uid)
            removed = memories.delete_user(conn, uid)
        remove_files(files)  # the chunk directory's files of this user (after the commit)
        return removed

    # ------------------------------------------------------------------ reads
    def get(self, memory_id: Any, user_id: Any) -> MemoryRecord:
        uid = check.user_id(user_id, self.settings.write)
        mid = check.memory_id(memory_id)
        with self.db.connection() as conn:
            record = memories.get(conn, uid, mid)
        if record is None:
            raise MemoryNotFoundError(f"no memory {mid} for user {uid!r}")
        return record

    def get_all(
        self,
        user_id: Any,
        *,
        filters: Mapping[str, Any] | None = None,
        limit: int = 100,
        offset: int = 0,
        as_of: Any = None,
        include_inactive: bool = False,
        valid_at: Any = None,
    ) -> list[MemoryRecord]:
        uid = check.user_id(user_id, self.settings.write)
        where = compile_filter(filters)
        when = check.timestamp(as_of, "as_of")
        event_time = check.timestamp(valid_at, "valid_at")
        n = check.limit(limit, maximum=10_000)
        offset = check.offset(offset)
        with self.db.connection() as conn:
            return memories.list_memories(
                conn, uid, where=where, as_of=when, include_inactive=include_inactive, limit=n, offset=offset,
                valid_at=event_time,
            )

    def history(self, memory_id: Any, user_id: Any) -> list[HistoryEntry]:
        """Every change of the memory's whole supersede chain, oldest first."""
        uid = check.user_id(user_id, self.settings.write)
        mid = check.memory_id(memory_id)
        with self.db.connection() as conn:
            ids = memories.chain_ids(conn, uid, mid)
            if not ids:
                raise MemoryNotFoundError(f"no memory {mid} for user {uid!r}")
            return history.for_memories(conn, uid, ids)

    def search(
        self,
        query: Any,
        user_id: Any,
        *,
        limit: int | None = None,
        filters: Mapping[str, Any] | None = None,
        memory_types: Sequence[Any] | None = None,
        as_of: Any = None,
        recipe: Any = None,
        trace: bool = False,
        reference_time: Any = None,
        strict: bool = False,
        valid_at: Any = None,
    ) -> SearchResults:
        """Hybrid recall (``neuromem.recall``): BM25 × vector × graph × traits × raw fallback,
        RRF and the seed 000 §6.1 score, MMR, time filter; ``trace`` records every stage."""
        uid = check.user_id(user_id, self.settings.write)
        text = check.content(query, self.settings.write, field="query")
        n = check.limit(self.settings.recall.default_limit if limit is None else limit)
        types = check.memory_types(memory_types, SEARCHABLE_TYPES)
        where = compile_filter(filters)
        when = check.timestamp(as_of, "as_of")
        event_time = check.timestamp(valid_at, "valid_at")
        reference = check.timestamp(reference_time, "reference_time")
        chosen = get_recipe(recipe, self.settings.recall.recipe)
        if not isinstance(trace, bool) or not isinstance(strict, bool):
            raise InvalidInputError(f"trace and strict must be booleans, got {trace!r} and {strict!r}")
        return self.recall.search(
            text, uid, recipe=chosen, types=tuple(types), limit=n, as_of=when, where=where,
            reference=reference, trace=trace, strict=strict, valid_at=event_time,
        )  # fmt: skip

    # ------------------------------------------------------------------ backfill
    def backfill_embeddings(self, *, batch_size: int | None = None, max_batches: int | None = None) -> int:
        """Embed rows written without a vector, batch by batch. Returns how many were embedded.

        A failing batch is recorded (``embed_attempts``, ``embed_error``) and left for the
        next run; the rows stay searchable by full text meanwhile.
        """
        size = batch_size or self.settings.embedder.batch_size
        done = 0
        batches = 0
        while max_batches is None or batches < max_batches:
            batches += 1
            with self.db.transaction() as conn:
                rows = memories.claim_pending_embeddings(conn, size)
                if not rows:
                    break
                try:
                    vectors = self.embedder.embed_passages([r["content"] for r in rows], batch_size=size)
                except EmbedderError as exc:
                    memories.record_embed_failure(conn, [(r["id"], r["memory_type"]) for r in rows], str(exc))
                    log.warning("backfill batch of %d failed: %s", len(rows), exc)
                    break
                triples = [(r["id"], r["memory_type"], vectors[i]) for i, r in enumerate(rows)]
                done += memories.set_embeddings(conn, triples, self.dim)
        return done

    def pending_embeddings(self, user_id: str | None = None) -> int:
        with self.db.connection() as conn:
            return memories.count_pending_embeddings(conn, user_id)

    def close(self) -> None:
        self.recall.close()
        try:
            self.access.close()
        except Exception as exc:
            log.warning("final access-count flush failed: %s", exc)
        self.db.close()
        self.embedder.close()


_TRAIT_FIELDS = (
    "trait_subtype", "trait_stage", "trait_confidence", "trait_context", "trait_parent_id",
    "trait_reinforcement_count", "trait_contradiction_count", "trait_last_reinforced", "trait_first_observed",
    "trait_window_start", "trait_window_end", "trait_derived_from",
)  # fmt: skip


def _searchable(draft: Draft) -> str:
    """The text whose tokens make a memory findable: its content, and who said it (``metadata.speaker``),
    so "what did Caroline say about…" matches Caroline's words (issue 12 item 3b)."""
    speaker = draft.metadata.get("speaker")
    return f"{speaker}: {draft.content}" if isinstance(speaker, str) and speaker.strip() else draft.content


def _carried_fields(current: MemoryRecord) -> dict[str, Any]:
    """Columns a new version inherits from the one it supersedes: provenance, entities and, for a
    trait, its whole state (subtype, stage, confidence…) — a corrected wording is the same trait."""
    carried = {
        "source_episode_ids": current.source_episode_ids,
        "raw_refs": current.raw_refs,
        "subject_entity_id": current.subject_entity_id,
        "object_entity_id": current.object_entity_id,
        "tags": current.tags,
    }
    if current.memory_type is MemoryType.TRAIT:
        carried.update({name: getattr(current, name) for name in _TRAIT_FIELDS})
    return carried
