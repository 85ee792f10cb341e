"""Archive of low-weight memories and nodes (seed 003 §6.1 weight, §6.4 archive)."""

from __future__ import annotations

import datetime as dt
import io

import pytest

from neuromem import Memory
from neuromem.config import LifecycleSettings
from neuromem.errors import MemoryNotFoundError
from neuromem.lifecycle.archive import weight
from neuromem.store import graph

U = "archivist"
S = LifecycleSettings()


def test_weight_follows_the_seed_terms() -> None:
    fresh = weight(0.5, 0, 0, 90, S)
    assert fresh == pytest.approx(0.3 * 0.5 + 0.5)
    assert weight(0.5, 0, 90, 90, S) == pytest.approx(0.15 + 0.5 / 2.718281828, rel=1e-6)
    assert weight(0.2, 0, 3 * 90, 90, S) < S.archive_threshold < weight(0.2, 0, 90, 90, S)
    assert weight(0.5, 0, 10_000, 90, S) > S.archive_threshold  # default importance: never archived
    assert weight(0.5, 10, 10_000, 90, S) == pytest.approx(0.15 + 0.2)  # recalled often: kept forever
    assert weight(0.9, 0, 10_000, 14, S) > S.archive_threshold  # important: kept forever
    assert weight(0.5, 0, 60, 14, S) < weight(0.5, 0, 60, 90, S)  # episodes fade faster than facts


def test_archive_takes_stale_rows_out_of_recall_keeps_them_and_restores(memory: Memory, memctl) -> None:  # type: ignore[no-untyped-def]
    [stale] = memory.add("Zoe once owned a blue bicycle", user_id=U, importance=0.2)
    [kept] = memory.add("Zoe is allergic to peanuts", user_id=U)
    [pinned] = memory.add("Zoe's locker code is 4471", user_id=U)
    memory.pin(pinned.memory.id, user_id=U)
    later = dt.datetime.now(dt.UTC) + dt.timedelta(days=400)

    out = memctl("archive", "-u", U, "--now", later.isoformat(), "--dry-run")
    assert out.exit_code == 0 and "would archive 1 memories" in out.output, out.output
    assert memory.get(stale.memory.id, user_id=U).archived_at is None  # a dry run changes nothing

    report = memory.archive(user_id=U, now=later)
    assert [i.id for i in report.items if i.kind == "memory"] == [stale.memory.id]
    row = memory.get(stale.memory.id, user_id=U)
    assert row.archived_at is not None and row.expired_at is not None and row.superseded_by is None
    assert stale.memory.id not in {m.id for m in memory.get_all(user_id=U)}
    assert stale.memory.id in {m.id for m in memory.get_all(user_id=U, include_inactive=True)}
    assert all(h.memory.id != stale.memory.id for h in memory.search("blue bicycle", user_id=U))
    assert memory.history(stale.memory.id, user_id=U)[-1].event == "ARCHIVE"
    assert memory.history(stale.memory.id, user_id=U)[-1].actor == "consolidate:archive"
    assert {m.id for m in memory.get_all(user_id=U)} == {kept.memory.id, pinned.memory.id}

    # never purged (it is not a soft delete), still exported
    purge = memory.run_job("purge_soft_deleted", now=later + dt.timedelta(days=365))
    assert purge.memories == 0 and memory.get(stale.memory.id, user_id=U).archived_at is not None
    buffer = io.StringIO()
    memory.export(buffer, user_id=U, format="jsonl")
    assert "blue bicycle" in buffer.getvalue()

    restored = memory.restore(stale.memory.id, user_id=U)
    assert restored.archived_at is None and restored.expired_at is None
    assert memory.history(stale.memory.id, user_id=U)[-1].event == "RESTORE"
    assert any(h.memory.id == stale.memory.id for h in memory.search("blue bicycle", user_id=U))
    with pytest.raises(MemoryNotFoundError):
        memory.restore(kept.memory.id, user_id=U)  # not archived


def test_orphaned_stale_nodes_are_archived_and_come_back_when_mentioned(memory: Memory) -> None:
    memory.ingest([{"role": "user", "content": "I visited Reykjavik with Olaf."}], user_id=U, session_id="s1")
    for m in memory.get_all(user_id=U):
        memory.delete(m.id, user_id=U)  # the nodes lose every current memory
    later = dt.datetime.now(dt.UTC) + dt.timedelta(days=400)
    report = memory.archive(user_id=U, now=later)
    nodes = [i for i in report.items if i.kind == "node"]
    assert nodes and all(not i.label.startswith(("user:", "raw_chunk:")) for i in nodes)
    assert memory.archive(user_id=U, now=later).nodes == 0  # archived once
    assert "reykjavik" not in _node_names(memory)
    memory.ingest(
        [{"role": "user", "content": "Next summer I will visit Reykjavik with my sister."}],
        user_id=U,
        session_id="s2",
    )
    assert "reykjavik" in _node_names(memory)  # a new mention brings the archived node back


def _node_names(memory: Memory) -> set[str]:
    with memory.runtime.db.connection() as conn:
        return {n["name"].lower() for n in graph.nodes(conn, U)}
