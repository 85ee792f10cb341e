"""Upkeep without a worker (issue 27 item 1): ``Memory(background_jobs=True)`` runs the job registry on
its schedule in a background thread — the 24 h reflection sweep included, at a moved clock — once
per tick even with two such processes, and ``status()`` reports overdue jobs when nothing runs them."""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Callable
from typing import Any

import psycopg
import pytest

from neuromem import Memory, Settings
from neuromem.errors import InvalidInputError
from neuromem.store import traits as stored_traits

RUNS = (
    "I run along the river every morning",
    "I ran along the river before work today",
    "Went running by the river again this morning",
)


def _cycles(memory: Memory, user_id: str) -> list[dict[str, Any]]:
    with memory.runtime.db.connection() as conn:
        return stored_traits.cycles(conn, user_id)


def _until(check: Callable[[], bool], what: str, timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, what
        time.sleep(0.1)


def _sweep_clock(added: dt.datetime) -> dt.datetime:
    """A minute after the first hourly sweep tick (``40 * * * *``) that is past the 24 h fallback."""
    at = (added + dt.timedelta(hours=25)).replace(minute=41, second=0, microsecond=0)
    return at if at > added + dt.timedelta(hours=24, minutes=1) else at + dt.timedelta(hours=1)


def _move_clock(*memories: Memory, to: dt.datetime) -> None:
    """Set the runtime's clock (what the scheduler reads) and wait for a poll at that clock."""
    for memory in memories:
        memory.runtime.clock = lambda: to
        assert memory._jobs.scheduler is not None
        memory._jobs.scheduler.poke()
    for memory in memories:
        _until(
            lambda m=memory: m._jobs.scheduler is not None and m._jobs.scheduler.polled_at == to,
            "no poll ran",
        )


def test_background_jobs_reflect_after_the_24h_sweep_with_no_worker(settings: Settings) -> None:
    quiet = settings.with_updates(traits={"reflect_on_ingest": False})
    with Memory(quiet, background_jobs=True) as m:
        for text in RUNS:
            m.add(text, user_id="lib")
        m.flush()
        added = m.get_all(user_id="lib")[0].created_at
        assert _cycles(m, "lib") == [] and m.traits(user_id="lib").all() == ()
        _move_clock(m, to=added + dt.timedelta(hours=23))
        assert _cycles(m, "lib") == []  # not yet: the fallback is 24 h
        _move_clock(m, to=_sweep_clock(added))
        [cycle] = _cycles(m, "lib")
        assert cycle["status"] == "completed" and cycle["trigger_type"] == "scheduled"
        traits = m.traits(user_id="lib", now=_sweep_clock(added)).all()
        assert traits and any("river" in t.content or "run" in t.content for t in traits)
        assert m.status().overdue_jobs == ()  # every job's latest tick ran


def test_two_processes_with_background_jobs_run_one_tick_once(settings: Settings) -> None:
    quiet = settings.with_updates(traits={"reflect_on_ingest": False})
    with Memory(quiet, background_jobs=True) as a, Memory(quiet, background_jobs=True) as b:
        for text in RUNS:
            a.add(text, user_id="two")
        a.flush()
        _move_clock(a, b, to=_sweep_clock(a.get_all(user_id="two")[0].created_at))
        assert len(_cycles(a, "two")) == 1  # the queue ran the sweep's tick once


def test_a_new_store_has_no_overdue_jobs(memory: Memory) -> None:
    """A tick due before the store was laid out was never missed: a first ``memctl demo`` warns of nothing."""
    assert memory.status().overdue_jobs == ()


def test_status_warns_of_overdue_jobs_when_nothing_runs_them(
    memory: Memory, memctl: Any, caplog: pytest.LogCaptureFixture
) -> None:
    with psycopg.connect(memory.settings.store.database_url.get_secret_value()) as conn:  # a store 3 days old
        conn.execute("UPDATE neuromem_migrations SET applied_at = applied_at - interval '3 days'")
    late = memory.status().overdue_jobs
    assert {"reflection_sweep", "purge_soft_deleted", "backfill_embeddings"} <= set(late)
    assert "overdue" in caplog.text
    out = memctl("status")
    assert out.exit_code == 0 and "overdue jobs: " in out.output and "reflection_sweep" in out.output


def test_background_jobs_must_be_a_boolean(settings: Settings) -> None:
    with pytest.raises(InvalidInputError, match="background_jobs"):
        Memory(settings, background_jobs="yes")  # type: ignore[arg-type]
