"""The full recall pipeline through the public facade, on a real PostgreSQL."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from neuromem import Memory
from neuromem.errors import InvalidInputError


def test_search_fuses_bm25_and_vector_and_names_the_retrievers(memory: Memory) -> None:
    memory.add("Alice works at Google as a data scientist", user_id="alice")
    memory.add("Bob likes hiking in the Alps", user_id="alice")
    results = memory.search("where does alice work", user_id="alice", trace=True)
    top = results[0]
    assert "Google" in top.memory.content
    assert {"bm25", "vector"} <= set(top.retrievers)
    assert top.score.final > 0 and top.score.rrf > 0
    assert results.trace["paths"]["bm25"] == "ran"
    assert results.trace["paths"]["vector"] == "ran"
    assert "bm25" in results.trace["stages"] and results.trace["timings_ms"]["total"] > 0


def test_search_is_scoped_to_the_user(memory: Memory) -> None:
    memory.add("Alice works at Google", user_id="alice")
    memory.add("Mallory works at Google too", user_id="mallory")
    results = memory.search("works at Google", user_id="alice")
    assert [h.memory.user_id for h in results] == ["alice"]


def test_chinese_query_finds_chinese_memory(memory: Memory) -> None:
    memory.add("我在北京大学读计算机专业", user_id="u")
    memory.add("周末喜欢去爬山", user_id="u")
    results = memory.search("北京大学", user_id="u", trace=True)
    assert "北京大学" in results[0].memory.content
    assert "bm25" in results[0].retrievers


def test_unknown_recipe_and_bad_trace_are_rejected(memory: Memory) -> None:
    with pytest.raises(InvalidInputError):
        memory.search("x", user_id="u", recipe="nope")
    with pytest.raises(InvalidInputError):
        memory.search("x", user_id="u", trace="yes")  # type: ignore[arg-type]


def _two_concerts(memory: Memory) -> tuple[dt.datetime, Any, Any]:
    """A reference time, a concert three months before it and one ten days before it."""
    ref = dt.datetime(2024, 6, 15, 12, tzinfo=dt.UTC)
    old = memory.add(
        "went to a concert with Sam", user_id="u", valid_at=dt.datetime(2024, 3, 2, tzinfo=dt.UTC)
    )
    new = memory.add(
        "went to a concert with Kim", user_id="u", valid_at=dt.datetime(2024, 6, 5, tzinfo=dt.UTC)
    )
    return ref, old, new


def test_time_constraint_filters_by_event_time(memory: Memory) -> None:
    ref, old, new = _two_concerts(memory)
    from neuromem.recall.recipes import HYBRID, derive

    hard = derive(HYBRID, "hard-time", time_filter=True, time_boost=0.0)
    results = memory.search(
        "which concert last week", user_id="u", reference_time=ref, recipe=hard, trace=True
    )
    ids = [h.memory.id for h in results]
    assert new[0].memory.id in ids and old[0].memory.id not in ids
    assert results.trace["stages"]["time_filter"]["applied"] is True


def test_soft_time_boost_reorders_without_removing(memory: Memory) -> None:
    from neuromem.recall.recipes import HYBRID, derive

    ref, old, new = _two_concerts(memory)
    soft = derive(HYBRID, "soft-time", time_filter=True, time_boost=1.5)
    results = memory.search(
        "which concert last week", user_id="u", reference_time=ref, recipe=soft, trace=True
    )
    ids = [h.memory.id for h in results]
    assert ids.index(new[0].memory.id) < ids.index(old[0].memory.id)  # boosted first, the other kept
    boosted = results[ids.index(new[0].memory.id)]
    assert boosted.score.extra["time_boost"] > 0
    assert "time_boost" not in results[ids.index(old[0].memory.id)].score.extra
    assert results.trace["stages"]["time_filter"] == {"boosted": 1, "of": 2, "boost": 1.5}


def test_as_of_sees_the_past_version(memory: Memory) -> None:
    first = memory.add("Alice lives in Berlin", user_id="alice")[0].memory
    before = dt.datetime.now(dt.UTC)
    memory.update(first.id, user_id="alice", content="Alice lives in Munich", ends_previous=True)
    now = memory.search("where does Alice live", user_id="alice")
    assert "Munich" in now[0].memory.content
    past = memory.search("where does Alice live", user_id="alice", as_of=before)
    assert [h.memory.id for h in past] == [first.id]


def test_async_facade_runs_search_and_recall_prompt(settings) -> None:  # type: ignore[no-untyped-def]
    import asyncio

    from neuromem import AsyncMemory

    async def scenario() -> tuple[int, str]:
        async with await AsyncMemory.create(settings) as m:
            await m.add("Dana keeps bees on her roof", user_id="dana")
            hits = await m.search("bees", user_id="dana", trace=True)
            block = await m.recall_prompt("bees", user_id="dana", token_budget=64)
            return len(hits), block.text

    n, text = asyncio.run(scenario())
    assert n == 1 and "bees" in text
