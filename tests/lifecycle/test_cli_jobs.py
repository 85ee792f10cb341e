"""``memctl traits`` / ``trait`` / ``job`` against a real database, and the job registry."""

from __future__ import annotations

import datetime as dt

import pytest
from click.testing import CliRunner

from neuromem import Memory, Settings
from neuromem.cli.main import cli
from neuromem.errors import InvalidInputError
from tests.reflect.helpers import day, say


def _env(settings: Settings) -> dict[str, str]:
    return {
        "NEUROMEM_DATABASE_URL": settings.store.database_url.get_secret_value(),
        "NEUROMEM_EMBEDDER": "hashing",
        "NEUROMEM_EMBEDDER__DIM": "64",
        "NEUROMEM_EMBEDDING_DIM": "64",
    }


def test_cli_shows_traits_and_one_trait_and_runs_jobs(memory: Memory, settings: Settings) -> None:
    for i in range(3):
        say(memory, "cli", day(i), [f"jogging by the lake {i}"], session=f"s{i}")
    [trait_id] = memory.reflect(user_id="cli", now=day(3)).created_ids
    runner = CliRunner()
    out = runner.invoke(cli, ["traits", "--user-id", "cli"], env=_env(settings))
    assert out.exit_code == 0, out.output
    assert "Behaviour patterns:" in out.output and "jogging" in out.output
    out = runner.invoke(cli, ["trait", str(trait_id), "--user-id", "cli"], env=_env(settings))
    assert out.exit_code == 0, out.output
    assert "supporting evidence (3)" in out.output and "ADD by reflection" in out.output
    out = runner.invoke(cli, ["job", "--run", "consistency_check"], env=_env(settings))
    assert out.exit_code == 0 and "trait_evidence_without_trait': 0" in out.output


def test_jobs_expire_trends_and_dissolve_weak_traits(memory: Memory) -> None:
    say(memory, "j", day(0), ["looked at sailing boats"], session="a")
    say(memory, "j", day(1), ["read about sailing courses"], session="b")
    memory.reflect(user_id="j", now=day(1.5))
    assert memory.run_job("expire_trends", now=day(10)) == 0
    assert memory.run_job("expire_trends", now=day(40)) == 1
    for i in range(3):
        say(memory, "j", day(2 + i), [f"knitting a scarf {i}"], session=f"k{i}")
    memory.reflect(user_id="j", now=day(5))
    assert memory.run_job("dissolve_weak_traits", now=day(6)) == 0
    assert memory.run_job("dissolve_weak_traits", now=day(2000)) == 1
    memory.run_job("refresh_mv_trait")
    with pytest.raises(InvalidInputError):
        memory.run_job("no_such_job")


def test_end_idle_sessions_job_ends_them_and_backfill_job_embeds(memory: Memory) -> None:
    t0 = dt.datetime(2024, 5, 1, 9, 0, tzinfo=dt.UTC)
    memory.ingest(
        [{"role": "user", "content": "I moved to Lisbon last month.", "timestamp": t0.isoformat()}],
        user_id="idle",
        session_id="s1",
    )
    ended = []
    memory.on_session_end(ended.append)
    assert memory.run_job("end_idle_sessions", now=t0 + dt.timedelta(minutes=5)) == 0  # still active
    assert memory.run_job("end_idle_sessions", now=t0 + dt.timedelta(hours=1)) == 1
    assert [e.user_id for e in ended] == ["idle"]
    assert memory.run_job("end_idle_sessions", now=t0 + dt.timedelta(hours=2)) == 0  # already ended
    assert memory.run_job("backfill_embeddings") == 0  # everything was embedded on write
