"""Issue 22 item 7: traits formed from a dated history live on the history's own clock.

Four weeks of dated habits from 2024, imported today, formed traits at their event time; a manual
``reflect`` (the wall clock) a moment later dissolved them: their trend windows had "ended" two
years ago and behaviour decay counted those two years as silence. Decay and trend windows now
measure event time against the history's clock (``neuromem_history_clock``, migration 0016).
"""

from __future__ import annotations

import datetime as dt

import psycopg

from neuromem import Memory

from .helpers import day, say

U = "habits"
START = dt.datetime(2024, 5, 6, 7, 30, tzinfo=dt.UTC)
JOG = [
    "I went jogging in the park before work this morning.",
    "Another jogging session along the river today, 5 km.",
    "Jogging again at dawn, my legs feel stronger.",
    "Did my usual jogging loop around the lake.",
    "Early jogging with a friend, then a cold shower.",
    "Rainy jogging this morning but I still did it.",
    "Jogging before breakfast is becoming routine.",
    "Short jogging run today, knee felt fine.",
]
TEA = [
    "I drank a matcha latte at the cafe after lunch.",
    "Had matcha again in the afternoon at the office.",
    "Afternoon matcha break with colleagues.",
    "Tried a new matcha place near the station.",
    "Matcha after lunch keeps me focused.",
    "Iced matcha today because it was hot.",
    "Matcha with oat milk this afternoon.",
]


def _import_four_weeks(memory: Memory) -> None:
    for n, d in enumerate(range(0, 28, 2)):
        when = START + dt.timedelta(days=d)
        messages = [
            {"role": "user", "content": JOG[n % len(JOG)], "timestamp": when.isoformat()},
            {
                "role": "user",
                "content": TEA[n % len(TEA)],
                "timestamp": (when + dt.timedelta(hours=5)).isoformat(),
            },
        ]
        memory.ingest(messages, user_id=U, session_id=f"2024-week-{d}")
        memory.end_session(user_id=U, session_id=f"2024-week-{d}")
    assert memory._reflection.queue.join(60)


def _alive(memory: Memory, now: dt.datetime | None = None) -> dict[str, str]:
    return {
        t.content: str(t.trait_stage)
        for t in memory.traits(user_id=U, now=now).all()
        if t.trait_stage != "dissolved"
    }


def test_a_manual_reflect_after_importing_dated_habits_keeps_their_traits(memory: Memory) -> None:
    _import_four_weeks(memory)
    formed = _alive(memory)
    assert len(formed) >= 2 and any("jogging" in t for t in formed) and any("matcha" in t for t in formed)

    report = memory.reflect(user_id=U)  # the wall clock, two years after the last event

    assert report.dissolved == 0
    assert _alive(memory) == formed
    # the scheduled jobs read the same clock
    assert memory.run_job("expire_trends") == 0
    assert memory.run_job("dissolve_weak_traits") == 0
    assert _alive(memory) == formed


def test_the_history_clock_moves_with_the_wall_clock_after_the_import(memory: Memory) -> None:
    _import_four_weeks(memory)
    formed = _alive(memory)
    assert formed
    # the same history, imported two months ago: two months of silence since, on its own clock
    with psycopg.connect(memory.settings.store.database_url.get_secret_value()) as conn:  # type: ignore[union-attr]
        conn.execute(
            "UPDATE conversation_messages SET created_at = created_at - interval '60 days' WHERE user_id = %s",
            (U,),
        )
    report = memory.reflect(user_id=U)
    assert report.dissolved >= 1  # the trends' 30-day windows ended on the history's clock too
    assert len(_alive(memory)) < len(formed)


def test_an_explicit_clock_is_a_replay_and_is_taken_as_given(memory: Memory) -> None:
    _import_four_weeks(memory)
    assert _alive(memory)
    memory.reflect(user_id=U, now=START + dt.timedelta(days=400))  # a replay, a year after the last event
    assert _alive(memory, START + dt.timedelta(days=400)) == {}


def test_recall_decays_a_dated_historys_traits_on_its_own_clock(memory: Memory) -> None:
    for n, text in enumerate(
        [
            "I went jogging in the park this morning",
            "Another jogging session along the river today",
            "jogging again before breakfast, felt great",
        ]
    ):
        say(memory, U, day(n), [text], session=f"s{n}")
    memory.reflect(user_id=U, now=day(2.5))  # a behaviour at 0.4, from 2025 (over a year and a half ago)
    hits = memory.search("jogging", user_id=U, limit=10)
    traits = [h for h in hits if h.memory.memory_type.value == "trait"]
    assert (
        traits and "traits" in traits[0].score.ranks
    )  # at the wall clock it had decayed to 0.02, under the floor
