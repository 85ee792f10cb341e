"""A pooled connection prepares a statement on its second run (``store.db.PREPARE_AFTER_RUNS``), not psycopg's
sixth: the pool hands its connections out in turn, so a started service would plan each statement of recall
again on every connection for its first requests (``bench.proxy``, docs/benchmarks.md, session 15)."""

from __future__ import annotations

from neuromem import Memory
from neuromem.store.db import PREPARE_AFTER_RUNS

PREPARED = "SELECT count(*) AS n FROM pg_prepared_statements WHERE statement LIKE %s"
PROBE = "SELECT count(*) FROM memories WHERE user_id = %s AND content = %s"


def test_a_statement_is_prepared_on_its_second_run(memory: Memory) -> None:
    assert PREPARE_AFTER_RUNS == 1
    with memory.runtime.db.connection() as conn:
        conn.execute(PROBE, ("nobody", "first")).fetchall()
        assert conn.execute(PREPARED, ("%content = $2%",)).fetchone()["n"] == 0  # one run: not yet
        conn.execute(PROBE, ("nobody", "second")).fetchall()
        assert conn.execute(PREPARED, ("%content = $2%",)).fetchone()["n"] == 1  # two runs: prepared


def test_a_text_of_several_statements_still_runs_every_time(memory: Memory) -> None:
    # psycopg learns from its first run that the text holds two statements, and never prepares it
    with memory.runtime.db.connection() as conn:
        for _ in range(3):
            conn.execute("SET LOCAL statement_timeout = '5s'; SET LOCAL lock_timeout = '5s'")
        assert conn.execute("SHOW lock_timeout").fetchone()["lock_timeout"] == "5s"
