"""Two writers on one memory: optimistic locking lets exactly one win (seed 000 §5.5)."""

from __future__ import annotations

import threading

from neuromem import Memory
from neuromem.errors import VersionConflictError


def test_two_concurrent_updates_one_wins_one_conflicts(memory: Memory) -> None:
    rec = memory.add("Erin's team uses Go for services", user_id="erin")[0].memory
    barrier = threading.Barrier(2)
    outcomes: list[object] = []

    def writer(text: str) -> None:
        barrier.wait()
        try:
            outcomes.append(memory.update(rec.id, user_id="erin", content=text, expected_version=rec.version))
        except VersionConflictError as exc:
            outcomes.append(exc)

    threads = [
        threading.Thread(target=writer, args=(t,)) for t in ("Erin's team uses Rust", "Erin's team uses Zig")
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    winners = [o for o in outcomes if not isinstance(o, Exception)]
    losers = [o for o in outcomes if isinstance(o, VersionConflictError)]
    assert len(winners) == 1 and len(losers) == 1
    current = memory.get_all(user_id="erin")
    assert [m.content for m in current] == [winners[0].content]  # type: ignore[attr-defined]
    assert current[0].version == 2


def test_concurrent_identical_adds_store_one_row(memory: Memory) -> None:
    barrier = threading.Barrier(4)

    def add() -> None:
        barrier.wait()
        memory.add("Frank's birthday is on 3 March", user_id="frank")

    threads = [threading.Thread(target=add) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(memory.get_all(user_id="frank")) == 1
