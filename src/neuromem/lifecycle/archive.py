"""Archive of low-weight memories and graph nodes (seed 003 §6.4 "遗忘/归档": time decay by type,
low-weight nodes become candidates, archived to cold storage keeping the summary and citation path).

The weight is seed 003 §6.1's, with the terms neuromem has data for::

    weight = w_imp·importance + w_freq·min(1, ln(1 + accesses) / ln(1 + freq_ref)) + w_rec·exp(−Δt / τ_type)

``Δt`` runs from the later of the event time (``valid_at``, else ``created_at``) and the last recall;
``τ`` is seed 003 §15's per type (episode 14 d, fact 90 d, concept 180 d; entity nodes use the concept's).
Pinned memories (the ``ε·feedback`` term) are never archived; upvotes and downvotes act through
``importance``. A node's importance is the mean of its current memories', its frequency their count.

Rows under ``lifecycle.archive_threshold`` (0.1: the weight has "tended to zero", §6.2 — a
memory of default importance 0.5 never goes, one of importance 0.2 (downvoted) never recalled goes
after ≈1.6 τ; a node no current memory links to after ≈1.6 τ) are archived: ``expired_at`` + ``archived_at`` on the row, so they leave recall and
every current listing, stay in ``get``, ``history`` (event ``ARCHIVE``, actor ``consolidate:archive``),
``get_all(include_inactive=True)`` and exports, are never purged, and ``restore`` brings them back
(event ``RESTORE``). Episodes are candidates only past ``compress_after_days``: compression takes
the rarely used ones into summaries first. Node changes go to ``pipeline_events`` (``NodeArchived``,
``NodeRestored``); a new mention of an archived node brings it back (``store.graph.upsert_nodes``).
"""

from __future__ import annotations

import datetime as dt
import math
import uuid
from dataclasses import dataclass, field
from typing import Any

from ..config import RecallSettings
from ..core import Runtime
from ..decay import decay
from ..errors import MemoryNotFoundError, VersionConflictError
from ..store import archive as store
from ..store import consolidation, history
from ..types import HistoryEvent, MemoryRecord, MemoryType

ACTOR = "consolidate:archive"


def tau_days(kind: str, recall: RecallSettings) -> float:
    """Seed 003 §15's τ for a memory type or node type (episode short, fact mid, concept long): the
    τ of recall's recency (``recall.recency_tau_*_days``), so the two agree."""
    if kind == MemoryType.EPISODIC:
        return float(recall.recency_tau_episode_days)
    if kind == MemoryType.FACT:
        return float(recall.recency_tau_fact_days)
    return float(recall.recency_tau_concept_days)


def weight(importance: float, accesses: int, age_days: float, tau: float, settings: Any) -> float:
    """Seed 003 §6.1's weight (module docstring); pure."""
    frequency = min(1.0, math.log1p(max(0, accesses)) / math.log1p(settings.archive_frequency_ref))
    recency = decay(1.0, 1.0 / tau, age_days)  # the one formula (neuromem.decay)
    return (
        settings.archive_weight_importance * importance
        + settings.archive_weight_frequency * frequency
        + settings.archive_weight_recency * recency
    )


def memory_weight(record: MemoryRecord, now: dt.datetime, settings: Any, recall: RecallSettings) -> float:
    seen = record.valid_at or record.created_at
    if record.last_accessed_at is not None and record.last_accessed_at > seen:
        seen = record.last_accessed_at
    age = (now - seen).total_seconds() / 86400.0
    return weight(record.importance, record.access_count, age, tau_days(record.memory_type, recall), settings)


@dataclass(frozen=True, slots=True)
class Archived:
    kind: str  # "memory" | "node"
    id: Any
    label: str  # the memory's type or the node's type and name
    weight: float


@dataclass(frozen=True, slots=True)
class ArchiveReport:
    user_id: str
    dry_run: bool
    items: tuple[Archived, ...] = field(default_factory=tuple)

    @property
    def memories(self) -> int:
        return sum(1 for i in self.items if i.kind == "memory")

    @property
    def nodes(self) -> int:
        return sum(1 for i in self.items if i.kind == "node")


def archive_user(
    runtime: Runtime, uid: str, now: dt.datetime | None = None, *, dry_run: bool = False, limit: int = 10_000
) -> ArchiveReport:
    """Archive the (checked) user ``uid``'s memories and nodes whose weight fell under the threshold at ``now``
    (default: the runtime's clock; ``dry_run``: list them)."""
    now = runtime.now() if now is None else now
    s = runtime.settings.lifecycle
    items: list[Archived] = []
    with runtime.db.transaction() as conn:
        before = now - dt.timedelta(days=s.compress_after_days)
        for record in store.memory_candidates(conn, uid, before, limit):
            w = memory_weight(record, now, s, runtime.settings.recall)
            if w >= s.archive_threshold:
                continue
            items.append(Archived("memory", record.id, str(record.memory_type), round(w, 4)))
            if dry_run:
                continue
            archived = store.archive_memory(conn, uid, record.id, record.version)
            if archived is None:
                raise VersionConflictError(f"memory {record.id} changed while being archived; rerun the job")
            history.record(
                conn,
                HistoryEvent.ARCHIVE,
                old=record,
                new=archived,
                actor=ACTOR,
                extra={"weight": round(w, 4)},
            )
        for node in store.node_candidates(conn, uid, limit):
            age = (now - node.last_seen).total_seconds() / 86400.0
            w = weight(
                node.importance, node.live_links, age, tau_days(node.node_type, runtime.settings.recall), s
            )
            if w >= s.archive_threshold:
                continue
            items.append(Archived("node", node.id, f"{node.node_type}:{node.name}", round(w, 4)))
            if not dry_run and store.set_node_archived(conn, uid, node.id, True) is not None:
                store.log_node_event(
                    conn,
                    uid,
                    "NodeArchived",
                    {"node_id": str(node.id), "weight": round(w, 4), "actor": ACTOR},
                )
    return ArchiveReport(uid, dry_run, tuple(items))


def restore(
    runtime: Runtime, uid: str, iid: uuid.UUID, *, actor: str = "user"
) -> MemoryRecord | dict[str, Any]:
    """Bring back an archived memory (its ``RESTORE`` history row) or an archived node."""
    with runtime.db.transaction() as conn:
        restored = store.restore_memory(conn, uid, iid)
        if restored is not None:
            history.record(conn, HistoryEvent.RESTORE, new=restored, actor=actor)
            return restored
        node = store.set_node_archived(conn, uid, iid, False)
        if node is not None:
            store.log_node_event(conn, uid, "NodeRestored", {"node_id": str(iid), "actor": actor})
            return dict(node)
    raise MemoryNotFoundError(f"no archived memory or node {iid} for user {uid!r}")


@dataclass(frozen=True, slots=True)
class ArchiveRun:
    reports: tuple[ArchiveReport, ...]

    @property
    def archived(self) -> int:
        return sum(len(r.items) for r in self.reports)


def archive_job(runtime: Runtime, now: dt.datetime, *, dry_run: bool = False, users: int = 100) -> ArchiveRun:
    """The scheduled form: every user with current facts or episodes (up to ``users`` per run)."""
    with runtime.db.connection() as conn:
        found = consolidation.users_with_current(conn, users)
    return ArchiveRun(tuple(archive_user(runtime, u, now, dry_run=dry_run) for u in found))


__all__ = [
    "ACTOR",
    "ArchiveReport",
    "ArchiveRun",
    "Archived",
    "archive_job",
    "archive_user",
    "memory_weight",
    "restore",
    "tau_days",
    "weight",
]
