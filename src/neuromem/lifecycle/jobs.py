"""The scheduled jobs of seed 000 §5.2 and seed 001 §7: the one registry that the queue reads.

Each job is a plain function over the store, run one by one (``memctl job --run NAME
[--dry-run]``, ``Memory.run_job``, ``POST /v1/jobs/{name}/run``) or by the durable queue
(``lifecycle.worker``: ``memctl worker``), which defers every entry of :data:`JOBS` on its cron
schedule. Adding a job is adding one :class:`Job` line to the tuple below.

=====================  ============  ===============================================
name                   schedule      what it does
=====================  ============  ===============================================
refresh_mv_trait       every 30 min  REFRESH MATERIALIZED VIEW CONCURRENTLY (seed 000 §5.2 task 1)
expire_trends          daily         trends past their window, under-reinforced → dissolved
dissolve_weak_traits   weekly        decayed confidence < 0.05 → dissolved
flush_access_counts    every 5 min   buffered recall access counts → ``memories``
consistency_check      daily         counts orphaned evidence / history / sources
end_idle_sessions      every minute  sessions idle past ``ingest.session_idle_timeout_s`` → ended
                                     (the session-end signal of reflection, issue 3 §1)
backfill_embeddings    every minute  rows written without a vector → embedded
reflection_sweep       hourly        users past the 24 h fallback of seed 001 §4.5 → reflected
                                     (memories added without an ingest batch get reflected too)
compress_episodes      daily         episodes older than 90 days, recalled < 5 times → summaries, originals
                                     archived (``lifecycle.compress``, seed 004 §2.2)
purge_soft_deleted     daily         rows soft-deleted longer than ``lifecycle.soft_delete_retention_days``
                                     → hard-deleted with a receipt (``lifecycle.purge``, issue 16)
consolidate_concepts   daily         related memories → concept nodes linked by ABOUT (``lifecycle.concepts``)
archive_low_weight     daily         memories / nodes under the seed 003 §6.1 weight → archived
                                     (``lifecycle.archive``)
enforce_retention      daily         rows past a per-type / per-category TTL → hard-deleted with a receipt
                                     (``lifecycle.retention``; off until a TTL is set)
compact_forgotten      daily         relations that held forgotten rows → rewritten (VACUUM FULL), WAL
                                     retired, receipts get ``erased_at`` (``lifecycle.compaction``, issue 23)
deliver_webhooks       every minute  new events → POSTed, signed, to the registered webhooks (``lifecycle.webhooks``)
run_ingest_jobs        every minute  batches queued by ``ingest(wait=False)`` → extracted and written
                                     (``ingest.async_jobs``, issue 27 item 2)
=====================  ============  ===============================================

``dry_run`` reports what a job would change and changes nothing; a job that cannot preview
(its whole effect is the change: a view refresh, a flush of buffered counts) refuses it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..errors import InvalidInputError
from ..ingest.async_jobs import run_queued
from ..reflect import triggers
from ..store import maintenance
from .archive import archive_job
from .backfill import backfill_embeddings
from .compaction import compact_forgotten, pending_count
from .compress import compress_job
from .concepts import concepts_job
from .purge import purge_preview, purge_soft_deleted
from .retention import enforce_retention
from .webhooks import deliver_webhooks

if TYPE_CHECKING:
    from ..core import Runtime
    from ..ingest.pipeline import IngestPipeline
    from ..reflect.service import ReflectionService

#: users reflected per run of the reflection sweep (the rest wait for the next run)
SWEEP_USERS = 100


@dataclass(frozen=True, slots=True)
class JobContext:
    """What jobs run against: the runtime (pool, settings, clock), the reflection service and the
    ingest pipeline, all three over that runtime."""

    runtime: Runtime
    service: ReflectionService
    ingest: IngestPipeline


#: what a job returns: its report (a dataclass, a count, a mapping) — logged and shown, never read back
JobResult = object
Runner = Callable[[JobContext, dt.datetime, bool], JobResult]


@dataclass(frozen=True, slots=True)
class Job:
    name: str
    cron: str  # the queue's schedule (procrastinate periodic task; five fields, UTC)
    run: Runner  # (context, now, dry_run) → a report
    description: str
    previews: bool = True  # False: a dry run is refused


def _reflection_sweep(context: JobContext, now: dt.datetime, dry_run: bool) -> dict[str, str]:
    """Reflect on every user whose seed 001 §4.5 trigger holds with the 24 h fallback."""
    service = context.service
    done: dict[str, str] = {}
    for uid, decision in triggers.sweep_due(context.runtime.db, now, limit=SWEEP_USERS):
        if not dry_run:
            service.reflect(uid, now, trigger=decision.trigger or "scheduled", trigger_value=decision.value)
        done[uid] = str(decision.trigger)
    return done


JOBS: dict[str, Job] = {
    j.name: j
    for j in (
        Job(
            "refresh_mv_trait",
            "*/30 * * * *",
            lambda c, now, dry: maintenance.refresh_trait_view(c.runtime.db),
            "refresh mv_trait_decayed concurrently",
            previews=False,
        ),
        Job(
            "expire_trends",
            "10 3 * * *",
            lambda c, now, dry: maintenance.expire_trends(
                c.runtime.db, now, c.runtime.settings.traits, dry_run=dry
            ),
            "dissolve trends whose window ended without enough reinforcement",
        ),
        Job(
            "dissolve_weak_traits",
            "20 3 * * 0",
            lambda c, now, dry: maintenance.dissolve_weak_traits(
                c.runtime.db, now, c.runtime.settings.traits, dry_run=dry
            ),
            "dissolve traits whose decayed confidence is below the floor",
        ),
        Job(
            "flush_access_counts",
            "*/5 * * * *",
            lambda c, now, dry: c.runtime.access.flush(),
            "write buffered recall access counts",
            previews=False,
        ),
        Job(
            "consistency_check",
            "30 3 * * *",
            lambda c, now, dry: maintenance.consistency_check(c.runtime.db),
            "count orphaned evidence, history, sources and lineage (reads only)",
        ),
        Job(
            "end_idle_sessions",
            "* * * * *",
            lambda c, now, dry: len(c.ingest.end_idle_sessions(now=now)),
            "end sessions idle past the timeout",
            previews=False,
        ),
        Job(
            "backfill_embeddings",
            "* * * * *",
            lambda c, now, dry: backfill_embeddings(c.runtime),
            "embed rows written without a vector",
            previews=False,
        ),
        Job(
            "reflection_sweep",
            "40 * * * *",
            _reflection_sweep,
            "reflect on users past the 24 h fallback (memories added without an ingest batch)",
        ),
        Job(
            "compress_episodes",
            "0 4 * * *",
            lambda c, now, dry: compress_job(c.runtime, now, dry_run=dry),
            "summarise old, rarely recalled episodes; originals archived",
        ),
        Job(
            "purge_soft_deleted",
            "30 4 * * *",
            lambda c, now, dry: purge_preview(c.runtime, now) if dry else purge_soft_deleted(c.runtime, now),
            "hard-delete rows soft-deleted past the retention, with a receipt",
        ),
        Job(
            "consolidate_concepts",
            "0 5 * * *",
            lambda c, now, dry: concepts_job(c.runtime, now, dry_run=dry),
            "cluster related memories into concept nodes linked by ABOUT",
        ),
        Job(
            "archive_low_weight",
            "30 5 * * *",
            lambda c, now, dry: archive_job(c.runtime, now, dry_run=dry),
            "archive memories and nodes under the seed 003 §6.1 weight",
        ),
        Job(
            "enforce_retention",
            "0 6 * * *",
            lambda c, now, dry: enforce_retention(c.runtime, now, dry_run=dry),
            "hard-delete rows past their per-type / per-category TTL, with receipts",
        ),
        Job(
            "compact_forgotten",
            "0 7 * * *",
            lambda c, now, dry: pending_count(c.runtime) if dry else compact_forgotten(c.runtime),
            "rewrite the relations that held forgotten rows (VACUUM FULL) and retire the WAL",
        ),
        Job(
            "deliver_webhooks",
            "* * * * *",
            lambda c, now, dry: deliver_webhooks(c.runtime, now),
            "POST new events to the registered webhooks, signed",
            previews=False,
        ),
        Job(
            "run_ingest_jobs",
            "* * * * *",
            lambda c, now, dry: len(run_queued(c.ingest)),
            "extract and write the batches queued by ingest(wait=False)",
            previews=False,
        ),
    )
}


def get_job(name: str) -> Job:
    job = JOBS.get(name)
    if job is None:
        raise InvalidInputError(f"no job named {name!r}; known: {', '.join(JOBS)}")
    return job


def run_job(
    name: str, context: JobContext, *, now: dt.datetime | None = None, dry_run: bool = False
) -> JobResult:
    """Run the job called ``name`` once, in this process; ``now`` (default: the runtime's clock) is its clock."""
    return execute(get_job(name), context, now=now, dry_run=dry_run)


def execute(
    job: Job, context: JobContext, *, now: dt.datetime | None = None, dry_run: bool = False
) -> JobResult:
    """Run ``job`` once (what :func:`run_job` and the queue's tasks do)."""
    if dry_run and not job.previews:
        raise InvalidInputError(f"job {job.name!r} has no dry run: its only effect is the change itself")
    return job.run(context, context.runtime.now() if now is None else now, dry_run)
