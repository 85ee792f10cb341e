"""Compression of old, rarely used episodes into summaries (seed 004 §2.2 "随时间压缩旧记忆",
§4.1; seed 003 §6.2 mid-term "摘要化", read as an age line: the tier label itself was dropped, see
docs/architecture.md "Tiers").

Episodes older than ``lifecycle.compress_after_days`` (90) and recalled fewer than
``lifecycle.compress_max_access`` (5) times are grouped by session (else by day), at most
``compress_group_max`` per group, and each group becomes one ``episodic`` summary (a lone
episode only when the summary is shorter): offline, the first sentence of each episode cut to ``compress_item_chars``; with an
LLM configured, its bullets (``llm/prompts/summarize.py``), falling back to the rules.

Originals are archived, not lost: each is superseded by the summary (``expired_at`` +
``superseded_by``, a ``SUPERSEDE`` history row with actor ``consolidate:compress``), so
``history``, ``as_of`` and ``get`` still show it and the purge job never takes it. The summary
carries the originals' ``raw_refs`` (citations resolve to the original words), their sources,
``source_episode_ids`` and ``metadata.summary_of``. Forgetting an original deletes the summary
(derived from it) and brings the other originals back as current (``store.forget``), so the
next run summarises them again.

``dry_run=True`` returns the plan without writing.
"""

from __future__ import annotations

import datetime as dt
import logging
from dataclasses import dataclass, field
from typing import Any

from .. import validation as check
from ..core import Runtime
from ..errors import LLMError, VersionConflictError
from ..llm.base import ChatModel
from ..llm.prompts.summarize import summarize_memories
from ..store import consolidation, history, memories
from ..text.spans import split_sentences
from ..text.token_count import count_tokens
from ..types import HistoryEvent, MemoryRecord, MemoryType
from ..writes import Draft, new_row

log = logging.getLogger(__name__)

ACTOR = "consolidate:compress"
_LLM_QUERY = "Summarise these old episodes for long-term memory; keep names, dates and numbers."


@dataclass(frozen=True, slots=True)
class CompressedGroup:
    summary: str
    originals: tuple[MemoryRecord, ...]
    summary_id: Any = None  # None in a dry run

    @property
    def tokens_before(self) -> int:
        return sum(count_tokens(m.content) for m in self.originals)

    @property
    def tokens_after(self) -> int:
        return count_tokens(self.summary)


@dataclass(frozen=True, slots=True)
class CompressionReport:
    user_id: str
    dry_run: bool
    groups: tuple[CompressedGroup, ...] = field(default_factory=tuple)

    @property
    def archived(self) -> int:
        return sum(len(g.originals) for g in self.groups)

    @property
    def tokens_before(self) -> int:
        return sum(g.tokens_before for g in self.groups)

    @property
    def tokens_after(self) -> int:
        return sum(g.tokens_after for g in self.groups)


def rule_summary(texts: list[str], max_chars: int) -> str:
    """The first sentence of each text, cut to ``max_chars``, joined with "; " (offline summary)."""
    parts = []
    for text in texts:
        spans = split_sentences(text)
        first = text[spans[0][0] : spans[0][1]] if spans else text
        first = " ".join(first.split())
        parts.append(first if len(first) <= max_chars else first[: max_chars - 1].rstrip() + "…")
    return "; ".join(dict.fromkeys(p for p in parts if p))


def _llm_summary(chat: ChatModel, texts: list[str]) -> str | None:
    try:
        bullets = summarize_memories(chat, texts, _LLM_QUERY)
    except LLMError as exc:
        log.warning("LLM compression failed, using the rules: %s", exc)
        return None
    return "; ".join(b.text.strip() for b in bullets if b.text.strip()) or None


def compress_user(
    runtime: Runtime,
    user_id: str,
    now: dt.datetime | None = None,
    *,
    chat: ChatModel | None = None,
    dry_run: bool = False,
    limit: int = 5_000,
) -> CompressionReport:
    """Compress ``user_id``'s episodes past the line at ``now`` (default: the runtime's clock)."""
    uid = user_id  # checked by the facade, or a stored user id from the sweep
    now = runtime.now() if now is None else now
    s = runtime.settings.lifecycle
    before = now - dt.timedelta(days=s.compress_after_days)
    with runtime.db.connection() as conn:
        rows = consolidation.compressible_episodes(conn, uid, before, s.compress_max_access, limit)
    groups: dict[str, list[MemoryRecord]] = {}
    for key, record in rows:
        groups.setdefault(key, []).append(record)
    plans: list[CompressedGroup] = []
    for members in groups.values():
        for i in range(0, len(members), s.compress_group_max):
            chunk = members[i : i + s.compress_group_max]
            texts = [m.content for m in chunk]
            if len(chunk) == 1 and len(texts[0]) <= s.compress_item_chars:
                continue  # a lone short episode has nothing to shed
            summary = (_llm_summary(chat, texts) if chat is not None else None) or rule_summary(
                texts, s.compress_item_chars
            )
            plan = CompressedGroup(summary, tuple(chunk))
            if len(chunk) > 1 or plan.tokens_after < plan.tokens_before:
                plans.append(plan)
    if dry_run or not plans:
        return CompressionReport(uid, dry_run, tuple(plans))
    vectors = runtime.embed_passages([p.summary for p in plans])
    done = []
    with runtime.db.transaction() as conn:
        for k, plan in enumerate(plans):
            archived = _archive(runtime, conn, uid, plan, None if vectors is None else vectors[k])
            done.append(CompressedGroup(plan.summary, plan.originals, archived.id))
    return CompressionReport(uid, False, tuple(done))


def _archive(runtime: Runtime, conn: Any, uid: str, plan: CompressedGroup, vector: Any) -> MemoryRecord:
    originals = plan.originals
    draft = Draft(
        user_id=uid,
        memory_type=MemoryType.EPISODIC,
        content=plan.summary,
        importance=max(m.importance for m in originals),
        metadata={"summary_of": [str(m.id) for m in originals], "compressed_by": ACTOR},
        valid_at=min((m.valid_at or m.created_at) for m in originals),
        extra={
            "raw_refs": tuple(ref for m in originals for ref in m.raw_refs),
            "source_episode_ids": tuple(m.id for m in originals),
        },
    )
    summary = memories.insert(conn, new_row(draft, check.content_hash(plan.summary), vector), runtime.dim)
    history.record(conn, HistoryEvent.ADD, new=summary, actor=ACTOR)
    for m in originals:
        archived = memories.expire(conn, uid, m.id, expected_version=m.version, superseded_by=summary.id)
        if archived is None:
            raise VersionConflictError(f"memory {m.id} changed while being compressed; rerun the job")
        history.record(
            conn,
            HistoryEvent.SUPERSEDE,
            old=m,
            new=summary,
            actor=ACTOR,
            memory_id=m.id,
            extra={"summary_id": str(summary.id)},
        )
    consolidation.copy_sources(conn, uid, [m.id for m in originals], summary.id)
    return summary


@dataclass(frozen=True, slots=True)
class CompressionRun:
    reports: tuple[CompressionReport, ...]

    @property
    def archived(self) -> int:
        return sum(r.archived for r in self.reports)


def compress_job(
    runtime: Runtime,
    now: dt.datetime,
    *,
    chat: ChatModel | None = None,
    dry_run: bool = False,
    users: int = 100,
) -> CompressionRun:
    """The scheduled form: every user with old episodes (up to ``users`` per run)."""
    before = now - dt.timedelta(days=runtime.settings.lifecycle.compress_after_days)
    with runtime.db.connection() as conn:
        found = consolidation.users_with_old_episodes(conn, before, users)
    return CompressionRun(tuple(compress_user(runtime, u, now, chat=chat, dry_run=dry_run) for u in found))


__all__ = [
    "CompressedGroup",
    "CompressionReport",
    "CompressionRun",
    "compress_job",
    "compress_user",
    "rule_summary",
]
