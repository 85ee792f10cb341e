"""Reflection triggers of seed 001 §4.5 at an injected clock, and the ingest hook end to end."""

from __future__ import annotations

from neuromem import Memory
from neuromem.reflect.math import TriggerType
from neuromem.reflect.triggers import due
from neuromem.store import traits as trait_store

from .helpers import day, say

U = "tina"


def _cycles(memory: Memory, user: str = U) -> list[dict]:
    with memory.runtime.db.connection() as conn:
        return trait_store.cycles(conn, user)


def test_accumulated_importance_reaching_the_threshold_triggers(memory: Memory) -> None:
    # 0–1 importance ×10 on the seed's scale: five memories at 0.5 make 25, the sixth makes 30
    for i in range(5):
        say(memory, U, day(0), [f"note number {i} about the garden"], importance=0.5)
    decision = due(memory.runtime.db, U, day(0.1))
    assert decision.trigger is None and decision.accumulated == 25.0
    say(memory, U, day(0), ["one more note about the roses"], importance=0.5)
    decision = due(memory.runtime.db, U, day(0.1))
    assert (decision.trigger, decision.value) == (TriggerType.IMPORTANCE_ACCUMULATED, 30.0)


def test_a_day_since_the_last_reflection_triggers_when_there_is_something_new(memory: Memory) -> None:
    say(memory, U, day(0), ["visited the bakery"])
    memory.reflect(user_id=U, now=day(0))
    assert due(memory.runtime.db, U, day(3)).trigger is None  # 72 h, but nothing new to scan
    say(memory, U, day(0.5), ["bought sourdough bread"])
    assert due(memory.runtime.db, U, day(0.99)).trigger is None
    decision = due(memory.runtime.db, U, day(1))
    assert (decision.trigger, decision.value) == (TriggerType.SCHEDULED, 24.0)


def test_session_end_triggers_and_nothing_else_does(memory: Memory) -> None:
    say(memory, U, day(0), ["watched a documentary about whales"])
    quiet = due(memory.runtime.db, U, day(0.2))
    assert quiet.trigger is None and quiet.hours_since_last == 0.0  # never reflected: no schedule yet
    assert due(memory.runtime.db, U, day(0.2), session_ended=True).trigger is TriggerType.SESSION_END
    memory.reflect(user_id=U, now=day(0.2))
    assert due(memory.runtime.db, U, day(0.3), session_ended=True).trigger is None  # nothing new since


def test_maybe_reflect_queues_a_background_cycle(memory: Memory) -> None:
    say(memory, U, day(0), ["planted tomatoes"], session="g1")
    assert memory.maybe_reflect(user_id=U, now=day(0.1)) is None
    assert memory.maybe_reflect(user_id=U, now=day(0.1), session_ended=True) is TriggerType.SESSION_END
    assert memory._reflection.queue.join(30)
    [cycle] = _cycles(memory)
    assert (cycle["trigger_type"], cycle["status"]) == ("session_end", "completed")
    assert cycle["details"]["now"] == day(0.1).isoformat()


def test_ingest_then_session_end_records_a_cycle_off_the_request_path(memory: Memory) -> None:
    t = day(0)
    messages = [
        {
            "role": "user",
            "content": "I moved to Berlin last May and I work at Siemens as an engineer.",
            "timestamp": t,
        },
        {"role": "user", "content": "我周末喜欢去公园跑步，跑完喝一杯咖啡。", "timestamp": day(0.01)},
    ]
    report = memory.ingest(messages, user_id=U, session_id="chat-1")
    assert report.results  # facts/episodes with importance were written
    assert memory._reflection.queue.join(30)
    assert _cycles(memory) == []  # the batch alone fires no trigger (little importance, no session end)
    memory.end_session(user_id=U, session_id="chat-1")
    assert memory._reflection.queue.join(30)
    [cycle] = _cycles(memory)
    assert (cycle["trigger_type"], cycle["status"]) == ("session_end", "completed")
    assert cycle["memories_scanned"] == len([r for r in report.results if r.memory.memory_type != "trait"])
    # the cycle ran at the conversation's clock (its latest message), not the wall clock
    assert cycle["details"]["now"] == day(0.01).isoformat()
    with memory.runtime.db.connection() as conn:
        row = conn.execute(
            "SELECT last_reflected_at FROM conversation_sessions WHERE user_id = %s", (U,)
        ).fetchone()
    assert row["last_reflected_at"] == day(0.01)
    assert memory._reflection.queue.errors == []


def test_reflect_on_ingest_can_be_switched_off(settings) -> None:  # type: ignore[no-untyped-def]
    with Memory(settings.with_updates(traits={"reflect_on_ingest": False})) as m:
        m.ingest(
            [{"role": "user", "content": "I work at Siemens in Berlin.", "timestamp": day(0)}],
            user_id=U,
            session_id="c",
        )
        m.end_session(user_id=U, session_id="c")
        assert "_reflection" not in m.__dict__  # nothing was scheduled
