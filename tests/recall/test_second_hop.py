"""The second hop (issue 14 item 3): expansion terms from the first hits, time anchors dated by them."""

from __future__ import annotations

import datetime as dt

from neuromem import Memory
from neuromem.recall.hop import anchor_window, expansion_terms, parse_anchor
from neuromem.recall.recipes import derive, get_recipe

T0 = dt.datetime(2024, 6, 10, 12, tzinfo=dt.UTC)


def test_anchor_phrases_and_windows() -> None:
    assert parse_anchor("What did I buy the week before the trip to Kyoto?") == ("the trip to Kyoto", -1, 7)
    assert parse_anchor("where did I eat two days after the conference") == ("the conference", 1, 2)
    assert parse_anchor("what changed after I moved to Porto?") == ("I moved to Porto", 1, 0)
    assert parse_anchor("what is my cat called?") is None
    seeds = [("I love ramen", None), ("Our trip to Kyoto starts on Monday", T0)]
    window = anchor_window(
        "What did I buy the week before the trip to Kyoto?", seeds, T0 + dt.timedelta(days=30)
    )
    assert (
        window is not None
        and window.end == T0.replace(hour=0)
        and window.start == window.end - dt.timedelta(days=7)
    )
    assert anchor_window("what did I buy the week before the wedding?", seeds, T0) is None  # no dated match


def test_expansion_terms_are_the_seeds_new_words() -> None:
    terms = expansion_terms(
        ["workshop"], ["The pottery workshop with Rachel", "Rachel signed me up for pottery"], 3
    )
    assert terms[:2] == ["pottery", "rachel"] and "workshop" not in terms


def test_second_hop_finds_the_piece_the_question_does_not_name(memory: Memory) -> None:
    memory.add("I signed up for the pottery workshop with Rachel", user_id="h", valid_at=T0)
    memory.add("Rachel's kiln cracked so the glazing class moved to Thursday", user_id="h", valid_at=T0)
    for i in range(12):
        memory.add(f"Unrelated note {i} about groceries and the bus timetable", user_id="h")
    question = "what happened with the pottery workshop?"
    # BM25 alone, so that nothing but words can find it: without the hop the kiln is out of reach
    assert not any("kiln" in h.memory.content for h in memory.search(question, user_id="h", recipe="bm25"))
    hop = derive(get_recipe("bm25"), "hop", second_hop=True)
    results = memory.search(question, user_id="h", recipe=hop, trace=True, limit=3)
    assert results.trace["paths"]["bm25_hop"] == "ran"
    assert "rachel" in results.trace["stages"]["second_hop"]["terms"]
    assert any("kiln" in h.memory.content for h in results)
