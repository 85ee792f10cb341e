"""The prompt block uses its budget (issue 14 item 2): filled by marginal value, pinned lines bounded and
only when they bear on the question, turn lines with date, speaker and the line a short reply answered."""

from __future__ import annotations

import datetime as dt

import pytest

from neuromem import Memory
from neuromem import memory as memory_module
from neuromem.errors import StoreError
from neuromem.text.token_count import count_tokens

T0 = dt.datetime(2024, 3, 1, 9, 0, tzinfo=dt.UTC)
TOPICS = ["sailing", "harbour", "boats", "regatta", "knots", "mast", "keel", "wind", "tide", "anchor"]
NAMES = [
    "Ana",
    "Bruno",
    "Chloe",
    "Dmitri",
    "Esme",
    "Farid",
    "Greta",
    "Hiro",
    "Ines",
    "Jonas",
    "Kemal",
    "Lena",
]
PLACES = ["Porto", "Faro", "Braga", "Sines", "Nazare", "Peniche", "Cascais", "Lagos"]


def _chat(memory: Memory, user: str) -> None:
    for s in range(12):
        turns = []
        for i in range(4):
            a, b = TOPICS[(s + i) % 10], TOPICS[(s * 3 + i) % 10]
            turns.append(
                {
                    "role": "user",
                    "timestamp": T0 + dt.timedelta(days=s, minutes=2 * i),
                    "content": f"{NAMES[s]} and I talked about {a} and {b} in {PLACES[i]}, pier {s * 10 + i}.",
                }
            )
            turns.append(
                {
                    "role": "assistant",
                    "timestamp": T0 + dt.timedelta(days=s, minutes=2 * i + 1),
                    "content": f"Noted what {NAMES[s]} said about {a} in {PLACES[i + 4]}; the {b} plan looks fine.",
                }
            )
        memory.ingest(turns, user_id=user, session_id=f"s{s}")


def test_a_larger_budget_holds_more_evidence(memory: Memory) -> None:
    _chat(memory, "sea")
    blocks = {
        b: memory.recall_prompt("sailing boats at the pier", user_id="sea", token_budget=b)
        for b in (200, 500, 2000)
    }
    lines = {b: len(block.lines) for b, block in blocks.items()}
    assert lines[200] < lines[500] < lines[2000]
    assert lines[2000] > 30  # no fixed line count
    for b, block in blocks.items():
        assert count_tokens(block.text) <= b
    assert blocks[500].tokens > 0.8 * 500  # the budget is used
    # a turn's line says when and who
    assert any(
        line.text.startswith("[2024-03-") and " assistant] " in line.text for line in blocks[2000].lines
    )


def test_pinned_lines_are_bounded_and_preferences_must_bear_on_the_question(memory: Memory) -> None:
    memory.add("以后用中文回答", user_id="p", category="preference")
    memory.add("I prefer window seats on long flights", user_id="p", category="preference")
    memory.add("I like my coffee black", user_id="p", category="preference")
    for i in range(30):
        rec = memory.add(f"Pinned reminder {i}: the locker code is {1000 + i}", user_id="p")[0].memory
        memory.pin(rec.id, user_id="p")
    memory.add("The dentist appointment is on Friday at noon", user_id="p")
    # BM25 alone: the 64-d hashing vectors of the tests would rank anything above the mean
    block = memory.recall_prompt(
        "when is the dentist appointment?", user_id="p", token_budget=400, recipe="bm25"
    )
    assert "dentist" in block.text
    assert "以后用中文回答" in block.text  # how to answer bears on every question
    assert "window seats" not in block.text and "coffee" not in block.text  # other preferences do not
    pinned = [line for line in block.lines if "Pinned reminder" in line.text]
    assert pinned and sum(count_tokens(line.text) for line in pinned) <= 0.25 * 400
    flights = memory.recall_prompt(
        "which seat do I like on flights?", user_id="p", token_budget=400, recipe="bm25"
    )
    assert "window seats" in flights.text


def test_a_short_reply_comes_with_the_line_it_answered(memory: Memory) -> None:
    memory.ingest(
        [
            {
                "role": "assistant",
                "content": "Should we book the Alfama fado restaurant for Saturday?",
                "timestamp": T0,
            },
            {"role": "user", "content": "Yes, book it!", "timestamp": T0 + dt.timedelta(minutes=1)},
        ],
        user_id="r",
        session_id="s",
    )
    block = memory.recall_prompt("book it yes", user_id="r", token_budget=300)
    line = next(line for line in block.lines if "Yes, book it!" in line.text)
    assert "(after assistant:" in line.text and "Alfama" in line.text


def test_a_question_the_user_answered_is_shown_on_the_answer_s_line_only(memory: Memory) -> None:
    memory.ingest(
        [
            {"role": "user", "content": "My dentist is Dr Huang.", "timestamp": T0},
            {
                "role": "assistant",
                "content": "Are you still seeing Dr Huang for your teeth?",
                "timestamp": T0 + dt.timedelta(minutes=1),
            },
            {
                "role": "user",
                "content": "Not any more, I switched to Dr Lin because her practice is next to my office.",
                "timestamp": T0 + dt.timedelta(minutes=2),
            },
        ],
        user_id="q",
        session_id="s",
    )
    memory.flush()
    block = memory.recall_prompt("Who is my dentist now, Dr Huang or Dr Lin?", user_id="q", token_budget=400)
    answer = next(line for line in block.lines if "switched to Dr Lin" in line.text)
    assert (
        '(after assistant: "Are you still seeing Dr Huang' in answer.text
    )  # a long answer, with its question
    assert not [line for line in block.lines if line.text.startswith("Are you still")]
    assert not [line for line in block.lines if "still seeing" in line.text and line is not answer]


def test_a_store_of_one_connection_still_builds_the_block(settings) -> None:  # type: ignore[no-untyped-def]
    """The pinned lines are read on recall's own connection while the question is embedded: a pool of one
    connection builds the block (no second checkout to wait for), pinned line and all."""
    with Memory(settings.with_updates(store={"pool_min_size": 1, "pool_max_size": 1})) as m:
        m.add("以后用中文回答", user_id="one", category="preference")
        m.add("The dentist appointment is on Friday at noon", user_id="one")
        block = m.recall_prompt(
            "when is the dentist appointment?", user_id="one", token_budget=400, recipe="bm25"
        )
    assert "dentist" in block.text and "以后用中文回答" in block.text


def test_a_failing_read_of_the_pinned_lines_leaves_the_block_without_them(
    memory: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pinned lines are read first on recall's connection (under a service request's scope, in it); when
    that read fails, recall goes on, the block comes without pinned lines and the trace says why."""
    memory.add("以后用中文回答", user_id="pins", category="preference")
    memory.add("The dentist appointment is on Friday at noon", user_id="pins")
    question = "when is the dentist appointment?"
    assert "以后用中文回答" in memory.recall_prompt(question, user_id="pins", token_budget=400).text

    def broken(*_args: object, **_kwargs: object) -> None:
        raise StoreError("the pinned lines could not be read")

    monkeypatch.setattr(memory_module, "pinned_candidates", broken)
    block = memory.recall_prompt(question, user_id="pins", token_budget=400)
    assert "dentist" in block.text and "以后用中文回答" not in block.text
    assert block.results.trace["paths"]["first"].startswith("failed: StoreError")
