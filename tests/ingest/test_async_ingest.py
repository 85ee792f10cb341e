"""Ingest that does not block (issue 27 item 2): ``ingest(wait=False)``, ``job_status``, and a
runner killed mid-job (kill -9) whose batch a later process completes, nothing lost or doubled."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from typing import Any

import psycopg
import pytest

from neuromem import Memory, Settings
from neuromem.errors import InvalidInputError, InvalidScopeError, InvalidTurnError, JobNotFoundError
from tests.fakes.hung_server import HungServer


def _session(n: int = 20) -> list[dict[str, Any]]:
    return [
        {
            "role": "user" if i % 2 == 0 else "assistant",
            "content": f"I visited museum number {i} in Lisbon and loved the tiles"
            if i % 2 == 0
            else f"Noted, museum {i}.",
            "timestamp": f"2026-03-01T10:{i:02d}:00Z",
        }
        for i in range(n)
    ]


def _wait_done(memory: Memory, job_id: Any, user_id: str, timeout: float = 60) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job = memory.job_status(job_id, user_id=user_id)
        if job.status in ("done", "failed"):
            return job
        time.sleep(0.05)
    raise AssertionError(f"job {job_id} still {job.status}")


def _rows(settings: Settings, sql: str) -> Any:
    assert settings.store.database_url is not None
    with psycopg.connect(settings.store.database_url.get_secret_value()) as conn:
        return conn.execute(sql).fetchall()


def test_wait_false_queues_returns_a_job_and_the_job_thread_writes_what_ingest_would(
    settings: Settings,
) -> None:
    with Memory(settings) as m:
        job = m.ingest(_session(), user_id="ana", session_id="s1", wait=False)
        assert job.status == "queued" and job.user_id == "ana" and job.session_id == "s1"
        done = _wait_done(m, job.id, "ana")
        assert done.status == "done" and done.error is None and done.attempts == 1
        assert done.result["turns"] == 20 and done.result["skipped"] == 0
        assert done.finished_at is not None and done.started_at is not None
        stored = {str(r.id) for r in m.get_all(user_id="ana")}
        assert stored and set(done.result["memory_ids"]) <= stored
    with Memory(settings) as again:  # the same batch waited for: every turn already there
        report = again.ingest(_session(), user_id="ana", session_id="s1")
        assert report.turns == 0 and report.skipped == 20


def test_a_queued_batch_carries_its_scope_to_the_memories_it_writes(memory: Memory) -> None:
    job = memory.ingest(
        _session(4),
        user_id="ana",
        session_id="s1",
        agent_id="planner",
        run_id="r1",
        visibility="team",
        team_id="eng",
        wait=False,
    )
    done = _wait_done(memory, job.id, "ana")
    assert done.status == "done" and done.result["memory_ids"]
    written = [memory.get(i, user_id="ana") for i in done.result["memory_ids"]]
    assert {(r.agent_id, r.run_id, r.visibility, r.team_id) for r in written} == {
        ("planner", "r1", "team", "eng")
    }
    private = memory.ingest(_session(2), user_id="ana", session_id="s2", agent_id="planner", wait=False)
    ids = set(_wait_done(memory, private.id, "ana").result["memory_ids"])
    assert ids and not ids & {
        str(r.id) for r in memory.get_all(user_id="ana", agent_id="coder")
    }  # planner's own


def test_close_waits_for_the_queued_jobs(settings: Settings) -> None:
    m = Memory(settings)
    jobs = [m.ingest(_session(4), user_id="bo", session_id=f"s{i}", wait=False) for i in range(3)]
    m.close()
    assert _rows(settings, "SELECT status FROM ingest_jobs ORDER BY created_at") == [("done",)] * 3
    with Memory(settings) as m2:
        assert [m2.job_status(j.id, user_id="bo").status for j in jobs] == ["done"] * 3


def test_bad_batches_are_refused_at_once_and_store_nothing(memory: Memory) -> None:
    with pytest.raises(InvalidTurnError):
        memory.ingest([{"role": "robot", "content": "hi"}], user_id="ana", wait=False)
    with pytest.raises(InvalidInputError):
        memory.ingest(_session(2), user_id="ana", wait="no")  # type: ignore[call-overload]
    with pytest.raises(InvalidInputError):
        memory.ingest(
            [{"role": "user", "content": "hi", "metadata": {"x": object()}}], user_id="ana", wait=False
        )
    with pytest.raises(InvalidScopeError):  # a bad scope is refused before anything is queued
        memory.ingest(_session(2), user_id="ana", agent_id="planner", visibility="team", wait=False)
    assert _rows(memory.settings, "SELECT count(*) FROM ingest_jobs") == [(0,)]
    with pytest.raises(JobNotFoundError):
        memory.job_status("0190a3c4-0000-7000-8000-000000000000", user_id="ana")
    job = memory.ingest(_session(2), user_id="ana", wait=False)
    with pytest.raises(JobNotFoundError):  # another user's job is not found, not shown
        memory.job_status(job.id, user_id="eve")


def test_a_job_run_twice_stores_nothing_twice(memory: Memory) -> None:
    job = memory.ingest(_session(), user_id="ana", wait=False)
    _wait_done(memory, job.id, "ana")
    before = _rows(memory.settings, "SELECT count(*) FROM conversation_messages")
    memories_before = len(memory.get_all(user_id="ana", limit=1000))
    # its commit landed but the runner died before recording it: the job is queued again
    with psycopg.connect(memory.settings.store.database_url.get_secret_value()) as conn:  # type: ignore[union-attr]
        conn.execute("UPDATE ingest_jobs SET status = 'queued', result = NULL, finished_at = NULL")
    assert memory.run_job("run_ingest_jobs") == 1
    again = memory.job_status(job.id, user_id="ana")
    assert again.status == "done" and again.attempts == 2 and again.result["skipped"] == 20
    assert _rows(memory.settings, "SELECT count(*) FROM conversation_messages") == before == [(20,)]
    assert len(memory.get_all(user_id="ana", limit=1000)) == memories_before


_CHILD = textwrap.dedent("""
    import sys, time
    from neuromem import Memory, Settings
    url, llm = sys.argv[1], sys.argv[2]
    settings = Settings.model_validate({
        "store": {"embedding_dim": 64, "database_url": url}, "embedder": {"provider": "hashing", "dim": 64},
        "llm": {"base_url": llm, "api_key": "k", "timeout_s": 120, "deadline_s": 120, "max_retries": 0}})
    m = Memory(settings)
    turns = [{"role": "user", "content": f"I visited museum number {i} in Lisbon", "timestamp": f"2026-03-01T10:{i:02d}:00Z"}
             for i in range(20)]
    job = m.ingest(turns, user_id="ana", session_id="s1", wait=False)
    print(job.id, flush=True)
    time.sleep(600)  # the job thread is stuck on the hung LLM: killed before extraction ends
""")


def test_a_runner_killed_mid_job_loses_nothing(settings: Settings) -> None:
    assert settings.store.database_url is not None
    url = settings.store.database_url.get_secret_value()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    with HungServer() as hung:
        child = subprocess.Popen(
            [sys.executable, "-c", _CHILD, url, hung.base_url], stdout=subprocess.PIPE, env=env, text=True
        )
        try:
            assert child.stdout is not None
            job_id = child.stdout.readline().strip()
            with Memory(settings) as observer:
                deadline = time.monotonic() + 30
                while observer.job_status(job_id, user_id="ana").status != "running":
                    assert time.monotonic() < deadline, "the child never claimed its job"
                    time.sleep(0.05)
                while hung.accepted < 1:  # claimed first, then the extraction's request reaches the model
                    assert time.monotonic() < deadline, "the child's extraction never reached the model"
                    time.sleep(0.05)
                # extraction is under way, nothing written yet
                assert _rows(settings, "SELECT count(*) FROM conversation_messages") == [(0,)]
                child.send_signal(signal.SIGKILL)
                child.wait(30)
                deadline = time.monotonic() + 30  # the server notices the dead connection, the lock goes
                while observer.job_status(job_id, user_id="ana").status != "queued":
                    assert time.monotonic() < deadline
                    time.sleep(0.05)
        finally:
            child.kill()
            child.wait(30)
    with Memory(settings) as later:  # a later process (offline: rules) completes the job
        assert later.run_job("run_ingest_jobs") == 1
        job = later.job_status(job_id, user_id="ana")
        assert (
            job.status == "done" and job.attempts == 1 and job.result["turns"] == 20
        )  # the killed run left no trace
        contents = [r[0] for r in _rows(settings, "SELECT content FROM conversation_messages ORDER BY seq")]
        assert contents == [f"I visited museum number {i} in Lisbon" for i in range(20)]
        assert later.run_job("run_ingest_jobs") == 0


def test_a_status_probe_in_flight_does_not_hide_the_job_from_the_runner(settings: Settings) -> None:
    """A caller polling ``job_status`` while the runner claims: the probe used to take the job's row lock,
    the claim skipped the job, and the runner went idle with the job queued (seen as a CI failure)."""
    from concurrent.futures import ThreadPoolExecutor

    from neuromem.ingest.async_jobs import run_one, submit
    from neuromem.store import ingest_jobs

    with Memory(settings) as m, ThreadPoolExecutor(1) as pool:
        job = submit(m.runtime, _session(2), "ana", "s1")
        with m.runtime.db.transaction() as probe:  # a status probe, caught between its lock and its commit
            assert not ingest_jobs.is_locked(probe, job.id)
            claimed = pool.submit(run_one, m._ingest)
            time.sleep(0.3)  # the runner claims while the probe is in flight
        assert claimed.result(timeout=60) == "ana"
        assert m.job_status(job.id, user_id="ana").status == "done"
