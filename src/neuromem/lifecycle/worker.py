"""The durable job queue: every job of :data:`~neuromem.lifecycle.jobs.JOBS` as a procrastinate
task with its cron schedule, in the same PostgreSQL database (tables of migration 0013).

- **Once per tick, once at a time.** Every worker runs the periodic deferrer, but the database
  keeps one job per (task, scheduled tick) (``procrastinate_periodic_defers``), a task's
  ``queueing_lock`` keeps at most one of its jobs waiting, and its ``lock`` lets one job of a
  name run at a time across every worker. So two ``memctl worker`` processes never run the same
  job twice, and a slow job is not stacked up behind itself.
- **Failures stay local.** A job that raises is retried (``lifecycle.job_max_attempts`` attempts
  in all, waiting ``lifecycle.job_retry_wait_s`` seconds, then twice, three times that…); each attempt and its error are
  recorded in ``procrastinate_jobs`` / ``procrastinate_events`` and logged; the worker goes on
  with the other jobs.
- **The job's clock** is the tick it was scheduled for (``timestamp``), or the wall clock for a
  job deferred by hand (:func:`defer`).

``memctl job --run NAME`` does not go through the queue: it calls the same function in process.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import logging
from typing import Any

import procrastinate

from .jobs import JOBS, Job, JobContext, execute

log = logging.getLogger(__name__)

QUEUE = "neuromem"
TASK_PREFIX = "neuromem."


def task_name(job: str) -> str:
    return TASK_PREFIX + job


def build_app(context: JobContext, conninfo: str, *, jobs: dict[str, Job] | None = None) -> procrastinate.App:
    """A procrastinate app on ``conninfo`` with one task (and one periodic schedule) per job."""
    app = procrastinate.App(connector=procrastinate.PsycopgConnector(conninfo=conninfo))
    settings = context.runtime.settings.lifecycle
    retries = settings.job_max_attempts - 1  # procrastinate counts the retries after the first attempt
    retry: procrastinate.RetryStrategy | bool = (
        procrastinate.RetryStrategy(
            max_attempts=retries,
            wait=int(settings.job_retry_wait_s),
            linear_wait=int(settings.job_retry_wait_s),
        )
        if retries
        else False
    )
    for job in (JOBS if jobs is None else jobs).values():
        task = app.task(
            name=task_name(job.name), queue=QUEUE, lock=job.name, queueing_lock=job.name, retry=retry
        )(_runner(context, job))
        app.periodic(cron=job.cron, periodic_id=job.name)(task)
    return app


def _runner(context: JobContext, job: Job) -> Any:
    name = job.name

    def run(timestamp: int | None = None, dry_run: bool = False) -> Any:
        now = dt.datetime.fromtimestamp(timestamp, dt.UTC) if timestamp is not None else context.runtime.now()
        try:
            result = execute(job, context, now=now, dry_run=dry_run)
        except Exception:
            log.exception("job %s (clock %s) failed", name, now.isoformat())
            raise
        log.info("job %s (clock %s): %s", name, now.isoformat(), _summary(result))
        return _summary(result)

    run.__name__ = run.__qualname__ = f"run_{name}"
    return run


def _summary(result: Any) -> Any:
    """A JSON-friendly form of a job's report (procrastinate logs it; nothing else reads it)."""
    if dataclasses.is_dataclass(result) and not isinstance(result, type):
        return repr(result)[:500]
    if isinstance(result, dict | list | int | float | str | bool) or result is None:
        return result
    return repr(result)[:500]


def defer(app: procrastinate.App, name: str, *, dry_run: bool = False) -> int | None:
    """Queue ``name`` to run now on a worker; the job id, or None when one is already waiting."""
    try:
        return app.configure_task(task_name(name)).defer(dry_run=dry_run)
    except procrastinate.exceptions.AlreadyEnqueued:
        return None


def run_worker(
    context: JobContext, conninfo: str, *, concurrency: int = 1, wait: bool = True, name: str | None = None
) -> None:
    """Run a worker (with the periodic deferrer) until stopped (SIGINT/SIGTERM) or, with
    ``wait=False``, until the queue is empty."""
    app = build_app(context, conninfo)
    app.run_worker(queues=[QUEUE], concurrency=concurrency, wait=wait, name=name, delete_jobs="successful")


__all__ = ["QUEUE", "build_app", "defer", "run_worker", "task_name"]
