"""Tiers short → mid → long and the promoter (seed 003 §6.2)."""

from __future__ import annotations

import datetime as dt

from neuromem import Memory
from neuromem.config import LifecycleSettings
from neuromem.lifecycle.tiers import next_tier

U = "alice"


def test_next_tier_rules() -> None:
    s = LifecycleSettings()
    assert next_tier("short", 1, 0, 1, 1, 0.5, s) == "short"
    assert next_tier("short", 8, 0, 1, 1, 0.5, s) == "mid"  # 7 days old
    assert next_tier("short", 1, 3, 1, 1, 0.5, s) == "mid"  # the topic came back 3 times
    assert next_tier("mid", 9, 0, 3, 1, 0.5, s) == "mid"  # one source only
    assert next_tier("mid", 9, 0, 2, 2, 0.5, s) == "mid"  # two repetitions
    assert next_tier("mid", 9, 0, 4, 2, 0.5, s) == "long"  # 1 − e^−2 = 0.86 ≥ 0.8
    assert next_tier("mid", 9, 0, 3, 3, 0.5, s) == "mid"  # 1 − e^−1.5 = 0.78 < 0.8
    assert next_tier("mid", 9, 0, 3, 3, 0.9, s) == "long"  # important enough
    assert next_tier("long", 0, 0, 0, 0, 0.0, s) == "long"  # never demoted


def test_promoter_moves_repeated_knowledge_to_long_term(memory: Memory, memctl) -> None:  # type: ignore[no-untyped-def]
    t0 = dt.datetime(2025, 3, 1, 9, tzinfo=dt.UTC)
    for day, session in enumerate(("s1", "s2", "s3", "s4")):
        memory.ingest([{"role": "user", "content": "I work at Initech.",
                        "timestamp": (t0 + dt.timedelta(days=day)).isoformat()}], user_id=U, session_id=session)  # fmt: skip
    [once] = memory.add("I visited Lisbon once", user_id=U)
    [fact] = [m for m in memory.get_all(user_id=U) if "Initech" in m.content]
    now = dt.datetime.now(dt.UTC)
    out = memctl("promote", "-u", U, "--now", (now + dt.timedelta(days=10)).isoformat(), "--dry-run")
    assert out.exit_code == 0 and "would move" in out.output
    assert "tier" not in memory.get(fact.id, user_id=U).metadata  # a dry run changes nothing
    moves = {p.memory_id: p.after for p in memory.promote(user_id=U, now=now + dt.timedelta(days=10))}
    assert moves[fact.id] == "long" and moves[once.memory.id] == "mid"
    assert memory.get(fact.id, user_id=U).metadata["tier"] == "long"
    assert memory.history(fact.id, user_id=U)[-1].actor == "consolidate:promote"
    assert memory.promote(user_id=U, now=now + dt.timedelta(days=10)) == []  # idempotent
