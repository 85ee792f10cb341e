"""The ``flush_access_counts`` job writes the access counts recall buffered (seed 000 §5.2 task 4)."""

from __future__ import annotations

from neuromem import Memory, Settings


def test_flush_access_counts_job_writes_buffered_recall_hits(settings: Settings) -> None:
    quiet = settings.with_updates(
        recall={"access_flush_interval_s": 3600, "access_flush_max_pending": 10_000}
    )
    with Memory(quiet) as m:
        [written] = m.add("Alice keeps bees on her balcony", user_id="ann")
        m.add("Alice drinks oolong tea", user_id="ann")
        assert m.run_job("flush_access_counts") == 0  # nothing buffered yet
        hits = m.search("bees on the balcony", user_id="ann", limit=5)
        recalled = {h.memory.id for h in hits}
        assert written.memory.id in recalled
        assert m.runtime.access.pending == len(recalled)
        assert m.get(written.memory.id, user_id="ann").access_count == 0  # still only in the buffer
        assert m.run_job("flush_access_counts") == len(recalled)
        record = m.get(written.memory.id, user_id="ann")
        assert record.access_count == 1 and record.last_accessed_at is not None
        assert m.runtime.access.pending == 0 and m.run_job("flush_access_counts") == 0
