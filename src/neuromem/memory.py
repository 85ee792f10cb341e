"""``Memory``: the public facade, in the style Mem0 users know.

It validates what the caller sent (once, here), then delegates: writes to
``neuromem.writes``, recall to ``neuromem.recall``, conversations to ``neuromem.ingest``,
traits to ``neuromem.reflect``, jobs and forgetting to ``neuromem.lifecycle``, each given
the runtime (``neuromem.core.Runtime``) it needs. ``AsyncMemory``
(``neuromem.async_memory``, generated from this class) runs each call in a worker thread,
so there is a single implementation of every operation (STYLE.md habit 3).

>>> from neuromem import Memory, Settings
>>> m = Memory(Settings())                                          # doctest: +SKIP
>>> m.add("I moved to Berlin in May", user_id="alice")              # doctest: +SKIP
>>> for hit in m.search("where does alice live?", user_id="alice"):  # doctest: +SKIP
...     print(hit.memory.content, round(hit.score.final, 4))
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
import logging
import uuid
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Self, overload

from . import scopes, writes
from . import validation as check
from .config import Settings
from .conflicts import Conflict, list_conflicts, resolve_conflict
from .core import Runtime
from .deadlines import public_call
from .embed.base import Embedder
from .embed.factory import create_embedder
from .errors import InvalidInputError, InvalidScopeError, MemoryNotFoundError, TraitWriteError
from .fallbacks import with_embedding_warning
from .ingest.async_jobs import IngestJob
from .ingest.async_jobs import status as job_status
from .ingest.chat_export import ImportSummary, import_export
from .ingest.documents import add_document, delete_document, document_status, list_documents
from .ingest.pipeline import DEFAULT_SESSION, IngestPipeline, IngestReport, SessionEnd, SessionEndListener
from .ingest.provenance import Provenance, provenance
from .ingest.turns import session_id as parse_session_id
from .lifecycle.archive import ArchiveReport, archive_user
from .lifecycle.archive import restore as restore_archived
from .lifecycle.backfill import (
    BackfillWorker,
    Foreground,
    backfill_embeddings,
    pending_embeddings,
    turn_max_chars,
)
from .lifecycle.compaction import CompactionReport, compact_forgotten
from .lifecycle.compress import CompressionReport, compress_user
from .lifecycle.concepts import ConceptReport, consolidate_concepts
from .lifecycle.feedback import give_feedback
from .lifecycle.forget import ForgetPreview, ForgetReceipt, forget
from .lifecycle.forget import receipt as forget_receipt
from .lifecycle.forget import receipts as forget_receipts
from .lifecycle.forget import reset as reset_user
from .lifecycle.forget import target_of as forget_target
from .lifecycle.jobs import JobContext
from .lifecycle.retention import RetentionReport, enforce_retention
from .lifecycle.scheduler import BackgroundJobs, overdue_jobs
from .lifecycle.webhooks import EventPage
from .lifecycle.webhooks import events as read_events
from .recall.access import AccessTracker
from .recall.pipeline import RecallPipeline
from .recall.prompt import PromptBlock, build_recall_prompt, depth_for, pinned_candidates, prompt_budget
from .recall.recipes import RecallRecipe, get_recipe
from .recall.related import Related
from .recall.related import related as graph_neighbours
from .recall.request import RecallRequest
from .store import history, memories, teams
from .store.db import Database
from .store.filters import compile_filter
from .store.visibility import narrowed
from .supersede import LLMRestatementJudge, RestatementJudge
from .types import (
    DocumentFile,
    DocumentStatus,
    HistoryEntry,
    JsonObject,
    MemoryId,
    MemoryRecord,
    MemoryType,
    Messages,
    SearchResults,
    When,
    WriteResult,
)

log = logging.getLogger(__name__)

if TYPE_CHECKING:
    from typing import IO

    from .portability.export import ExportReport
    from .portability.importer import ImportReport
    from .portability.markdown_sync import SyncReport
    from .reflect.engine import ReflectionReport
    from .reflect.math import TriggerType
    from .reflect.service import ReflectionService, TraitDetail, TraitGroups
    from .store.status import StoreStatus

SEARCHABLE_TYPES = (MemoryType.FACT, MemoryType.EPISODIC, MemoryType.TRAIT, MemoryType.DOCUMENT)


class Memory:
    """Long-term memory for one application; every call is scoped to a ``user_id``.

    ``Memory()`` uses the embedded PostgreSQL under ``~/.neuromem`` and the bundled
    multilingual embedder: no server, no API key. Pass ``Settings(...)`` (or use
    ``Memory.from_env()``) to point at another database or model. The library reads no
    environment variable itself (STYLE.md habit 14): ``NEUROMEM_DATA_DIR`` and the other
    ``NEUROMEM_*`` variables apply through ``Memory.from_env()`` and ``memctl`` only.
    """

    def __init__(
        self,
        settings: Settings | None = None,
        *,
        embedder: Embedder | None = None,
        background_jobs: bool | None = None,
    ) -> None:
        self.settings = settings or Settings()
        if background_jobs is not None:  # the in-process scheduler (``lifecycle.background_jobs``, issue 27)
            self.settings = self.settings.with_updates(
                lifecycle={"background_jobs": check.flag(background_jobs)}
            )
        embedder = embedder or create_embedder(
            self.settings.embedder, state_file=self.settings.breaker_file()
        )
        db = Database.open(self.settings)
        try:
            self._runtime = Runtime(self.settings, db, embedder)
        except Exception:
            db.close()
            raise
        self._runtime.access = self._access = access = AccessTracker(
            db, self.settings.recall, clock=self._runtime.now
        )
        self._recall = RecallPipeline(self._runtime, access)
        self._backfill: BackfillWorker | None = None
        self._foreground = Foreground()  # ingest calls in flight: the backfill thread gives way to them
        if self.settings.embedder.mode == "async":
            self._backfill = BackfillWorker(self._runtime, foreground=self._foreground).start()
        # ingest(wait=False)'s runner and the in-process scheduler (lifecycle.background_jobs)
        self._jobs = BackgroundJobs(
            self._runtime, lambda: JobContext(self._runtime, self._reflection, self._ingest), self._ingested
        )

    @property
    def runtime(self) -> Runtime:
        """The runtime this facade runs on — settings, database pool, embedder, the one chat model
        and the clock (``neuromem.core.Runtime``): the door for the service, the CLI, adapters
        and benchmarks that need more than the public calls."""
        return self._runtime

    @classmethod
    def from_env(cls, **sections: Mapping[str, Any]) -> Memory:
        """Settings from ``NEUROMEM_*`` environment variables (see ``neuromem.config``)."""
        return cls(Settings.from_env(**sections))

    # -- writes -------------------------------------------------------------
    def add(
        self,
        content: str | Messages,
        *,
        user_id: str,
        session_id: str | None = None,
        memory_type: str | MemoryType = MemoryType.FACT,
        metadata: JsonObject | None = None,
        importance: float | None = None,
        category: str | None = None,
        valid_at: When | None = None,
        invalid_at: When | None = None,
        tags: Sequence[str] | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
        visibility: str | None = None,
        team_id: str | None = None,
    ) -> list[WriteResult]:
        """Store one memory (ADD), or recognise it as known (NOOP) or as a new version (UPDATE).

        >>> m.add("我喜欢喝咖啡", user_id="alice", category="preference")  # doctest: +SKIP
        [WriteResult(operation=<Operation.ADD: 'add'>, ...)]

        A message or a list of messages in the Mem0 style runs the ingest pipeline
        (extraction, decisions, provenance, graph links) for ``session_id``:

        >>> m.add([{"role": "user", "content": "I work at Google"}], user_id="alice", session_id="s1")  # doctest: +SKIP

        A text with a ``session_id`` gets that session as its source (``sources``). A bad
        message in a list is skipped and logged; ``ingest`` returns it in ``rejected``.
        Traits come only from reflection (seed 001 §1.3): ``memory_type="trait"`` raises
        ``TraitWriteError``. ``agent_id`` / ``run_id`` / ``visibility`` / ``team_id``: who the memory
        belongs to beyond the user (docs/architecture.md, "Scopes"); by default the user's own.
        """
        uid = self._uid(user_id)
        owner = scopes.owner(
            self.settings.write, agent_id=agent_id, run_id=run_id, visibility=visibility, team_id=team_id
        )
        if not isinstance(content, str):
            if (memory_type, importance, category, valid_at, invalid_at, tags) != (
                MemoryType.FACT,
                None,
                None,
                None,
                None,
                None,
            ):
                raise InvalidInputError(
                    "memory_type, importance, category, valid_at, invalid_at and tags apply to a single memory; "
                    "for messages they are decided by extraction (metadata is applied to every memory)"
                )
            report = self.ingest(
                content,
                user_id=user_id,
                session_id=session_id,
                metadata=metadata,
                agent_id=agent_id,
                run_id=run_id,
                visibility=visibility,
                team_id=team_id,
            )
            for bad in report.rejected:
                log.warning("message %d was not stored: %s", bad.index, bad.reason)
            return report.results
        session = None if session_id is None else parse_session_id(session_id)
        if session is not None:
            metadata = {"session_id": session, **(metadata or {})}
        draft = writes.draft(
            self._runtime,
            content,
            uid,
            memory_type=memory_type,
            metadata=metadata,
            importance=importance,
            category=category,
            valid_at=valid_at,
            invalid_at=invalid_at,
        )
        if draft.memory_type is MemoryType.TRAIT:
            raise TraitWriteError(
                "traits come only from reflection (seed 001 §1.3): add the observations as facts or "
                "conversation turns, and reflect() derives the trait; a trait's wording can be corrected "
                "with update()"
            )
        if tags is not None:  # seed 002 tags: a column of the row (``Draft.extra``)
            draft = dataclasses.replace(draft, extra={**draft.extra, "tags": check.tags(tags)})
        result = writes.add(self._runtime, draft.owned_by(owner), session=session, judge=self._judge)
        self._poke()
        return [with_embedding_warning(result, self._runtime.embed_failure, self.settings.embedder.mode)]

    def update(
        self,
        memory_id: MemoryId,
        *,
        user_id: str,
        content: str | None = None,
        metadata: JsonObject | None = None,
        importance: float | None = None,
        valid_at: When | None = None,
        ends_previous: bool = False,
        expected_version: int | None = None,
        tags: Sequence[str] | None = None,
    ) -> MemoryRecord:
        """Change a memory; new content creates a new version that supersedes the old one
        (``tags`` replaces the memory's tags).

        >>> m.update(mem_id, user_id="alice", content="I live in Munich", ends_previous=True)  # doctest: +SKIP
        """
        uid, mid = self._ids(user_id, memory_id)
        change = writes.Change.checked(
            self._runtime,
            content=content,
            metadata=metadata,
            importance=importance,
            valid_at=valid_at,
            ends_previous=ends_previous,
            expected_version=expected_version,
            tags=tags,
        )
        record = writes.update(self._runtime, uid, mid, change)
        self._poke()
        return record

    def delete(self, memory_id: MemoryId, *, user_id: str) -> MemoryRecord:
        """Soft-delete a memory (it stays visible to ``history`` and ``as_of`` queries)."""
        uid, mid = self._ids(user_id, memory_id)
        return writes.delete(self._runtime, uid, mid)

    def reset(self, *, user_id: str) -> dict[str, int]:
        """Erase everything stored for ``user_id`` (irreversible)."""
        return reset_user(self._runtime, self._uid(user_id))

    # -- teams (issue 26 item 2: a memory of visibility "team" is seen by the team's members) ----
    def add_team_member(self, team_id: str, *, user_id: str) -> bool:
        """Make ``user_id`` a member of ``team_id``; False when it already was."""
        uid, team = self._uid(user_id), self._team(team_id)
        with self._runtime.db.transaction() as conn:
            return teams.join(conn, uid, team)

    def remove_team_member(self, team_id: str, *, user_id: str) -> bool:
        """End ``user_id``'s membership of ``team_id``; False when there was none."""
        uid, team = self._uid(user_id), self._team(team_id)
        with self._runtime.db.transaction() as conn:
            return teams.leave(conn, uid, team)

    def teams(self, *, user_id: str) -> list[str]:
        """The teams ``user_id`` belongs to."""
        uid = self._uid(user_id)
        with self._runtime.db.connection() as conn:
            return teams.teams_of(conn, uid)

    # -- forgetting (seed 003 §24, neuromem.lifecycle.forget) -----------------
    def forget(
        self,
        *,
        user_id: str,
        memory_id: MemoryId | None = None,
        session_id: str | None = None,
        document_id: MemoryId | None = None,
        since: When | None = None,
        until: When | None = None,
        query: str | None = None,
        entity: str | None = None,
        concept: str | None = None,
        everything: bool = False,
        dry_run: bool = False,
        actor: str = "user",
        compact: bool = False,
        agent_id: str | None = None,
        run_id: str | None = None,
    ) -> ForgetReceipt | ForgetPreview:
        """Hard-delete every trace of exactly one target and return the receipt proving it
        (``dry_run=True``: a preview of what would go, nothing deleted). ``compact=True`` also
        rewrites the relations that held the rows (``compact_forgotten``) before returning, so the
        receipt's ``erased_at`` is set; otherwise the daily job ``compact_forgotten`` does it.

        >>> receipt = m.forget(user_id="alice", memory_id=mem_id)        # doctest: +SKIP
        >>> m.forget(user_id="alice", query="peanut allergy", dry_run=True)  # doctest: +SKIP
        >>> m.forget(user_id="alice", agent_id="planner")                 # doctest: +SKIP  (a scope: every memory it wrote)
        """
        uid, compact = self._uid(user_id), check.flag(compact, "compact")
        target = forget_target(
            memory_id=memory_id,
            session_id=session_id,
            document_id=document_id,
            since=since,
            until=until,
            query=query,
            entity=entity,
            concept=concept,
            everything=everything,
            agent_id=agent_id,
            run_id=run_id,
            settings=self.settings.write,
        )
        result = forget(self._runtime, uid, target, dry_run=self._dry_run(dry_run), actor=check.actor(actor))
        if compact and isinstance(result, ForgetReceipt):
            compact_forgotten(self._runtime, user_id=result.user_id)
            return dataclasses.replace(
                result, erased_at=forget_receipt(self._runtime, result.user_id, result.id).erased_at
            )
        return result

    def compact_forgotten(self, *, user_id: str | None = None) -> CompactionReport:
        """Physical erasure (issue 23 item 4): rewrite the relations that held forgotten rows (VACUUM FULL),
        retire the WAL, and stamp ``erased_at`` on the receipts — every user's pending receipts, or one user's."""
        return compact_forgotten(self._runtime, user_id=None if user_id is None else self._uid(user_id))

    def forget_receipt(self, receipt_id: MemoryId, *, user_id: str) -> ForgetReceipt:
        return forget_receipt(self._runtime, *self._ids(user_id, receipt_id))

    def forget_receipts(self, *, user_id: str, limit: int = 100) -> list[ForgetReceipt]:
        return forget_receipts(self._runtime, self._uid(user_id), limit=check.limit(limit, maximum=10_000))

    # -- conflicts (seed 003 §7.2, neuromem.conflicts) ---------------------------
    def conflicts(self, *, user_id: str, status: str = "open", limit: int = 100) -> list[Conflict]:
        """Conflicts between facts: ``open`` (the review queue), ``auto``, ``resolved`` or ``all``."""
        return list_conflicts(self._runtime, self._uid(user_id), status=status, limit=limit)

    def resolve_conflict(
        self, conflict_id: MemoryId, *, user_id: str, keep: MemoryId, actor: str = "user"
    ) -> Conflict:
        """Close a review item: the memory ``keep`` stays active, the other side gets ``invalid_at``."""
        uid, cid = self._ids(user_id, conflict_id)
        return resolve_conflict(self._runtime, uid, cid, keep=check.memory_id(keep), actor=actor)

    # -- feedback (seed 003 §9.1, neuromem.lifecycle.feedback) -----------------
    def feedback(self, memory_id: MemoryId, *, user_id: str, kind: str) -> MemoryRecord:
        """``pin`` / ``unpin`` (a pinned memory is always in the prompt block) or ``upvote`` /
        ``downvote`` (moves its importance, hence its weight in recall)."""
        return give_feedback(self._runtime, *self._ids(user_id, memory_id), kind)

    def pin(self, memory_id: MemoryId, *, user_id: str) -> MemoryRecord:
        return self.feedback(memory_id, user_id=user_id, kind="pin")

    def unpin(self, memory_id: MemoryId, *, user_id: str) -> MemoryRecord:
        return self.feedback(memory_id, user_id=user_id, kind="unpin")

    def upvote(self, memory_id: MemoryId, *, user_id: str) -> MemoryRecord:
        return self.feedback(memory_id, user_id=user_id, kind="upvote")

    def downvote(self, memory_id: MemoryId, *, user_id: str) -> MemoryRecord:
        return self.feedback(memory_id, user_id=user_id, kind="downvote")

    # -- consolidation (seed 004 §2.2, neuromem.lifecycle.compress) ----------
    def compress(self, *, user_id: str, now: When | None = None, dry_run: bool = False) -> CompressionReport:
        """Summarise the user's old, rarely recalled episodes (LLM when configured, else rules);
        originals are archived behind the summary, their citations kept."""
        return compress_user(
            self._runtime,
            self._uid(user_id),
            self._now(now),
            chat=self._runtime.chat,
            dry_run=self._dry_run(dry_run),
        )

    def consolidate_concepts(self, *, user_id: str, dry_run: bool = False) -> ConceptReport:
        """Cluster the user's related memories into concept nodes linked by ABOUT (seed 003 §6.3)."""
        return consolidate_concepts(self._runtime, self._uid(user_id), dry_run=self._dry_run(dry_run))

    def archive(self, *, user_id: str, now: When | None = None, dry_run: bool = False) -> ArchiveReport:
        """Archive the user's memories and nodes whose seed 003 §6.1 weight fell under the threshold."""
        return archive_user(self._runtime, self._uid(user_id), self._now(now), dry_run=self._dry_run(dry_run))

    def restore(self, item_id: MemoryId, *, user_id: str) -> MemoryRecord | dict[str, Any]:
        """Bring back an archived memory (or graph node)."""
        return restore_archived(self._runtime, *self._ids(user_id, item_id))

    def enforce_retention(
        self, *, user_id: str | None = None, now: When | None = None, dry_run: bool = False
    ) -> RetentionReport:
        """Hard-delete, with receipts, what is past ``lifecycle.retention_days_by_type`` / ``_by_category``."""
        uid = None if user_id is None else self._uid(user_id)
        return enforce_retention(self._runtime, self._now(now), user_id=uid, dry_run=self._dry_run(dry_run))

    # -- conversations and documents (neuromem.ingest) -----------------------
    @overload
    def ingest(
        self,
        messages: Messages,
        *,
        user_id: str,
        session_id: str | None = None,
        metadata: JsonObject | None = None,
        strict: bool = False,
        wait: Literal[True] = True,
        agent_id: str | None = None,
        run_id: str | None = None,
        visibility: str | None = None,
        team_id: str | None = None,
    ) -> IngestReport: ...

    @overload
    def ingest(
        self,
        messages: Messages,
        *,
        user_id: str,
        session_id: str | None = None,
        metadata: JsonObject | None = None,
        strict: bool = False,
        wait: Literal[False],
        agent_id: str | None = None,
        run_id: str | None = None,
        visibility: str | None = None,
        team_id: str | None = None,
    ) -> IngestJob: ...

    @overload
    def ingest(
        self,
        messages: Messages,
        *,
        user_id: str,
        session_id: str | None = None,
        metadata: JsonObject | None = None,
        strict: bool = False,
        wait: bool = True,
        agent_id: str | None = None,
        run_id: str | None = None,
        visibility: str | None = None,
        team_id: str | None = None,
    ) -> IngestReport | IngestJob: ...

    def ingest(
        self,
        messages: Messages,
        *,
        user_id: str,
        session_id: str | None = None,
        metadata: JsonObject | None = None,
        strict: bool = False,
        wait: bool = True,
        agent_id: str | None = None,
        run_id: str | None = None,
        visibility: str | None = None,
        team_id: str | None = None,
    ) -> IngestReport | IngestJob:
        """Ingest conversation turns and return the full report (writes, drops by reason, session ends,
        turns already stored, rejected messages). ``strict=True``: one bad message refuses the batch.

        The turns are searchable by full text when this returns; their vectors follow from the backfill
        thread (``ingest.turn_vectors="background"``, the default) — ``flush()`` waits for them.

        ``wait=False`` validates the batch, stores it durably on the job queue and returns an
        ``IngestJob`` at once; this ``Memory``'s job thread extracts it right away (``close()`` waits
        for it), and a batch left behind by a process that died is run by the next runner
        (``neuromem.ingest.async_jobs``). ``job_status(job.id)`` reports progress and the result."""
        uid, sid = self._uid(user_id), DEFAULT_SESSION if session_id is None else session_id
        owner = scopes.owner(
            self.settings.write, agent_id=agent_id, run_id=run_id, visibility=visibility, team_id=team_id
        )
        if not check.flag(wait, "wait"):  # the job's memories get the same scope (kept in its payload)
            return self._jobs.submit_ingest(messages, uid, sid, metadata, strict, owner)
        with self._foreground:
            report = self._ingest.ingest(messages, uid, sid, metadata=metadata, strict=strict, owner=owner)
        self._poke()
        self._reflect_soon(uid)
        return report

    def job_status(self, job_id: MemoryId, *, user_id: str) -> IngestJob:
        """The state of an ``ingest(wait=False)`` job (queued / running / done / failed) and, once done, its result."""
        uid, jid = self._ids(user_id, job_id)
        return job_status(self._runtime, jid, uid)

    def import_chat_export(
        self,
        path: str | Path,
        *,
        user_id: str,
        batch_size: int | None = None,
        progress: Callable[[int], None] | None = None,
    ) -> ImportSummary:
        """Ingest a JSON / JSONL chat export; resumable after an interruption without duplicates."""
        uid = self._uid(user_id)
        with self._foreground:
            summary = import_export(self._ingest, Path(path), uid, batch_size=batch_size, progress=progress)
        self._poke()
        self._reflect_soon(uid)
        return summary

    def end_session(self, *, user_id: str, session_id: str) -> SessionEnd:
        """Mark a conversation session ended (the session-end signal reflection listens to)."""
        return self._ingest.end_session(self._uid(user_id), session_id)

    def end_idle_sessions(self, *, user_id: str | None = None, now: When | None = None) -> list[SessionEnd]:
        """End every open session idle longer than ``ingest.session_idle_timeout_s``."""
        uid = None if user_id is None else self._uid(user_id)
        return self._ingest.end_idle_sessions(user_id=uid, now=self._now(now))

    def on_session_end(self, listener: SessionEndListener) -> None:
        """Call ``listener(SessionEnd)`` after every session end (explicit or idle)."""
        self._ingest.session_end_listeners.append(listener)

    def sources(self, memory_id: MemoryId, *, user_id: str) -> Provenance:
        """Where a memory came from: sessions, messages and the exact original words."""
        uid, mid = self._ids(user_id, memory_id)
        return provenance(self._runtime, mid, uid)

    def events(
        self, *, user_id: str, after: str | None = None, kinds: Sequence[str] | None = None, limit: int = 100
    ) -> EventPage:
        """The user's change feed, oldest first: memories added, updated, invalidated, deleted, forgotten;
        conflicts opened; traits formed, changing stage, dissolved (ids and kinds, no content). Pass the
        page's ``next`` as ``after`` to read on."""
        return read_events(self._runtime, self._uid(user_id), after=after, kinds=kinds, limit=limit)

    def related(self, memory_id: MemoryId, *, user_id: str, limit: int = 100) -> Related:
        """A memory's neighbours in the graph — memories, entities, concepts — with each edge's kind
        and direction, heaviest first (``.kinds`` counts the edges by kind)."""
        uid, mid = self._ids(user_id, memory_id)
        return graph_neighbours(self._runtime, mid, uid, limit=check.limit(limit))

    def add_document(
        self,
        text: str,
        *,
        user_id: str,
        file_name: str,
        mime_type: str = "text/plain",
        metadata: JsonObject | None = None,
        background: bool | None = None,
    ) -> DocumentFile:
        """Store a text or markdown document as chunks in the document partition.

        Long documents (over ``ingest.document_background_chars``, or ``background=True``) return
        at once: searchable by full text now, embedded by a background thread; poll
        ``document_status``. Chunks still pending when the process exits are embedded by the next
        backfill (``flush()``, ``memctl worker``) — nothing is lost.
        """
        document = add_document(
            self._runtime,
            text,
            user_id=self._uid(user_id),
            file_name=file_name,
            mime_type=mime_type,
            metadata=metadata,
            background=background,
        )
        self._poke()
        return document

    def add_document_file(
        self,
        source: str | Path | bytes,
        *,
        user_id: str,
        file_name: str | None = None,
        mime_type: str | None = None,
        metadata: JsonObject | None = None,
        background: bool | None = None,
    ) -> DocumentFile:
        """Store a PDF, DOCX or HTML file (a path, or its bytes with ``file_name``) as a document whose chunks
        keep their page or section in ``metadata.source_ref``; PDF and DOCX need the ``documents`` extra.

        >>> m.add_document_file("contract.pdf", user_id="lin")  # doctest: +SKIP
        """
        from .ingest.document_files import add_document_file

        uid = self._uid(user_id)
        if isinstance(source, bytes):
            data, name = source, file_name
        else:
            data, name = Path(source).read_bytes(), file_name or Path(source).name
        document = add_document_file(
            self._runtime,
            data,
            user_id=uid,
            file_name=name,
            mime_type=mime_type,
            metadata=metadata,
            background=background,
        )
        self._poke()
        return document

    def document_status(self, file_id: MemoryId, *, user_id: str) -> DocumentStatus:
        """How many of a document's chunks are embedded (``.state``: ready / embedding / retrying)."""
        uid, fid = self._ids(user_id, file_id)
        return document_status(self._runtime, fid, uid)

    def list_documents(self, *, user_id: str, limit: int = 100) -> list[DocumentFile]:
        return list_documents(self._runtime, self._uid(user_id), limit=check.limit(limit, maximum=10_000))

    def delete_document(self, file_id: MemoryId, *, user_id: str) -> DocumentFile:
        """Soft-delete a document and all of its chunks."""
        uid, fid = self._ids(user_id, file_id)
        return delete_document(self._runtime, fid, uid)

    @functools.cached_property
    def _ingest(self) -> IngestPipeline:
        pipeline = IngestPipeline(self._runtime, self._runtime.chat)
        pipeline.session_end_listeners.append(self._reflect_on_session_end)
        return pipeline

    # -- reads --------------------------------------------------------------
    def search(
        self,
        query: str,
        *,
        user_id: str,
        limit: int | None = None,
        filters: JsonObject | None = None,
        memory_types: Sequence[str | MemoryType] | None = None,
        as_of: When | None = None,
        trace: bool = False,
        recipe: str | RecallRecipe | None = None,
        reference_time: When | None = None,
        strict: bool = False,
        valid_at: When | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
        include_shared: bool = False,
    ) -> SearchResults:
        """Recall the memories that matter for ``query``, best first, each with its score parts
        and the retrievers that found it. ``recipe`` names a preset of ``neuromem.recall.recipes``
        (default ``settings.recall.recipe``); ``trace=True`` records every stage;
        ``reference_time`` is "now" for relative dates in the query. Time travel: ``as_of``
        (record time) recalls what the system knew then; ``valid_at`` (event time) what was true
        then, as known now (both: as known at ``as_of``); see ``docs/time-travel.md``.

        A database outage raises ``DatabaseUnavailableError``; when every retrieval path failed
        recall raises ``RecallDegradedError`` instead of answering "nothing found". When only some
        failed (e.g. the embedder is down) the hits come with ``results.degraded`` listing them,
        and ``strict=True`` turns that into ``RecallDegradedError`` too. ``agent_id`` / ``run_id``: recall as
        that agent / run — its own memories and the user's shared ones (docs/architecture.md, "Scopes");
        ``include_shared``: with what other users share with the user (team memories of its teams, public ones),
        ranked with its own (``neuromem.recall.shared``).

        >>> hits = m.search("what does alice drink?", user_id="alice", limit=5)  # doctest: +SKIP
        >>> hits[0].score.final, hits[0].retrievers                             # doctest: +SKIP
        """
        request = self._recall_request(
            query,
            user_id,
            limit=limit,
            filters=filters,
            memory_types=memory_types,
            as_of=as_of,
            trace=trace,
            recipe=recipe,
            reference_time=reference_time,
            strict=strict,
            valid_at=valid_at,
            agent_id=agent_id,
            run_id=run_id,
            include_shared=include_shared,
        )
        return self._recall.run(request).results

    def recall_prompt(
        self,
        query: str,
        *,
        user_id: str,
        token_budget: int | None = None,
        style: str = "sections",
        limit: int | None = None,
        recipe: str | RecallRecipe | None = None,
        reference_time: When | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
        include_shared: bool = False,
    ) -> PromptBlock:
        """The memory block for a system prompt, packed into ``token_budget`` tokens with citations:
        ``style="sections"`` lays it out as seed 001 §6.2, ``"bullets"`` as seed 002's 3–6 points.

        >>> block = m.recall_prompt("周末去哪玩？", user_id="alice", token_budget=400)  # doctest: +SKIP
        >>> system_prompt = base_prompt + "\n" + block.text                            # doctest: +SKIP
        """
        budget = prompt_budget(
            self.settings.recall.token_budget if token_budget is None else token_budget, style
        )
        request = self._recall_request(
            query,
            user_id,
            limit=limit or depth_for(budget),
            recipe=recipe,
            reference_time=reference_time,
            agent_id=agent_id,
            run_id=run_id,
            include_shared=include_shared,
        )  # what others share: as in search
        # the pinned lines do not depend on the question: read on recall's connection while it is embedded
        recalled = self._recall.run(
            request,
            first=functools.partial(
                pinned_candidates, self._runtime, user_id=request.user_id, viewer=request.viewer
            ),
        )
        return build_recall_prompt(
            self._runtime,
            request,
            recalled,
            budget,
            style=style,
            chat=self._runtime.chat,
            pinned=[] if recalled.first is None else recalled.first,  # unread: no pinned lines
        )

    def _recall_request(
        self,
        query: str,
        user_id: str,
        *,
        limit: int | None = None,
        filters: JsonObject | None = None,
        memory_types: Sequence[str | MemoryType] | None = None,
        as_of: When | None = None,
        trace: bool = False,
        recipe: str | RecallRecipe | None = None,
        reference_time: When | None = None,
        strict: bool = False,
        valid_at: When | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
        include_shared: bool = False,
    ) -> RecallRequest:
        """The arguments of ``search`` / ``recall_prompt``, checked once (issue 25 item 1)."""
        if not all(isinstance(flag, bool) for flag in (trace, strict, include_shared)):
            raise InvalidInputError(
                f"trace, strict and include_shared must be booleans, got {trace!r}, {strict!r} "
                f"and {include_shared!r}"
            )
        uid = self._uid(user_id)
        viewer = scopes.viewer(self.settings.write, agent_id=agent_id, run_id=run_id)
        return RecallRequest(
            query=check.content(query, self.settings.write, field="query"),
            user_id=uid,
            recipe=get_recipe(recipe, self.settings.recall.recipe),
            types=tuple(check.memory_types(memory_types, SEARCHABLE_TYPES)),
            limit=check.limit(self.settings.recall.default_limit if limit is None else limit),
            where=narrowed(compile_filter(filters), viewer),
            viewer=viewer,
            as_of=check.timestamp(as_of, "as_of"),
            valid_at=check.timestamp(valid_at, "valid_at"),
            reference=check.timestamp(reference_time, "reference_time"),
            trace=trace,
            strict=strict,
            include_shared=include_shared,
        )

    def get(self, memory_id: MemoryId, *, user_id: str) -> MemoryRecord:
        """One memory by id (any version)."""
        return writes.get(self._runtime, *self._ids(user_id, memory_id))

    def get_all(
        self,
        *,
        user_id: str,
        filters: JsonObject | None = None,
        limit: int = 100,
        offset: int = 0,
        as_of: When | None = None,
        include_inactive: bool = False,
        valid_at: When | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
        include_shared: bool = False,
    ) -> list[MemoryRecord]:
        """Current memories of a user, newest first. Time travel (``docs/time-travel.md``):
        ``as_of`` (record time) lists what the system knew at that moment; ``valid_at`` (event
        time) what was true at that moment, as known now — e.g. a chat dated April 2024 that was
        imported today is found by ``valid_at="2024-05-01"``, not by ``as_of``. ``agent_id`` / ``run_id``:
        as that agent / run; ``include_shared``: with other users' memories of visibility ``team`` (of the
        user's teams) and ``public`` (docs/architecture.md, "Scopes").

        >>> m.get_all(user_id="alice", filters={"category": "preference"})  # doctest: +SKIP
        """
        uid = self._uid(user_id)
        where = narrowed(
            compile_filter(filters), scopes.viewer(self.settings.write, agent_id=agent_id, run_id=run_id)
        )
        when, event_time = check.timestamp(as_of, "as_of"), check.timestamp(valid_at, "valid_at")
        n, skip = check.limit(limit, maximum=10_000), check.offset(offset)
        if not isinstance(include_shared, bool):
            raise InvalidInputError(f"include_shared must be a boolean, got {include_shared!r}")
        with self._runtime.db.connection() as conn:
            return memories.list_memories(
                conn,
                uid,
                where=where,
                as_of=when,
                include_inactive=include_inactive,
                limit=n,
                offset=skip,
                valid_at=event_time,
                shared=include_shared,
            )

    def history(self, memory_id: MemoryId, *, user_id: str) -> list[HistoryEntry]:
        """Every change to the memory and the versions it superseded or was superseded by."""
        uid, mid = self._ids(user_id, memory_id)
        with self._runtime.db.connection() as conn:
            ids = memories.chain_ids(conn, uid, mid)
            if not ids:
                raise MemoryNotFoundError(f"no memory {mid} for user {uid!r}")
            return history.for_memories(conn, uid, ids)

    # -- reflection (seed 001 §3–§5, neuromem.reflect) -----------------------
    def reflect(self, *, user_id: str, now: When | None = None) -> ReflectionReport:
        """Run one reflection cycle for ``user_id`` now (``now`` injectable for replays); returns its report."""
        return self._reflection.reflect(self._uid(user_id), self._now(now))

    def maybe_reflect(
        self, *, user_id: str, now: When | None = None, session_ended: bool = False
    ) -> TriggerType | None:
        """Check the seed 001 §4.5 triggers; when one fires, queue a background cycle. Returns the trigger."""
        return self._reflection.maybe_reflect(self._uid(user_id), self._now(now), session_ended=session_ended)

    def traits(self, *, user_id: str, now: When | None = None) -> TraitGroups:
        """The user's traits grouped core / preference / behaviour (+ forming), seed 000 §6.2."""
        return self._reflection.traits(self._uid(user_id), self._now(now))

    def trait(self, trait_id: MemoryId, *, user_id: str, now: When | None = None) -> TraitDetail:
        """One trait with its evidence chain, parents, children and history."""
        uid, tid = self._ids(user_id, trait_id)
        return self._reflection.trait(tid, uid, self._now(now))

    def run_job(self, name: str, *, now: When | None = None, dry_run: bool = False) -> object:
        """Run one scheduled job of seed 000 §5.2 by name (``neuromem.lifecycle.jobs.JOBS``) in this process."""
        from .lifecycle.jobs import run_job

        return run_job(
            name,
            JobContext(self._runtime, self._reflection, self._ingest),
            now=self._now(now),
            dry_run=self._dry_run(dry_run),
        )

    @functools.cached_property
    def _reflection(self) -> ReflectionService:
        from .reflect.service import ReflectionService

        return ReflectionService(self._runtime)

    def _ingested(self, user_ids: Sequence[str]) -> None:
        """After ingest jobs ran on the job thread: what ``ingest`` does after a batch."""
        self._poke()
        for uid in dict.fromkeys(user_ids):
            self._reflect_soon(uid)

    def _reflect_soon(self, user_id: str) -> None:
        """After an ingest batch: queue a seed 001 §4.5 trigger check, evaluated off the request path."""
        if self.settings.traits.reflect_on_ingest:
            self._reflection.schedule_check(user_id)

    def _reflect_on_session_end(self, end: SessionEnd) -> None:
        """Session end (explicit or idle) is a reflection trigger: queue the check on the worker."""
        if self.settings.traits.reflect_on_ingest:
            self._reflection.schedule_check(end.user_id, session_ended=True)

    # -- export and import (neuromem.portability) ---------------------------
    def export(
        self, target: str | Path | IO[str], *, user_id: str, format: str | None = None, mask_pii: bool = False
    ) -> ExportReport:
        """Write everything stored for ``user_id`` to a file or text stream, from one snapshot:
        ``jsonl`` (full fidelity, importable; the default), ``json`` (readable, without vectors)
        or ``markdown`` (for people); the format follows the file suffix when not given.
        ``mask_pii=True``: for someone other than the user, personal data is masked.

        >>> m.export("alice.jsonl", user_id="alice")  # doctest: +SKIP
        """
        from .portability.export import export_user

        return export_user(self._runtime, target, self._uid(user_id), fmt=format, mask_pii=mask_pii)

    def import_file(self, source: str | Path | IO[str], *, include_forgotten: bool = False) -> ImportReport:
        """Import an export (JSONL or JSON) with its ids, versions and history; idempotent, all or
        nothing, re-embedding when the file's vectors come from another dimension or embedder.
        What a ``forget`` erased since the export stays out (``report.forgotten``);
        ``include_forgotten=True`` is the owner's own restore and brings it back."""
        from .portability.importer import import_file

        report = import_file(self._runtime, source, include_forgotten=include_forgotten)
        self._poke()
        return report

    def sync_markdown(self, directory: str | Path, *, user_id: str, language: str = "en") -> SyncReport:
        """Two-way sync with ``directory/memory.md`` and ``learnings.md`` (seed 004 §2.1): the
        person's added, edited and removed lines become adds, updates and deletes (history actor
        ``file``), then both files are written again; a conflict stays in the file, marked.

        >>> m.sync_markdown("~/notes/alice", user_id="alice", language="zh")  # doctest: +SKIP
        """
        from .portability.markdown_sync import sync_markdown

        report = sync_markdown(self._runtime, directory, self._uid(user_id), language=language)
        self._poke()
        return report

    # -- procedural memory (seed 004 §2.1 Layer 3, neuromem.procedural) -----
    def record_procedure(
        self,
        name: str,
        steps: Sequence[str],
        *,
        user_id: str,
        preconditions: Sequence[str] = (),
        outcome: str | None = None,
        tools: Sequence[str] = (),
        metadata: JsonObject | None = None,
    ) -> WriteResult:
        """After a task succeeded: store how it was done, or count one more success of a known
        procedure (same name). Alike tasks get it in the prompt block's "Proven skills".

        >>> m.record_procedure("Deploy the API", ["run tests", "build image", "push"], user_id="alice",
        ...                    preconditions=["tests green"], outcome="new version live")  # doctest: +SKIP
        """
        from .procedural.service import record_procedure

        result = record_procedure(
            self._runtime,
            self._uid(user_id),
            name,
            steps,
            preconditions=preconditions,
            outcome=outcome,
            tools=tools,
            metadata=metadata,
        )
        self._poke()
        return result

    # -- maintenance --------------------------------------------------------
    def flush(self, *, batch_size: int | None = None) -> int:
        """Embed everything still waiting for a vector now — memories, and the turns an ingest left to the
        backfill (``ingest.turn_vectors="background"``). Returns how many rows were embedded.

        >>> while m.pending_embeddings(user_id="alice"):  # doctest: +SKIP
        ...     m.flush()  # one call in this process; a `memctl worker` elsewhere may hold a batch a moment
        """
        if self._backfill is not None:  # takes over from the backfill thread after its batch in flight
            return self._backfill.run(batch_size=batch_size)
        return backfill_embeddings(self._runtime, batch_size=batch_size)

    def warm_up(self) -> None:
        """Load the embedding model now, so the first write or search does not pay for it (``memctl
        serve`` before it says ready; ``memctl ingest`` and ``documents upload`` before their bars)."""
        self._runtime.embedder.embed_passages(["warm up"])

    def status(self, *, user_id: str | None = None) -> StoreStatus:
        """The server, schema version, embedder and current memory counts (of ``user_id`` if given)."""
        from .store.status import store_status

        uid = None if user_id is None else self._uid(user_id)
        found = store_status(
            self._runtime.db,
            user_id=uid,
            embedder=self._runtime.embedder.name,
            embed_mode=self.settings.embedder.mode,
            turn_max_chars=turn_max_chars(self.settings),
        )
        late = overdue_jobs(self._runtime, self._runtime.now())
        if late:
            log.warning(
                "overdue jobs: %s; run `memctl worker` or Memory(background_jobs=True)", ", ".join(late)
            )
        return dataclasses.replace(found, overdue_jobs=tuple(late))

    def pending_embeddings(self, *, user_id: str | None = None) -> int:
        """Rows waiting for a vector: memories and conversation turns (zero once ``flush()`` has run)."""
        uid = None if user_id is None else self._uid(user_id)
        return pending_embeddings(self._runtime, uid)

    def close(self) -> None:
        self._jobs.stop()  # the queued ingest jobs of this process run first
        if self._backfill is not None:
            self._backfill.stop()
        reflection = self.__dict__.get("_reflection")
        if reflection is not None:
            reflection.close()
        self._recall.close()
        self._runtime.close()  # access counts flushed, then the chat model, the pool and the embedder

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @functools.cached_property
    def _judge(self) -> RestatementJudge | None:
        """The LLM's restatement judgement for ``add`` when a chat model is configured (``neuromem.supersede``)."""
        chat = self._runtime.chat
        return None if chat is None else LLMRestatementJudge(chat)

    def _team(self, team_id: str) -> str:
        team = check.scope_id(team_id, "team_id", self.settings.write)
        if team is None:
            raise InvalidScopeError("team_id is required")
        return team

    def _uid(self, user_id: str) -> str:
        return check.user_id(user_id, self.settings.write)

    def _ids(self, user_id: str, memory_id: MemoryId) -> tuple[str, uuid.UUID]:
        return self._uid(user_id), check.memory_id(memory_id)

    def _now(self, now: When | None) -> dt.datetime:
        """``now`` checked, or the runtime's clock."""
        return check.timestamp(now, "now") or self._runtime.now()

    def _dry_run(self, dry_run: bool) -> bool:
        return check.flag(dry_run, "dry_run")

    def _poke(self) -> None:
        if self._backfill is None and (
            self._runtime.embeddings_deferred or self._runtime.embed_failure is not None
        ):
            # sync mode, but rows wait without a vector: turns left to the backfill (ingest.turn_vectors), a large
            # document, or the embedder failed (embed them once it is back)
            self._backfill = BackfillWorker(self._runtime, foreground=self._foreground).start()
        if self._backfill is not None:
            self._backfill.poke()


# Calls whose work grows with the store (imports, exports, jobs, reflection, forgetting, flush) have no
# total deadline: each of their database waits ends within ``store.bulk_deadline_s`` and each model
# request has its own deadline, as in background work. Every other public call is one ``public_call``:
# its database work ends by ``store.deadline_s`` and its model requests share one deadline per model
# (issue 23 items 2 and 3, ``neuromem.deadlines``).
BULK_CALLS = frozenset(
    {
        "reset",
        "forget",
        "compress",
        "consolidate_concepts",
        "archive",
        "enforce_retention",
        "import_chat_export",
        "reflect",
        "maybe_reflect",
        "run_job",
        "export",
        "import_file",
        "sync_markdown",
        "flush",
        "compact_forgotten",
    }
)
_NO_DATABASE = frozenset({"from_env", "on_session_end", "close"})


def _within_deadline(method: Callable[..., Any]) -> Callable[..., Any]:
    """``method`` run as one public call: its database work and its model requests end by their deadlines."""

    @functools.wraps(method)
    def call(self: Memory, *args: Any, **kwargs: Any) -> Any:
        with public_call(self.settings.store.deadline_s):
            return method(self, *args, **kwargs)

    return call


for _name, _method in list(vars(Memory).items()):
    if not _name.startswith("_") and _name not in _NO_DATABASE | BULK_CALLS and callable(_method):
        setattr(Memory, _name, _within_deadline(_method))
