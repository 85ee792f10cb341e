"""Knapsack packing: never over budget, pinned first, grouped as seed 001 §6.2."""

from __future__ import annotations

import datetime as dt
import uuid

from hypothesis import given, settings
from hypothesis import strategies as st

from neuromem.recall.packing import compress_rule_based, group, knapsack, make_items, pack
from neuromem.text.token_count import count_tokens
from neuromem.types import MemoryRecord, MemoryType, ScoreBreakdown, SearchHit

NOW = dt.datetime(2025, 1, 1, tzinfo=dt.UTC)


def _hit(i: int, content: str, score: float, **kw: object) -> SearchHit:
    rec = MemoryRecord(
        id=uuid.UUID(int=i),
        user_id="u",
        memory_type=kw.pop("memory_type", MemoryType.FACT),  # type: ignore[arg-type]
        content=content,
        created_at=NOW,
        **kw,
    )  # type: ignore[arg-type]
    return SearchHit(rec, ScoreBreakdown(score, 0, 0, 0, score))


def test_knapsack_by_value_per_token() -> None:
    # budget 10: greedy by ratio takes items 1 (3/2) and 2 (4/4) → value 7; item 0 alone (6, cost 9) is worse
    assert knapsack([6.0, 3.0, 4.0], [9, 2, 4], 10) == [1, 2]
    # one big valuable item beats the greedy pick
    assert knapsack([10.0, 1.0], [10, 1], 10) == [0]
    assert knapsack([1.0], [5], 4) == []


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.floats(0.01, 10), st.integers(1, 50)), max_size=20), st.integers(0, 120))
def test_knapsack_never_exceeds_the_budget(items: list[tuple[float, int]], budget: int) -> None:
    chosen = knapsack([v for v, _ in items], [c for _, c in items], budget)
    assert sum(items[i][1] for i in chosen) <= budget
    assert len(set(chosen)) == len(chosen)


def test_pinned_first_and_sections_in_seed_order() -> None:
    hits = [
        _hit(1, "went hiking on Saturday", 0.9, memory_type=MemoryType.EPISODIC),
        _hit(2, "以后用中文回答", 0.01, category="preference"),
        _hit(
            3, "values honesty", 0.5, memory_type=MemoryType.TRAIT, trait_subtype="core", trait_stage="core"
        ),
        _hit(4, "checks email every morning", 0.4, memory_type=MemoryType.TRAIT, trait_subtype="behavior"),
    ]
    items = make_items(hits, pinned=frozenset({uuid.UUID(int=2)}), max_item_tokens=80, line_cost=4)
    chosen = pack(items, budget=40)
    assert any(i.hit.memory.id == uuid.UUID(int=2) for i in chosen)
    assert sum(i.tokens for i in chosen) <= 40
    assert list(group(items)) == ["core", "preference", "behavior", "recalled"]


def test_rule_compression_keeps_leading_sentences_within_limit() -> None:
    text = "First we met at the cafe. Then we walked along the river for hours. " * 10
    short = compress_rule_based(text, 20)
    assert count_tokens(short) <= 20 and short.startswith("First we met at the cafe.") and short.endswith("…")
    assert compress_rule_based("short one", 20) == "short one"


def test_pack_fills_the_budget_by_marginal_value_and_skips_repeats() -> None:
    hits = [
        _hit(1, "Jane moved to Lisbon last spring with her two cats", 3.0),
        _hit(2, "Jane moved to Lisbon", 2.9),  # nothing new once hit 1 is in
        _hit(3, "The dentist appointment is on Friday", 1.0),
        _hit(4, "Pinned: the locker code is 4412", 0.0),
    ]
    items = make_items(hits, pinned=frozenset({uuid.UUID(int=4)}), max_item_tokens=80, line_cost=3)
    chosen = pack(items, 200, pinned_share=0.25)
    assert [i.hit.memory.id.int for i in chosen] == [4, 1, 3]
    # a pinned line beyond its share of the budget stays out; the evidence still goes in
    small = pack(items, 30, pinned_share=0.1)
    assert 4 not in [i.hit.memory.id.int for i in small] and small


def test_long_passages_keep_the_sentences_with_the_query_words() -> None:
    from neuromem.recall.packing import focus_passage

    text = (
        "We drove for hours. The weather was grey. At the market I finally bought the Leica lens. "
        "Then we had dinner. Everyone was tired."
    )
    out = focus_passage(text, ["leica", "lens"], 18)
    assert "Leica lens" in out and out.startswith("…") and count_tokens(out) <= 18
    assert "weather" not in out
