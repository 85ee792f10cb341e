"""Record time (``as_of``) and event time (``valid_at``) on imported history (issue 12 item 9)."""

from __future__ import annotations

import datetime as dt

from neuromem import Memory
from neuromem.store import memories

MAY_2024 = "2024-05-01T00:00:00+00:00"


def contents(records) -> list[str]:  # type: ignore[no-untyped-def]
    return sorted(r.content for r in records)


def test_imported_history_is_found_by_event_time_not_record_time(memory: Memory) -> None:
    memory.ingest(
        [
            {
                "role": "user",
                "content": "I am allergic to penicillin.",
                "timestamp": "2024-04-10T09:00:00+00:00",
            },
            {
                "role": "user",
                "content": "I started learning the cello.",
                "timestamp": "2024-06-10T09:00:00+00:00",
            },
        ],
        user_id="ana",
        session_id="history",
    )
    assert memory.get_all(user_id="ana", as_of=MAY_2024) == []  # nothing of it was known in May 2024
    in_may = contents(memory.get_all(user_id="ana", valid_at=MAY_2024))
    assert any("penicillin" in c for c in in_may) and not any("cello" in c for c in in_may)
    hits = memory.search("what is ana allergic to", user_id="ana", valid_at=MAY_2024)
    assert hits and all("cello" not in h.memory.content for h in hits)
    assert any("penicillin" in h.memory.content for h in hits)
    # both clocks: true in May 2024 as known on 1 Jan 2024 (before the import) → nothing
    assert memory.get_all(user_id="ana", valid_at=MAY_2024, as_of="2024-01-01T00:00:00+00:00") == []


def test_event_time_keeps_ended_versions_but_not_corrections_or_deletes(memory: Memory) -> None:
    moved = dt.datetime(2024, 6, 1, tzinfo=dt.UTC)
    lived = memory.add("Mei lives in Vancouver", user_id="mei", valid_at="2020-01-01T00:00:00+00:00")[
        0
    ].memory
    memory.update(lived.id, user_id="mei", content="Mei lives in Toronto", valid_at=moved, ends_previous=True)
    typo = memory.add("Mei's cat is called Mochu", user_id="mei", valid_at="2021-01-01T00:00:00+00:00")[
        0
    ].memory
    memory.update(typo.id, user_id="mei", content="Mei's cat is called Mochi")  # a correction
    gone = memory.add("Mei owns a red bicycle", user_id="mei", valid_at="2021-01-01T00:00:00+00:00")[0].memory
    memory.delete(gone.id, user_id="mei")
    assert contents(memory.get_all(user_id="mei", valid_at="2023-01-01T00:00:00+00:00")) == [
        "Mei lives in Vancouver",
        "Mei's cat is called Mochi",
    ]
    assert contents(memory.get_all(user_id="mei", valid_at="2024-07-01T00:00:00+00:00")) == [
        "Mei lives in Toronto",
        "Mei's cat is called Mochi",
    ]
    assert contents(memory.get_all(user_id="mei")) == ["Mei lives in Toronto", "Mei's cat is called Mochi"]


def test_what_was_said_just_before_is_timed_by_its_turn_not_by_the_time_it_names(memory: Memory) -> None:
    """A statement's ``valid_at`` may be a time its words name ("… is booked for Tuesday at 10", said on a Monday):
    what a correction said ten minutes later takes back is found by when its turn was sent. A memory written
    without a turn (``add``) is timed by its ``valid_at``."""
    monday = dt.datetime(2025, 6, 2, 18, 0, tzinfo=dt.UTC)
    report = memory.ingest(
        [
            {
                "role": "user",
                "content": "The electrician is booked for Tuesday at 10.",
                "timestamp": monday.isoformat(),
            }
        ],
        user_id="eli",
        session_id="s",
    )
    [booked] = [r.memory for r in report.results]
    window = dt.timedelta(hours=1)
    assert booked.valid_at is not None and abs(booked.valid_at - monday) > window  # the Tuesday it names
    [added] = memory.add("My locker code is 4471.", user_id="lee", valid_at=monday)
    with memory.runtime.db.connection() as conn:
        found = memories.said_just_before(conn, "eli", monday + dt.timedelta(minutes=10), window)
        assert found is not None and found.id == booked.id
        assert memories.said_just_before(conn, "eli", monday, window) is None  # nothing said before it
        assert memories.said_just_before(conn, "eli", monday + 2 * window, window) is None  # another sitting
        lee = memories.said_just_before(conn, "lee", monday + dt.timedelta(minutes=5), window)
        assert lee is not None and lee.id == added.memory.id
