"""Upkeep without a worker (issue 27 item 1): the in-process scheduler, and the job thread of
``ingest(wait=False)`` (item 2).

``Memory(…, background_jobs=True)`` (setting ``lifecycle.background_jobs``) runs the job registry
(:data:`~neuromem.lifecycle.jobs.JOBS`) on the same cron schedule and through the same durable queue as
``memctl worker`` (``lifecycle.worker``), from a daemon thread: every ``lifecycle.scheduler_poll_s`` it
defers the latest tick of every job that is due (the queue keeps one job per task and tick,
``procrastinate_periodic_defers``) and then works the queue until it is empty. Several processes
doing this at once — or a worker beside them — run each tick once: the queue's locks decide.
The job's clock is its tick, read from the runtime's clock (``Runtime.clock``), so a test that moves
the clock moves the schedule.

When to use which (README "Upkeep"): one long-lived process (a bot, a notebook, a small service) →
``background_jobs=True``; several processes, short-lived scripts or a deployment that wants upkeep
isolated from request threads → ``memctl worker`` (and leave ``background_jobs`` off).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import threading
from collections.abc import Callable, Mapping
from typing import Any

from croniter import croniter  # type: ignore[import-untyped]  # procrastinate's own cron parser
from procrastinate.periodic import PeriodicDeferrer

from ..core import Runtime
from ..ingest.async_jobs import IngestJob, IngestJobRunner, submit
from ..store import ingest_jobs, job_schedule
from ..store.visibility import Owner
from .jobs import JOBS, Job, JobContext
from .worker import QUEUE, TASK_PREFIX, build_app

log = logging.getLogger(__name__)


class Scheduler:
    """The cron schedule of :data:`JOBS` run by a daemon thread of this process (``start`` / ``stop``)."""

    def __init__(
        self,
        runtime: Runtime,
        context: Callable[[], JobContext],
        *,
        jobs: Mapping[str, Job] | None = None,
        name: str = "in-process",
    ) -> None:
        self.runtime = runtime
        self._context = context
        self._jobs = dict(JOBS if jobs is None else jobs)
        self._name = name
        self._poll_s = runtime.settings.lifecycle.scheduler_poll_s
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None
        self.polled_at: dt.datetime | None = None  # the clock of the last poll completed

    def start(self) -> Scheduler:
        self._thread = threading.Thread(target=self._loop, name="neuromem-scheduler", daemon=True)
        self._thread.start()
        return self

    def poke(self) -> None:
        """Poll now instead of at the next ``scheduler_poll_s``."""
        self._wake.set()

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join()

    def tick(self) -> None:
        """One poll: defer the due ticks at the runtime's clock, then run the queue until it is empty."""
        now = self.runtime.now()
        asyncio.run(self._tick(now.timestamp()))
        self.polled_at = now

    async def _tick(self, at: float) -> None:
        app = build_app(self._context(), self.runtime.db.server.url, jobs=self._jobs)
        async with app.open_async():
            # a fresh deferrer each poll: the latest tick of each job however old (a tick missed while no
            # process ran is caught up once), never a backlog of ticks; a tick already deferred is not again
            deferrer = PeriodicDeferrer(registry=app.periodic_registry, max_delay=float("inf"))
            await deferrer.defer_jobs(deferrer.get_previous_tasks(at))
            await app.run_worker_async(
                queues=[QUEUE],
                wait=False,
                install_signal_handlers=False,
                listen_notify=False,
                name=self._name,
                delete_jobs="successful",
                fetch_job_polling_interval=0.05,
            )

    def _loop(self) -> None:
        while not self._stop.is_set():
            try:
                self.tick()
            except Exception:  # the database went away a moment: the next poll tries again
                log.exception("in-process scheduler: poll failed")
            self._wake.wait(self._poll_s)
            self._wake.clear()


def overdue_jobs(runtime: Runtime, now: dt.datetime, *, jobs: Mapping[str, Job] | None = None) -> list[str]:
    """Jobs with a tick due more than ``lifecycle.job_overdue_after_s`` ago that has not run, while no
    ``memctl worker`` is alive: nothing is keeping this store up. Ticks due before the store was
    created do not count, so a new store warns of nothing. Plus ``run_ingest_jobs`` while a
    batch queued by ``ingest(wait=False)`` waits longer than that."""
    grace = runtime.settings.lifecycle.job_overdue_after_s
    with runtime.db.connection() as conn:
        ran = job_schedule.last_run_ticks(conn, TASK_PREFIX)
        waiting, oldest = ingest_jobs.queued(conn)
        worker = job_schedule.live_workers(conn, grace) > 0
        born = job_schedule.store_created(conn) or 0.0
    late = []
    for job in () if worker else (JOBS if jobs is None else jobs).values():
        due = croniter(job.cron, now.timestamp() - grace).get_prev(float)  # the latest tick past the grace
        if due > born and ran.get(job.name, 0) < due:  # a tick before the store existed was never missed
            late.append(job.name)
    if (
        waiting
        and oldest is not None
        and (now - oldest).total_seconds() > grace
        and "run_ingest_jobs" not in late
    ):
        late.append("run_ingest_jobs")
    return late


class BackgroundJobs:
    """What a ``Memory`` runs off the caller's thread: the ingest job runner (started on the first
    ``ingest(wait=False)``) and, with ``lifecycle.background_jobs``, the scheduler."""

    def __init__(
        self, runtime: Runtime, context: Callable[[], JobContext], after_ingest: Callable[[list[str]], None]
    ) -> None:
        self.runtime = runtime
        self._context = context
        self._after_ingest = after_ingest
        self._runner: IngestJobRunner | None = None
        self._lock = threading.Lock()
        self.scheduler: Scheduler | None = None
        if runtime.settings.lifecycle.background_jobs:
            self.scheduler = Scheduler(runtime, context).start()

    def submit_ingest(
        self, messages: Any, user_id: str, session: str, metadata: Any, strict: bool, owner: Owner
    ) -> IngestJob:
        job = submit(self.runtime, messages, user_id, session, metadata=metadata, strict=strict, owner=owner)
        with self._lock:
            if self._runner is None:
                self._runner = IngestJobRunner(self._context().ingest, on_done=self._after_ingest)
            self._runner.poke()
        return job

    def wait_for_ingest(self, timeout: float | None = None) -> bool:
        """Block until this process's runner has run every queued ingest job (True), or ``timeout``."""
        with self._lock:
            runner = self._runner
        return True if runner is None else runner.wait_idle(timeout)

    def stop(self) -> None:
        with self._lock:
            runner, self._runner = self._runner, None
        if runner is not None:
            runner.stop()
        if self.scheduler is not None:
            self.scheduler.stop()
