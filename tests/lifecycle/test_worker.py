"""The job queue (issue 13 item 3): procrastinate workers on the test database, the reflection
sweep, dry runs. Workers are real procrastinate workers (``wait=False``: they stop once the
queue is empty), each with its own connector, as two processes would be."""

from __future__ import annotations

import asyncio
import datetime as dt
import threading
import time
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from click.testing import CliRunner
from procrastinate.periodic import PeriodicDeferrer

from neuromem import Memory, Settings
from neuromem.cli.main import cli
from neuromem.errors import InvalidInputError
from neuromem.lifecycle.jobs import JOBS, Job, JobContext
from neuromem.lifecycle.worker import QUEUE, build_app, defer, task_name
from neuromem.store import traits as stored_traits
from tests.lifecycle.test_cli_jobs import _env

YEARLY = "0 0 1 1 *"  # a schedule whose tick the periodic deferrer will not meet in a test


@pytest.fixture
def quick_retry(settings: Settings) -> Iterator[Memory]:
    """A memory whose failing jobs are retried at once, twice in all."""
    with Memory(settings.with_updates(lifecycle={"job_max_attempts": 2, "job_retry_wait_s": 0})) as m:
        yield m


def _context(memory: Memory) -> JobContext:
    return JobContext(memory.runtime, memory._reflection, memory._ingest)


def _url(memory: Memory) -> str:
    return memory.runtime.db.server.url


async def _work(*apps: Any) -> None:
    """Run one worker per app at once until the queue is empty."""

    async def one(app: Any, n: int) -> None:
        async with app.open_async():
            await app.run_worker_async(
                queues=[QUEUE],
                wait=False,
                install_signal_handlers=False,
                listen_notify=False,
                name=f"w{n}",
                fetch_job_polling_interval=0.05,
            )

    await asyncio.gather(*(one(app, n) for n, app in enumerate(apps)))


def _jobs_table(memory: Memory) -> list[tuple[str, str, int]]:
    with psycopg.connect(_url(memory)) as conn:
        rows = conn.execute(
            "SELECT task_name, status::text, attempts FROM procrastinate_jobs ORDER BY id"
        ).fetchall()
    return [(r[0], r[1], r[2]) for r in rows]


def test_every_registered_job_is_a_periodic_task(memory: Memory) -> None:
    app = build_app(_context(memory), _url(memory))
    periodic = {p.periodic_id: p.cron for p in app.periodic_registry.periodic_tasks.values()}
    assert periodic == {name: job.cron for name, job in JOBS.items()}
    assert {
        "reflection_sweep",
        "purge_soft_deleted",
        "compress_episodes",
        "consolidate_concepts",
        "backfill_embeddings",
        "expire_trends",
        "dissolve_weak_traits",
        "flush_access_counts",
        "consistency_check",
        "refresh_mv_trait",
    } <= set(periodic)
    for job in JOBS.values():
        assert app.tasks[task_name(job.name)].queueing_lock == job.name
        assert app.tasks[task_name(job.name)].lock == job.name


def test_two_workers_run_one_tick_of_a_job_once(memory: Memory) -> None:
    runs: list[dt.datetime] = []
    guard = threading.Lock()
    running = [0, 0]  # now, most at once

    def slow(context: JobContext, now: dt.datetime, dry: bool) -> int:
        with guard:
            running[0] += 1
            running[1] = max(running[1], running[0])
        time.sleep(0.3)
        with guard:
            running[0] -= 1
            runs.append(now)
        return len(runs)

    jobs = {"tick": Job("tick", YEARLY, slow, "test job")}
    apps = [build_app(_context(memory), _url(memory), jobs=jobs) for _ in range(2)]
    tick = 1_767_225_600  # 2026-01-01T00:00Z, a tick of YEARLY

    async def both_deferrers_then_both_workers() -> list[int | None]:
        ids = []
        for app in apps:  # each worker's periodic deferrer sees the same tick
            async with app.open_async():
                periodic = next(iter(app.periodic_registry.periodic_tasks.values()))
                deferrer = periodic.task.configure(task_kwargs={"timestamp": tick})
                ids.append(
                    await deferrer.job_manager.defer_periodic_job(
                        job=deferrer.job, periodic_id="tick", defer_timestamp=tick
                    )
                )
        await _work(*apps)
        return ids

    ids = asyncio.run(both_deferrers_then_both_workers())
    assert ids[0] is not None and ids[1] is None  # the database kept one job for the tick
    assert runs == [dt.datetime.fromtimestamp(tick, dt.UTC)]  # run once, with the tick as its clock
    # a job already waiting is not queued again (queueing lock); the lock keeps one at a time
    with apps[0].open():
        assert defer(apps[0], "tick") is not None
        assert defer(apps[0], "tick") is None
    asyncio.run(_work(*apps))
    assert len(runs) == 2 and running[1] == 1
    assert [(s, n) for _, s, n in _jobs_table(memory)] == [("succeeded", 1), ("succeeded", 1)]


def test_a_failing_job_is_retried_and_recorded_and_the_others_run(quick_retry: Memory) -> None:
    memory = quick_retry
    calls: dict[str, int] = {"boom": 0, "ok": 0}

    def boom(context: JobContext, now: dt.datetime, dry: bool) -> None:
        calls["boom"] += 1
        raise RuntimeError("the disk is on fire")

    def ok(context: JobContext, now: dt.datetime, dry: bool) -> int:
        calls["ok"] += 1
        return 1

    jobs = {"boom": Job("boom", YEARLY, boom, "fails"), "ok": Job("ok", YEARLY, ok, "works")}
    app = build_app(_context(memory), _url(memory), jobs=jobs)
    with app.open():
        defer(app, "boom")
        defer(app, "ok")
    asyncio.run(_work(app))
    assert calls == {"boom": 2, "ok": 1}  # two attempts (lifecycle.job_max_attempts), the other ran
    assert _jobs_table(memory) == [(task_name("boom"), "failed", 2), (task_name("ok"), "succeeded", 1)]
    with psycopg.connect(_url(memory)) as conn:
        events = [
            r[0] for r in conn.execute("SELECT type::text FROM procrastinate_events ORDER BY id").fetchall()
        ]
    assert events.count("failed") == 1 and "scheduled" in events  # the retry was scheduled


def test_real_jobs_are_deferred_on_their_schedule_and_run(memory: Memory) -> None:
    memory.add("I keep bees on the roof", user_id="q")
    app = build_app(_context(memory), _url(memory))

    async def tick_now() -> None:  # what each worker's periodic deferrer does at a tick
        async with app.open_async():
            deferrer = PeriodicDeferrer(registry=app.periodic_registry)
            await deferrer.defer_jobs(deferrer.get_previous_tasks(time.time()))

    asyncio.run(tick_now())
    waiting = {n for n, s, _ in _jobs_table(memory) if s == "todo"}
    assert {task_name("end_idle_sessions"), task_name("backfill_embeddings")} <= waiting  # every minute
    asyncio.run(_work(app))
    rows = _jobs_table(memory)
    assert {n for n, _, _ in rows} >= waiting and {s for _, s, _ in rows} == {"succeeded"}


# --------------------------------------------------------------------------- the reflection sweep


def _cycles(memory: Memory, user_id: str) -> list[dict[str, Any]]:
    with memory.runtime.db.connection() as conn:
        return stored_traits.cycles(conn, user_id)


def test_memories_added_without_ingest_are_reflected_by_the_sweep(memory: Memory) -> None:
    """Seed 001 §4.5's 24 h fallback: ``add`` raises no ingest hook, the sweep reflects anyway."""
    for text in (
        "I run along the river every morning",
        "I ran along the river before work today",
        "Went running by the river again this morning",
    ):
        memory.add(text, user_id="adder")
    memory.flush()
    added = memory.get_all(user_id="adder")[0].created_at
    assert _cycles(memory, "adder") == []
    assert memory.run_job("reflection_sweep", now=added + dt.timedelta(hours=23)) == {}  # not yet
    preview = memory.run_job("reflection_sweep", now=added + dt.timedelta(hours=25), dry_run=True)
    assert preview == {"adder": "scheduled"} and _cycles(memory, "adder") == []
    done = memory.run_job("reflection_sweep", now=added + dt.timedelta(hours=25))
    assert done == {"adder": "scheduled"}
    [cycle] = _cycles(memory, "adder")
    assert cycle["status"] == "completed" and cycle["trigger_type"] == "scheduled"
    assert cycle["memories_scanned"] == 3
    # nothing new since: the next sweep leaves the user alone
    assert memory.run_job("reflection_sweep", now=added + dt.timedelta(hours=60)) == {}


# --------------------------------------------------------------------------- dry runs


def test_dry_runs_change_nothing_and_jobs_without_one_refuse(memory: Memory, settings: Settings) -> None:
    with pytest.raises(InvalidInputError, match="no dry run"):
        memory.run_job("refresh_mv_trait", dry_run=True)
    assert memory.run_job("dissolve_weak_traits", dry_run=True) == 0
    out = CliRunner().invoke(cli, ["job", "--run", "expire_trends", "--dry-run"], env=_env(settings))
    assert out.exit_code == 0 and "expire_trends (dry run): 0" in out.output, out.output
    out = CliRunner().invoke(cli, ["job", "--run", "flush_access_counts", "--dry-run"], env=_env(settings))
    assert out.exit_code != 0 and "no dry run" in out.output
    out = CliRunner().invoke(cli, ["worker", "--list"], env=_env(settings))
    assert out.exit_code == 0 and "reflection_sweep" in out.output and "40 * * * *" in out.output


def test_run_worker_runs_queued_jobs_and_deletes_the_successes(memory: Memory) -> None:
    """``memctl worker``'s entry point (``neuromem.admin.run_worker``), stopping once the queue is empty."""
    from neuromem.admin import run_worker

    app = build_app(_context(memory), _url(memory))
    with app.open():
        assert defer(app, "consistency_check") is not None
    run_worker(memory, wait=False)
    rows = _jobs_table(memory)
    assert task_name("consistency_check") not in {n for n, _, _ in rows}  # ran and succeeded: deleted
    assert "failed" not in {s for _, s, _ in rows}
