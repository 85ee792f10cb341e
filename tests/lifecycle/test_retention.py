"""Retention (issue 16): per-type and per-category TTL, off by default, enforced with receipts."""

from __future__ import annotations

import datetime as dt

import pytest

from neuromem import Memory
from neuromem.config import LifecycleSettings, Settings
from neuromem.errors import ConfigError, MemoryNotFoundError

U = "retainer"


def test_ttl_settings_are_validated() -> None:
    assert (
        LifecycleSettings().retention_days_by_type == {}
        and LifecycleSettings().retention_days_by_category == {}
    )
    with pytest.raises((ConfigError, ValueError)):
        Settings().with_updates(lifecycle={"retention_days_by_type": {"trait": 3}})
    with pytest.raises((ConfigError, ValueError)):
        Settings().with_updates(lifecycle={"retention_days_by_category": {"task": 0}})


def test_retention_deletes_expired_types_and_categories_with_receipts(settings: Settings) -> None:
    ttl = settings.with_updates(
        lifecycle={"retention_days_by_type": {"episodic": 30}, "retention_days_by_category": {"task": 7}}
    )
    with Memory(settings) as off:
        [ep] = off.add("We talked about the weather in Oslo", user_id=U, memory_type="episodic")
        assert off.enforce_retention(now=dt.datetime.now(dt.UTC) + dt.timedelta(days=400)).results == ()
    with Memory(ttl) as m:
        [task] = m.add("Send the invoice to Acme", user_id=U, category="task")
        [fact] = m.add("Yuki lives in Sapporo", user_id=U)
        later = dt.datetime.now(dt.UTC) + dt.timedelta(days=10)
        preview = m.enforce_retention(now=later, dry_run=True)
        assert preview.memories == 1 and m.get(task.memory.id, user_id=U)  # a dry run keeps everything
        done = m.enforce_retention(now=later)
        [receipt] = done.results
        assert receipt.actor == "job:retention" and receipt.target_kind == "retention"
        assert receipt.proves(task.memory.id) and not receipt.proves(ep.memory.id)
        assert {r.id for r in m.get_all(user_id=U)} == {ep.memory.id, fact.memory.id}
        job = m.run_job("enforce_retention", now=later + dt.timedelta(days=30))
        assert job.memories == 1 and {r.id for r in m.get_all(user_id=U)} == {fact.memory.id}
        assert all(h.memory.id != ep.memory.id for h in m.search("weather in Oslo", user_id=U))
        with pytest.raises(MemoryNotFoundError):  # gone; only a content-free FORGET tombstone is left
            m.history(ep.memory.id, user_id=U)
