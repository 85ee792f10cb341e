"""Ingest finds value changes that need context (issue 21 item 1): a short answer takes its slot from
the assistant's question, a dated change is a fact that ends the old value, and an old fact is found
by a shared word even when the embeddings are far apart (the hashing embedder of the tests)."""

from __future__ import annotations

import datetime as dt

from neuromem import Memory

T0 = dt.datetime(2025, 5, 1, 9, 0, tzinfo=dt.UTC)


def _turn(role: str, content: str, minutes: int) -> dict[str, str]:
    return {"role": role, "content": content, "timestamp": (T0 + dt.timedelta(minutes=minutes)).isoformat()}


def _current(memory: Memory, user: str) -> list[str]:
    return [m.content for m in memory.get_all(user_id=user, limit=100)]


def test_a_short_answer_to_the_assistants_question_ends_the_old_value(memory: Memory) -> None:
    memory.ingest([_turn("user", "My home address is 4 Birch Lane.", 0)], user_id="u1", session_id="a")
    memory.ingest(
        [
            _turn("assistant", "Congratulations on the move! What's your new address?", 60 * 24),
            _turn("user", "It's 27 Quarry Road.", 60 * 24 + 1),
        ],
        user_id="u1",
        session_id="b",
    )
    current = _current(memory, "u1")
    assert "My home address is 4 Birch Lane." not in current
    assert any("27 Quarry Road" in c for c in current)
    ended = memory.get_all(user_id="u1", include_inactive=True, limit=100)
    assert [m.invalid_at is not None for m in ended if "Birch" in m.content] == [True]


def test_a_short_answer_in_chinese_and_an_unrelated_answer_kept(memory: Memory) -> None:
    memory.ingest([_turn("user", "我的车牌号是浙A11111。", 0)], user_id="u2", session_id="a")
    memory.ingest(
        [_turn("assistant", "你的新车牌号是多少？", 600), _turn("user", "浙B22222。", 601)],
        user_id="u2",
        session_id="b",
    )
    assert "我的车牌号是浙A11111。" not in _current(memory, "u2")
    # a question about another slot: the answer ends nothing
    memory.ingest([_turn("user", "My dentist is Dr. Haas.", 0)], user_id="u3", session_id="a")
    memory.ingest(
        [_turn("assistant", "What's your favourite film?", 600), _turn("user", "Paris, Texas.", 601)],
        user_id="u3",
        session_id="b",
    )
    assert "My dentist is Dr. Haas." in _current(memory, "u3")


def test_a_dated_change_is_a_fact_that_ends_the_old_value(memory: Memory) -> None:
    memory.ingest([_turn("user", "I work at Zeiss as an optician.", 0)], user_id="u4", session_id="a")
    report = memory.ingest(
        [_turn("user", "Started my new job at Leica last Monday!", 60 * 24 * 30)],
        user_id="u4",
        session_id="b",
    )
    [new] = [r for r in report.results if "Leica" in r.memory.content]
    assert new.memory.memory_type.value == "fact"
    assert "I work at Zeiss as an optician." not in _current(memory, "u4")


def test_an_old_fact_found_by_a_shared_word(memory: Memory) -> None:
    # no template reads both; the vectors of the hashing embedder are far apart; "extension" is shared
    memory.add("My desk extension is 2210.", user_id="u5", valid_at=T0)
    memory.add(
        "Facilities reassigned extensions, mine is 2298 now.",
        user_id="u5",
        valid_at=T0 + dt.timedelta(days=3),
    )
    assert "My desk extension is 2210." not in _current(memory, "u5")
