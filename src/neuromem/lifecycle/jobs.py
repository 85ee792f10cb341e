"""The scheduled jobs of seed 000 §5.2, runnable one by one (``memctl job --run NAME``) or by the scheduler.

=====================  ==============  ===============================================
name                   default period  what it does
=====================  ==============  ===============================================
refresh_mv_trait       30 min          REFRESH MATERIALIZED VIEW CONCURRENTLY
expire_trends          1 day           trends past their window, under-reinforced → dissolved
dissolve_weak_traits   1 week          decayed confidence < 0.05 → dissolved
flush_access_counts    5 min           buffered recall access counts → ``memories``
consistency_check      1 day           counts orphaned evidence / history / sources
end_idle_sessions      1 min           sessions idle past ``ingest.session_idle_timeout_s`` → ended
                                       (the session-end signal of reflection, issue 3 §1)
backfill_embeddings    1 min           rows written without a vector → embedded
promote_tiers          6 h             facts / episodes short → mid → long (``lifecycle.tiers``, seed 003 §6.2)
compress_episodes      1 day           episodes older than 90 days, recalled < 5 times → summaries, originals
                                       archived (``lifecycle.compress``, seed 004 §2.2)
purge_soft_deleted     1 day           rows soft-deleted longer than ``lifecycle.soft_delete_retention_days``
                                       → hard-deleted with a receipt (``lifecycle.purge``, issue 16)
consolidate_concepts   1 day           related memories → concept nodes linked by ABOUT (``lifecycle.concepts``)
archive_low_weight     1 day           memories / nodes under the seed 003 §6.1 weight → archived (``lifecycle.archive``)
enforce_retention      1 day           rows past a per-type / per-category TTL → hard-deleted with a receipt
                                       (``lifecycle.retention``; off until a TTL is set)
=====================  ==============  ===============================================
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .. import validation as check
from ..errors import InvalidInputError
from ..store import maintenance
from .archive import archive_job
from .backfill import backfill_embeddings
from .compress import compress_job
from .concepts import concepts_job
from .purge import purge_soft_deleted
from .retention import enforce_retention
from .tiers import promote_job

if TYPE_CHECKING:
    from ..ingest.pipeline import IngestPipeline
    from ..reflect.service import ReflectionService


@dataclass(frozen=True, slots=True)
class JobContext:
    """What jobs run against: the reflection service (which holds the core) and the ingest pipeline."""

    service: ReflectionService
    ingest: IngestPipeline


@dataclass(frozen=True, slots=True)
class Job:
    name: str
    period_s: float
    run: Callable[[ReflectionService, dt.datetime], Any]
    description: str
    needs_ingest: bool = False


def _flush_access(service: ReflectionService, now: dt.datetime) -> int:
    """Seed 000 §5.2 task 4: write the recall access counts buffered by ``recall.access.AccessTracker``
    (and the +0.02 reinforcement of recalled traits); returns the memory rows updated."""
    return service.core.access.flush()


def _end_idle_sessions(context: JobContext, now: dt.datetime) -> int:
    """End sessions idle past the timeout; each end notifies the listeners (reflection's trigger)."""
    return len(context.ingest.end_idle_sessions(now=now))


JOBS: dict[str, Job] = {
    j.name: j
    for j in (
        Job("refresh_mv_trait", 1800, lambda s, now: maintenance.refresh_trait_view(s.core.db),
            "refresh mv_trait_decayed concurrently"),
        Job("expire_trends", 86400, lambda s, now: maintenance.expire_trends(s.core.db, now, s.core.settings.traits),
            "dissolve trends whose window ended without enough reinforcement"),
        Job("dissolve_weak_traits", 7 * 86400,
            lambda s, now: maintenance.dissolve_weak_traits(s.core.db, now, s.core.settings.traits),
            "dissolve traits whose decayed confidence is below the floor"),
        Job("flush_access_counts", 300, _flush_access, "write buffered recall access counts"),
        Job("consistency_check", 86400, lambda s, now: maintenance.consistency_check(s.core.db),
            "count orphaned evidence, history, sources and lineage"),
        Job("end_idle_sessions", 60, _end_idle_sessions, "end sessions idle past the timeout", needs_ingest=True),
        Job("backfill_embeddings", 60, lambda s, now: backfill_embeddings(s.core),
            "embed rows written without a vector"),
        Job("promote_tiers", 6 * 3600, lambda s, now: promote_job(s.core, now),
            "move facts and episodes to the mid and long tiers"),
        Job("compress_episodes", 86400, lambda s, now: compress_job(s.core, now),
            "summarise old, rarely recalled episodes; originals archived"),
        Job("purge_soft_deleted", 86400, lambda s, now: purge_soft_deleted(s.core, now),
            "hard-delete rows soft-deleted past the retention, with a receipt"),
        Job("consolidate_concepts", 86400, lambda s, now: concepts_job(s.core, now), "cluster memories into concepts"),
        Job("archive_low_weight", 86400, lambda s, now: archive_job(s.core, now), "archive low-weight memories and nodes"),
        Job("enforce_retention", 86400, lambda s, now: enforce_retention(s.core, now), "delete rows past their TTL"),
    )
}  # fmt: skip


def run_job(name: str, context: JobContext, *, now: Any = None) -> Any:
    """Run the job called ``name`` once; ``now`` (default: the wall clock) is its clock."""
    job = JOBS.get(name)
    if job is None:
        raise InvalidInputError(f"no job named {name!r}; known: {', '.join(JOBS)}")
    when = check.timestamp(now, "now") if now is not None else dt.datetime.now(dt.UTC)
    assert when is not None
    return job.run(context if job.needs_ingest else context.service, when)  # type: ignore[arg-type]
