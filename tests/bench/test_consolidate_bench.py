"""bench.consolidate (issue 27 item 3): the engine never sees an ``answer_…`` label, recall is scored on
the hashed evidence sessions."""

from __future__ import annotations

import datetime as dt

from bench.consolidate import run
from bench.datasets import LMEQuestion, LMESession, LMETurn
from bench.evidence import hidden

from neuromem import Memory, Settings

START = dt.datetime(2023, 1, 2, 9, tzinfo=dt.UTC)


def _session(sid: str, day: int, texts: list[str], answer: bool) -> LMESession:
    turns = tuple(LMETurn(f"{sid}_{i + 1}", i + 1, "user", t, answer) for i, t in enumerate(texts))
    return LMESession(sid, START + dt.timedelta(days=day), turns, answer)


def _question() -> LMEQuestion:
    evidence = _session(
        "answer_ab12_1",
        0,
        ["I adopted a beagle called Biscuit last week.", "Biscuit loves the park near the river."],
        True,
    )
    fillers = [
        _session(
            f"filler_{n}",
            10 + n,
            [f"We talked about the weather on day {n}.", f"Then I cooked pasta number {n} for dinner."],
            False,
        )
        for n in range(3)
    ]
    sessions = (evidence, *fillers)
    return LMEQuestion(
        "q1",
        "single-session-user",
        "What is my beagle called?",
        START + dt.timedelta(days=200),
        "Biscuit",
        ("answer_ab12_1",),
        sessions,
    )


def test_run_hides_labels_and_scores_on_hashed_sessions(settings: Settings) -> None:
    with Memory(settings.with_updates(traits={"reflect_on_ingest": False})) as memory:  # as bench_settings
        _check(memory)


def _check(memory: Memory) -> None:
    outcome = run(_question(), "heldout", memory, "lme0", months=0)
    with memory.runtime.db.connection() as conn:
        seen = [
            r["external_id"]
            for r in conn.execute(
                "SELECT external_id FROM conversation_sessions WHERE user_id = 'lme0'"
            ).fetchall()
        ]
    assert seen and not any("answer" in s or "filler" in s for s in seen)
    assert hidden("answer_ab12_1") in seen
    assert outcome.any_hit == (True, True) and outcome.all_hit == (True, True)
    assert outcome.answer == (1.0, 1.0)  # "Biscuit" is in the hits' text
    assert outcome.rows[0] >= outcome.rows[1] > 0 and outcome.tokens[0] >= outcome.tokens[1] > 0
