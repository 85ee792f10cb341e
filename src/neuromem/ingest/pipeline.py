"""The ingest pipeline: turns → raw chunks → extraction → decisions → writes → links.

MISSION capability 2, seed 002, seed 003 §3.0/§4, seed 000 §5.4, seed 004 §4.1. One call handles a
batch of turns of one session: extraction and embedding happen first (no transaction
open), then the messages, raw chunks, memories, history, sources, graph edges, usage
and events are written in **one** transaction — a batch is stored completely or not at
all, which is what makes a long import resumable without duplicates.

Session end (the hook for reflection): a session ends explicitly (``end_session``) or
when idle longer than ``ingest.session_idle_timeout_s`` (checked when the user's next
turns arrive, or by ``end_idle_sessions``). Either way ``conversation_sessions.ended_at``
/ ``end_reason`` are set and every listener in ``IngestPipeline.session_end_listeners``
is called after the commit with a ``SessionEnd`` carrying the accumulated importance.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import logging
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from .. import validation as check
from .. import writes
from ..core import Runtime
from ..errors import InvalidInputError, SessionNotFoundError
from ..llm.base import ChatModel, UsageRecord
from ..store import conversations, memories, raw_chunks, usage
from ..store.conversations import NewMessage, SessionRow
from ..store.documents import DocumentFile
from ..store.raw_chunks import TurnChunks, chunk_turn
from ..store.retry import run_with_retries
from ..store.visibility import Owner
from ..text.pii import apply_pii_policy, privacy_spans
from ..text.token_count import truncate_to_tokens
from ..types import MemoryType, Operation, WriteResult
from ..writes import Draft
from .candidates import Candidate, Extraction
from .decide import Decider
from .documents import chunk_document, write_document
from .links import Linker
from .llm_extractor import extract_with_llm
from .rules import extract_with_rules
from .turns import RejectedMessage, Turn, TurnUnit, lookup_keys, new_turns, parse_turns, session_id, turn_unit

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class SessionEnd:
    """The session-end signal (seed 004 §4.1 "extract on session end"; reflection trigger input)."""

    user_id: str
    session_id: str
    id: Any
    ended_at: dt.datetime | None
    reason: str
    message_count: int
    importance_sum: float
    memories_written: int

    @classmethod
    def of(cls, row: SessionRow) -> SessionEnd:
        return cls(
            user_id=row.user_id,
            session_id=row.external_id,
            id=row.id,
            ended_at=row.ended_at,
            reason=row.end_reason or "",
            message_count=row.message_count,
            importance_sum=float(row.metadata.get("importance_sum", 0.0)),
            memories_written=int(row.metadata.get("memories_written", 0)),
        )


@dataclass
class IngestReport:
    results: list[WriteResult] = field(default_factory=list)
    turns: int = 0  # turns stored by this call
    units: int = 0  # extracted candidates + dropped units
    dropped: Counter[str] = field(default_factory=Counter)
    session_ends: list[SessionEnd] = field(default_factory=list)
    fallbacks: int = 0
    skipped: int = 0  # turns already stored (same turn key): a retried batch, a resumed import
    rejected: list[RejectedMessage] = field(default_factory=list)  # bad messages, not stored (strict=False)
    documents: list[DocumentFile] = field(default_factory=list)  # over-long turns, stored as documents
    # what the caller should know: a model that failed or was skipped, and what was done instead
    warnings: list[str] = field(default_factory=list)

    def counts(self) -> dict[str, int]:
        return dict(Counter(str(r.operation) for r in self.results))


@dataclass
class Prepared:
    """A batch of turns ready to be written (the database has not been touched yet)."""

    user_id: str
    session_id: str
    turns: list[Turn]
    chunks: list[TurnChunks]
    extraction: Extraction
    kept: list[Candidate]
    drafts: list[Draft]
    vectors: Any
    report: IngestReport
    usage: list[UsageRecord]
    long_turns: dict[int, LongTurn] = field(default_factory=dict)  # by turn index
    turn_index: list[TurnUnit] = field(default_factory=list)  # each turn as a retrieval unit (issue 14)


@dataclass(frozen=True, slots=True)
class LongTurn:
    """A turn longer than ``write.max_content_chars``: stored whole as a message and raw chunks, and
    its text as a document (``pieces``, embedded as ``vectors``) whose chunks cite the message."""

    pieces: list[str]
    vectors: Any


def fallback_warnings(events: list[tuple[str, Any]], *, deferred: bool, mode: str) -> list[str]:
    """User-visible warnings for a batch (issue #12 item 5), also logged: rule-based fallbacks
    taken because the LLM failed, and embeddings left to the backfill because the embedder did."""
    out = [
        f"{kind.replace('_', ' ')} (the LLM failed: {str(data.get('error', ''))[:200]})"
        for kind, data in events
        if kind.endswith("fallback") and isinstance(data, dict)
    ]
    if deferred and mode == "sync":
        out.append(
            "embedding deferred: the embedder failed; the memories are searchable by full text "
            "and will be embedded by the backfill"
        )
    for warning in out:
        log.warning("ingest: %s", warning)
    return out


SessionEndListener = Callable[[SessionEnd], None]
DEFAULT_SESSION = "default"  # session id of messages added without one


class IngestPipeline:
    def __init__(self, runtime: Runtime, chat: ChatModel | None = None) -> None:
        self.runtime = runtime
        self.chat = chat
        self.settings = runtime.settings
        self.session_end_listeners: list[SessionEndListener] = []

    # ------------------------------------------------------------------ ingest
    def ingest(
        self,
        messages: Any,
        user_id: str,
        session: Any,
        *,
        metadata: Any = None,
        now: dt.datetime | None = None,
        strict: bool = False,
        owner: Owner | None = None,
    ) -> IngestReport:
        """Store a batch of turns of one session and the memories extracted from them.

        ``metadata`` (the caller's) is added to every memory written; neuromem's own keys win. ``owner``:
        the agent, run and visibility of the memories written (``store.visibility``; default the user's).
        A bad message is reported in ``IngestReport.rejected`` and the others are stored; with
        ``strict=True`` it raises its typed error and nothing is stored. Turns already stored
        (same turn key, ``ingest.turns``) are skipped and counted in ``IngestReport.skipped``.
        """
        return self.commit(
            self.prepare(messages, user_id, session, metadata=metadata, now=now, strict=strict, owner=owner)
        )

    def ingest_many(self, batches: Iterable[tuple[Any, Any, Any]]) -> Iterator[IngestReport]:
        """Ingest ``(messages, user_id, session)`` batches in order, preparing (extraction and
        embedding) the next batch in a worker thread while the current one is written."""
        with ThreadPoolExecutor(max_workers=1, thread_name_prefix="neuromem-ingest") as pool:
            pending: Future[Prepared] | None = None
            for messages, user_id, session in batches:
                upcoming = pool.submit(self.prepare, messages, user_id, session)
                if pending is not None:
                    yield self.commit(pending.result())
                pending = upcoming
            if pending is not None:
                yield self.commit(pending.result())

    def prepare(
        self,
        messages: Any,
        uid: str,
        session: Any,
        *,
        metadata: Any = None,
        now: dt.datetime | None = None,
        strict: bool = False,
        owner: Owner | None = None,
    ) -> Prepared:
        """Everything that needs no database for a batch of the (checked) user ``uid``: validation of the
        messages, privacy, chunks, extraction, embeddings."""
        sid = session_id(session)
        extra_meta = {} if metadata is None else check.metadata(metadata)
        parsed = parse_turns(messages, self.settings, now=now or self.runtime.now(), strict=strict)
        turns, rejected = self._private_turns(parsed.turns, parsed.rejected, strict)
        if not turns:  # nothing acceptable: the batch is refused with the first message's error
            raise rejected[0].error
        chunks = [chunk_turn(t.content, self.settings.ingest.raw_chunk_max_chars) for t in turns]
        usage_records: list[UsageRecord] = []
        extraction = self._extract(turns, usage_records)
        kept, report = self._filter(extraction, len(turns))
        report.rejected = rejected
        drafts = [
            self._draft(c, turns[c.turn_index], chunks[c.turn_index], uid, sid, extra_meta).owned_by(
                owner or Owner()
            )
            for c in kept
        ]
        limit = self.settings.write.max_content_chars
        long_pieces = {
            i: chunk_document(t.content, self.settings.ingest.document_chunk_tokens)
            for i, t in enumerate(turns)
            if len(t.content) > limit
        }
        # one embedding batch: memories, the pieces of over-long turns, and the turns (issue 14), each distinct
        # text once, so a memory whose text is its turn's shares the turn's vector
        # (a turn's vector reads its first ``turn_embed_tokens`` tokens: the cost of a long reply stays that
        # of a short one, and BM25 still indexes every word)
        turn_texts = self._turn_texts(turns, long_pieces, [d.content for d in drafts])
        # an over-long turn's pieces are embedded in the background past ``ingest.document_background_chars``
        # (as ``add_document`` does): the call's cost stays that of chunking, linear in the text
        background = {
            i for i in long_pieces if len(turns[i].content) > self.settings.ingest.document_background_chars
        }
        pieces_flat = [p for i, pieces in long_pieces.items() if i not in background for p in pieces]
        texts = list(dict.fromkeys([d.content for d in drafts] + pieces_flat + list(turn_texts.values())))
        unique = self.runtime.embed_passages(texts)
        row_of = {t: n for n, t in enumerate(texts)}

        def rows(items: Sequence[str]) -> Any:
            return None if unique is None else unique[[row_of[t] for t in items]]

        vectors = rows([d.content for d in drafts])
        long_turns: dict[int, LongTurn] = {
            i: LongTurn(pieces, None if i in background else rows(pieces))
            for i, pieces in long_pieces.items()
        }
        turn_index = [
            turn_unit(
                t,
                None if unique is None or i not in turn_texts else unique[row_of[turn_texts[i]]],
                self.runtime.dim,
                " ".join(c.search_tokens for _, c in chunks[i].pieces),
            )
            for i, t in enumerate(turns)
        ]
        return Prepared(
            uid,
            sid,
            turns,
            chunks,
            extraction,
            kept,
            drafts,
            vectors,
            report,
            usage_records,
            long_turns,
            turn_index,
        )

    def _turn_texts(
        self, turns: Sequence[Turn], long_pieces: Mapping[int, Any], memory_texts: Sequence[str]
    ) -> dict[int, str]:
        """The text each turn's vector reads, by turn index, for the turns embedded in this batch.

        ``ingest.turn_vectors="inline"``: every turn but the over-long ones (stored as document pieces).
        ``"background"`` (the default): only the turns whose text is a memory's being embedded anyway
        (the shared vector costs nothing); the others are stored without a vector, findable by full
        text at once, and the backfill embeds them right after (``lifecycle.backfill``), reading the
        same first ``turn_embed_tokens`` tokens."""
        cfg = self.settings.ingest
        if not cfg.embed_turns:
            return {}
        texts = {
            i: truncate_to_tokens(t.content, cfg.turn_embed_tokens)
            for i, t in enumerate(turns)
            if i not in long_pieces
        }
        if cfg.turn_vectors == "inline":
            return texts
        shared = set(memory_texts)
        return {i: text for i, text in texts.items() if text in shared}

    def commit(self, prepared: Prepared) -> IngestReport:
        """Write a prepared batch in one transaction: decisions are taken against the current state.

        A transaction that lost a race with a concurrent writer runs again (``store.retry``)."""
        report = run_with_retries(
            lambda: self._commit_once(prepared), self.settings.write.conflict_retries, what="ingest"
        )
        self._notify(report.session_ends)
        return report

    def _commit_once(self, prepared: Prepared) -> IngestReport:
        p = prepared
        uid, sid, turns, chunks, extraction, kept, drafts, vectors, usage_records = (
            p.user_id,
            p.session_id,
            p.turns,
            p.chunks,
            p.extraction,
            p.kept,
            p.drafts,
            p.vectors,
            p.usage,
        )
        report = dataclasses.replace(p.report, results=[], dropped=Counter(p.report.dropped), documents=[])
        decider = Decider(self.runtime, self.chat)
        with self.runtime.db.transaction() as conn:
            row, ended = self._open_session(conn, uid, sid, turns[0].sent_at)
            stored = conversations.stored_turn_keys(conn, uid, row.id, lookup_keys(turns))
            fresh = new_turns(turns, stored)
            turns = [*turns]  # an edited message carries its own key (ingest.turns.new_turns)
            for i, turn in fresh:
                turns[i] = turn
            new = [i for i, _ in fresh]
            report.skipped = len(turns) - len(new)
            raw_chunks.put_many(
                conn, uid, [c for i in new for _, c in chunks[i].pieces], self.settings.ingest.raw_chunk_dir
            )
            ids = conversations.insert_messages(
                conn,
                uid,
                [
                    NewMessage(
                        row.id,
                        row.message_count + n,
                        turns[i].role,
                        turns[i].speaker,
                        turns[i].content,
                        turns[i].sent_at,
                        check.content_hash(turns[i].content),
                        chunks[i].first_sha,
                        turns[i].metadata,
                        turns[i].key,
                        None,
                        *p.turn_index[i],
                    )
                    for n, i in enumerate(new)
                ],
            )
            message_ids = dict(zip(new, ids, strict=True))
            others = self._other_speakers(conn, uid, row.id, [turns[i] for i in new])
            for i in new:
                if i in p.long_turns:
                    report.documents.append(
                        self._store_long_turn(
                            conn, uid, sid, row.id, turns[i], message_ids[i], p.long_turns[i]
                        )
                    )
            linker = Linker(uid, previous_episode=conversations.last_episode_id(conn, uid, row.id))
            episodes_by_turn: dict[int, list[Any]] = {}
            importance = 0.0
            written = 0
            for i, (candidate, draft) in enumerate(zip(kept, drafts, strict=True)):
                if candidate.turn_index not in message_ids:
                    continue  # its turn was already stored, with its memories
                speaker = turns[candidate.turn_index].speaker
                if speaker is not None:
                    draft = dataclasses.replace(
                        draft, metadata={**draft.metadata, "speaker_is_user": speaker not in others}
                    )
                episodes = tuple(episodes_by_turn.get(candidate.turn_index, ()))
                if episodes and candidate.memory_type is MemoryType.FACT:
                    draft = dataclasses.replace(draft, extra={**draft.extra, "source_episode_ids": episodes})
                decision = decider.decide(
                    conn,
                    candidate,
                    draft,
                    None if vectors is None else vectors[i],
                    said=turns[candidate.turn_index].sent_at,
                )
                result = decision.result
                report.results.append(result)
                if result.operation is Operation.NOOP:  # a repetition: its provenance counts (seed 003 §6.2)
                    conversations.add_sources(
                        conn, uid, [(result.memory.id, row.id, message_ids[candidate.turn_index])]
                    )
                    continue
                written += 1
                importance += result.memory.importance
                memory = result.memory
                if memory.memory_type is MemoryType.EPISODIC:
                    episodes_by_turn.setdefault(candidate.turn_index, []).append(memory.id)
                conversations.add_sources(conn, uid, [(memory.id, row.id, message_ids[candidate.turn_index])])
                linker.link(
                    conn,
                    memory,
                    candidate,
                    draft.extra["raw_refs"][0],
                    contradicted=decision.contradicted,
                    supported=decision.supported,
                )
                if memory.memory_type is MemoryType.EPISODIC and vectors is not None:
                    linker.same_as(conn, memory, self._same_event(conn, memory, vectors[i]))
            events = [*extraction.events, *decider.events]
            if report.dropped:
                events.append(("candidates_dropped", {"session": sid, "counts": dict(report.dropped)}))
            if report.rejected:
                events.append(
                    (
                        "messages_rejected",
                        {
                            "session": sid,
                            "rejected": [
                                {"index": r.index, "error": type(r.error).__name__, "reason": r.reason[:200]}
                                for r in report.rejected
                            ],
                        },
                    )
                )
            usage.record_usage(conn, uid, [*usage_records, *decider.usage])
            usage.record_events(conn, uid, events)
            if new:
                conversations.record_activity(
                    conn,
                    uid,
                    row.id,
                    added=len(new),
                    last_message_at=max(turns[i].sent_at for i in new),
                    importance=importance,
                    memories_written=written,
                )
        report.turns = len(new)
        if (
            any(p.turn_index[i][2] is None for i in new if i not in p.long_turns)
            and self.settings.ingest.embed_turns
        ):
            self.runtime.embeddings_deferred = (
                True  # turns wait for the backfill: the facade starts its thread
            )
        if any(p.long_turns[i].vectors is None for i in new if i in p.long_turns):
            self.runtime.embeddings_deferred = True  # so do the pieces of a long turn
        report.fallbacks = sum(1 for kind, _ in events if kind.endswith("fallback"))
        report.warnings = fallback_warnings(
            events, deferred=bool(drafts) and vectors is None, mode=self.settings.embedder.mode
        )
        report.session_ends = [SessionEnd.of(r) for r in ended]
        return report

    def _other_speakers(self, conn: Any, uid: str, session_row: Any, turns: Sequence[Turn]) -> set[str]:
        """Names in this session that are not the user's own (issue 12 item 3b).

        The rule: a named turn speaks for the user when its ``name`` equals the ``user_id``
        (ignoring case), or when the session's mined turns (``ingest.extract_roles``, stored
        and new) carry a single name. In a group chat — several names — every name other than
        the ``user_id`` is another person: their memories are kept and searchable by that name,
        with ``metadata.speaker_is_user = false``, and reflection builds no trait from them.
        """
        roles = self.settings.ingest.extract_roles
        names = {t.speaker for t in turns if t.speaker and t.role in roles}
        if not names:
            return set()
        names |= conversations.session_speakers(conn, uid, session_row, roles)
        if len(names) == 1:
            return set()
        return {n for n in names if n.casefold() != uid.casefold()}

    def _store_long_turn(
        self, conn: Any, uid: str, sid: str, session_row: Any, turn: Turn, message_id: Any, long: LongTurn
    ) -> DocumentFile:
        """An over-long turn's text as a document whose chunks cite the turn (``memory_sources``)."""
        file, chunks = write_document(
            self.runtime,
            conn,
            uid,
            turn.content,
            long.pieces,
            long.vectors,
            file_name=f"turn {turn.key[:12]} of session {sid}"[:255],
            mime_type="text/plain",
            metadata={
                "source": "conversation_turn",
                "session_id": sid,
                "turn_key": turn.key,
                **({"speaker": turn.speaker} if turn.speaker else {}),
            },
        )
        conversations.add_sources(conn, uid, [(m.id, session_row, message_id) for m in chunks])
        return file

    def _same_event(self, conn: Any, memory: Any, vector: Any) -> list[tuple[Any, float]]:
        """Current episodes similar enough and close enough in event time to be the same event."""
        cfg = self.settings.ingest
        window = dt.timedelta(seconds=cfg.same_as_window_s)
        near = memories.nearest_current(
            conn, memory.user_id, MemoryType.EPISODIC, vector, self.runtime.dim, limit=3
        )
        return [
            (m, s)
            for m, s in near
            if m.id != memory.id
            and s >= cfg.same_as_threshold
            and m.valid_at is not None
            and memory.valid_at is not None
            and abs(m.valid_at - memory.valid_at) <= window
        ]

    def _private_turns(
        self, turns: Sequence[Turn], rejected: Sequence[RejectedMessage], strict: bool
    ) -> tuple[list[Turn], list[RejectedMessage]]:
        """The privacy mode applied turn by turn: a turn it refuses is rejected alone (or, strict, raises)."""
        kept: list[Turn] = []
        refused = list(rejected)
        for turn in turns:
            try:
                kept.append(self._private(turn))
            except InvalidInputError as exc:
                if strict:
                    raise
                refused.append(RejectedMessage(turn.index, exc))
        return kept, sorted(refused, key=lambda r: r.index)

    def _private(self, turn: Turn) -> Turn:
        """Apply the privacy mode (``ingest.pii_mode``) before anything is stored (raises on reject)."""
        result = apply_pii_policy(turn.content, self.settings.ingest.pii_mode)
        if not result.matches:
            return turn
        meta = {**turn.metadata, "pii": sorted(result.kinds)}
        spans = privacy_spans(result.text)
        if spans:  # what is still there, in the stored words (issue 21 item 5)
            meta["privacy"] = spans
        return dataclasses.replace(turn, content=result.text, metadata=meta)

    def _extract(self, turns: Sequence[Turn], usage_records: list[UsageRecord]) -> Extraction:
        """Candidates from the turns up to ``write.max_content_chars`` (issue 23 item 1): a longer turn
        is stored whole and as a document, and is not mined sentence by sentence — so a 1 MB turn costs
        what its chunks cost, not thousands of decisions, and never reaches the LLM's prompt."""
        roles = self.settings.ingest.extract_roles
        limit = self.settings.write.max_content_chars
        mined = [i for i, t in enumerate(turns) if len(t.content) <= limit]
        short = [turns[i] for i in mined]
        if self.chat is None:
            extraction = extract_with_rules(short, roles)
        else:
            extraction = extract_with_llm(
                self.chat, short, roles, usage_records, window=self.settings.ingest.llm_turns_per_call
            )
        extraction.candidates = [
            dataclasses.replace(c, turn_index=mined[c.turn_index]) for c in extraction.candidates
        ]
        long_turns = sum(1 for t in turns if len(t.content) > limit and t.role in roles)
        if long_turns:
            extraction.dropped["long_turn"] += long_turns  # stored as documents, not mined
        return extraction

    def _filter(self, extraction: Extraction, n_turns: int) -> tuple[list[Candidate], IngestReport]:
        report = IngestReport(dropped=Counter(extraction.dropped))
        threshold = self.settings.ingest.importance_threshold
        kept = []
        longest = self.settings.write.max_content_chars
        for c in extraction.candidates:
            if c.importance < threshold:
                report.dropped["below_threshold"] += 1
            elif len(c.content.strip()) > longest:
                report.dropped["too_long"] += 1  # its turn is stored whole, and as a document
            else:
                kept.append(c)
        report.units = len(extraction.candidates) + sum(extraction.dropped.values())
        # episodes first within a turn, so that facts can cite them (source_episode_ids)
        kept.sort(key=lambda c: (c.turn_index, c.memory_type is not MemoryType.EPISODIC, c.span))
        return kept, report

    def _draft(
        self, c: Candidate, turn: Turn, chunks: TurnChunks, uid: str, sid: str, caller_meta: dict[str, Any]
    ) -> Draft:
        meta = {**caller_meta, **c.metadata(), "session_id": sid, "role": turn.role}
        if turn.speaker:
            meta["speaker"] = turn.speaker
        draft = writes.draft(
            self.runtime,
            c.content,
            uid,
            memory_type=c.memory_type,
            metadata=meta,
            importance=c.importance,
            category=None if c.category is None else str(c.category),
            valid_at=c.time.start if c.time is not None else turn.sent_at,
        )
        return dataclasses.replace(draft, extra={"raw_refs": (chunks.ref(c.span),)})

    # ------------------------------------------------------------------ sessions
    def _open_session(
        self, conn: Any, uid: str, sid: str, first_turn_at: dt.datetime
    ) -> tuple[SessionRow, list[SessionRow]]:
        idle = dt.timedelta(seconds=self.settings.ingest.session_idle_timeout_s)
        row, _created = conversations.lock_session(conn, uid, sid, first_turn_at)
        ended = conversations.end_idle_sessions(conn, first_turn_at - idle, user_id=uid, exclude=row.id)
        last = row.last_message_at
        if row.ended_at is None and last is not None and last < first_turn_at - idle:
            closed = conversations.end_session(conn, uid, sid, reason="idle", at=last)
            if closed is not None:
                ended.append(closed)  # the same id continues as a new stretch; reopened below
        return row, ended

    def end_session(self, uid: str, session: Any, *, reason: str = "explicit") -> SessionEnd:
        sid = session_id(session)
        with self.runtime.db.transaction() as conn:
            row = conversations.end_session(conn, uid, sid, reason=reason[:20], at=self.runtime.now())
        if row is None:
            raise SessionNotFoundError(f"no open session {sid!r} for user {uid!r}")
        end = SessionEnd.of(row)
        self._notify([end])
        return end

    def end_idle_sessions(
        self, *, now: dt.datetime | None = None, user_id: str | None = None
    ) -> list[SessionEnd]:
        """End the open sessions (of the checked ``user_id``, or of every user) idle at ``now`` (default:
        the runtime's clock) for longer than ``ingest.session_idle_timeout_s``."""
        uid = user_id
        moment = now or self.runtime.now()
        idle_before = moment - dt.timedelta(seconds=self.settings.ingest.session_idle_timeout_s)
        with self.runtime.db.transaction() as conn:
            rows = conversations.end_idle_sessions(conn, idle_before, user_id=uid)
        ends = [SessionEnd.of(r) for r in rows]
        self._notify(ends)
        return ends

    def _notify(self, ends: Sequence[SessionEnd]) -> None:
        for end in ends:
            for listener in self.session_end_listeners:
                try:
                    listener(end)
                except Exception:  # a listener must not undo a committed ingest
                    log.exception("session-end listener failed for session %s", end.session_id)

    def new_turns(self, uid: str, session: Any, turns: Sequence[Turn]) -> list[Turn]:
        """The ``turns`` this session of the (checked) user ``uid`` does not hold yet (a resumed import
        skips the others)."""
        with self.runtime.db.connection() as conn:
            row = conversations.get_session(conn, uid, session_id(session))
            stored = (
                {} if row is None else conversations.stored_turn_keys(conn, uid, row.id, lookup_keys(turns))
            )
        return [turns[i] for i, _ in new_turns(turns, stored)]  # re-keyed, if edited, by commit
