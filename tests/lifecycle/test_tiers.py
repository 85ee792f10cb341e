"""The short / mid / long tier label of seed 003 §6.2 is dropped (issue 27 item 3; the reason and the
figures are in docs/architecture.md "Tiers"): no job writes it, so upkeep leaves a memory as it was
unless a lifecycle rule that reads something real (age, recalls, weight) changes it."""

from __future__ import annotations

import datetime as dt

import pytest

from neuromem import Memory, Settings
from neuromem.errors import InvalidInputError
from neuromem.lifecycle.jobs import JOBS

U = "alice"


def test_upkeep_writes_no_tier_and_no_new_version(memory: Memory) -> None:
    t0 = dt.datetime(2025, 3, 1, 9, tzinfo=dt.UTC)
    for day, session in enumerate(("s1", "s2", "s3", "s4")):  # repeated knowledge: the old "long" tier
        memory.ingest(
            [
                {
                    "role": "user",
                    "content": "I work at Initech.",
                    "timestamp": (t0 + dt.timedelta(days=day)).isoformat(),
                }
            ],
            user_id=U,
            session_id=session,
        )
    [once] = memory.add("I visited Lisbon once", user_id=U)
    before = {m.id: m for m in memory.get_all(user_id=U)}
    assert once.memory.id in before and len(before) == 2
    memory.runtime.clock = lambda: (
        dt.datetime.now(dt.UTC) + dt.timedelta(days=10)
    )  # the old "mid" line is 7 days
    for name in JOBS:  # every scheduled job once, at the moved clock
        memory.run_job(name, now=memory.runtime.now())
    after = {m.id: m for m in memory.get_all(user_id=U)}
    assert after.keys() == before.keys()
    for mid, record in after.items():
        assert "tier" not in record.metadata
        assert record.version == before[mid].version  # no in-place relabelling
        assert all(h.actor != "consolidate:promote" for h in memory.history(mid, user_id=U))


def test_the_tier_job_and_settings_are_gone(settings: Settings) -> None:
    assert not any("tier" in name for name in JOBS)
    with Memory(settings) as m, pytest.raises(InvalidInputError):
        m.run_job("promote_tiers")
    assert not any(name.startswith("tier_") for name in type(settings.lifecycle).model_fields)
    assert not hasattr(Memory, "promote")
