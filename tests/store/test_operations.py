"""Memory operations against the real embedded PostgreSQL (seed 000 §5.3–§5.5, §6.3)."""

from __future__ import annotations

import datetime as dt
import time

import pytest

from neuromem import Memory, MemoryType, Operation, writes
from neuromem.errors import MemoryNotFoundError, VersionConflictError
from neuromem.types import HistoryEvent


def test_add_get_and_list(memory: Memory) -> None:
    result = memory.add(
        "Alice likes jasmine tea",
        user_id="alice",
        category="preference",
        importance=0.8,
        metadata={"topic": "drinks"},
    )[0]
    assert result.operation is Operation.ADD
    got = memory.get(result.memory.id, user_id="alice")
    assert got.content == "Alice likes jasmine tea"
    assert got.category == "preference" and got.importance == pytest.approx(0.8)
    assert got.metadata["topic"] == "drinks" and got.has_embedding and got.version == 1
    assert got.metadata["slot"] == "alice|lik" and got.metadata["slot_value"] == "jasmine tea"  # issue 21
    assert got.language == "en"
    assert [m.id for m in memory.get_all(user_id="alice")] == [got.id]
    # scoped by user: bob sees nothing, and cannot read alice's memory by id
    assert memory.get_all(user_id="bob") == []
    with pytest.raises(MemoryNotFoundError):
        memory.get(got.id, user_id="bob")


def test_identical_content_is_noop(memory: Memory) -> None:
    first = memory.add("I live in Shanghai", user_id="u1")[0]
    again = memory.add("  I live   in Shanghai ", user_id="u1")[0]
    assert again.operation is Operation.NOOP and again.memory.id == first.memory.id
    assert len(memory.get_all(user_id="u1")) == 1
    assert [h.event for h in memory.history(first.memory.id, user_id="u1")] == [HistoryEvent.ADD]


def test_near_duplicate_supersedes_and_chains(memory: Memory) -> None:
    v1 = memory.add("my favourite programming language is python", user_id="u")[0].memory
    v2 = memory.add("my favourite programming language is python!", user_id="u")[0]
    assert v2.operation is Operation.UPDATE and v2.previous_id == v1.id
    v3 = memory.add("my favourite programming language is python!!", user_id="u")[0]
    assert v3.operation is Operation.UPDATE and v3.previous_id == v2.memory.id
    assert v3.memory.version == 3
    old = memory.get(v1.id, user_id="u")
    assert old.expired_at is not None and old.superseded_by == v2.memory.id
    assert [m.id for m in memory.get_all(user_id="u")] == [v3.memory.id]
    assert len(memory.get_all(user_id="u", include_inactive=True)) == 3
    events = [(h.event, h.memory_id) for h in memory.history(v1.id, user_id="u")]
    assert events == [
        (HistoryEvent.ADD, v1.id),
        (HistoryEvent.SUPERSEDE, v1.id),
        (HistoryEvent.UPDATE, v2.memory.id),
        (HistoryEvent.SUPERSEDE, v2.memory.id),
        (HistoryEvent.UPDATE, v3.memory.id),
    ]
    # the same chain is found from its newest member
    assert len(memory.history(v3.memory.id, user_id="u")) == 5


def test_different_content_is_a_new_memory(memory: Memory) -> None:
    memory.add("I have a cat named Mochi", user_id="u")
    second = memory.add("The quarterly report is due on Friday", user_id="u")[0]
    assert second.operation is Operation.ADD
    assert len(memory.get_all(user_id="u")) == 2


def test_update_content_supersedes_and_metadata_updates_in_place(memory: Memory) -> None:
    original = memory.add("Bob works at Initech", user_id="bob", metadata={"a": 1})[0].memory
    edited = memory.update(original.id, user_id="bob", metadata={"b": 2}, importance=0.9)
    assert edited.id == original.id and edited.version == 2
    assert edited.metadata == {
        "a": 1,
        "b": 2,
        "slot": "bob|employer",
        "slot_value": "initech",
    } and edited.importance == pytest.approx(0.9)
    moved = memory.update(original.id, user_id="bob", content="Bob works at Globex")
    assert moved.id != original.id and moved.version == 3
    assert moved.metadata == {"a": 1, "b": 2, "slot": "bob|employer", "slot_value": "globex"}  # its own slot
    with pytest.raises(VersionConflictError):  # the old version is no longer current
        memory.update(original.id, user_id="bob", content="Bob works at Hooli")
    with pytest.raises(VersionConflictError):
        memory.update(moved.id, user_id="bob", importance=0.1, expected_version=1)
    events = [h.event for h in memory.history(moved.id, user_id="bob")]
    assert events == [HistoryEvent.ADD, HistoryEvent.UPDATE, HistoryEvent.SUPERSEDE, HistoryEvent.UPDATE]
    assert all(h.actor == "user" for h in memory.history(moved.id, user_id="bob"))


def test_delete_is_soft_and_recorded(memory: Memory) -> None:
    rec = memory.add("temporary note about parking on level 3", user_id="u")[0].memory
    deleted = memory.delete(rec.id, user_id="u")
    assert deleted.expired_at is not None
    assert memory.get_all(user_id="u") == []
    assert memory.get(rec.id, user_id="u").expired_at is not None  # still readable by id
    assert memory.history(rec.id, user_id="u")[-1].event is HistoryEvent.DELETE
    assert len(memory.search("parking", user_id="u")) == 0
    with pytest.raises(MemoryNotFoundError):
        memory.delete(rec.id, user_id="u")


def test_time_travel_as_of(memory: Memory) -> None:
    start = dt.datetime(2023, 1, 1, tzinfo=dt.UTC)
    rec = memory.add("Carol lives in Paris", user_id="c", valid_at=start)[0].memory
    time.sleep(0.01)
    before_move = dt.datetime.now(dt.UTC)
    time.sleep(0.01)
    moved_on = dt.datetime(2024, 6, 1, tzinfo=dt.UTC)
    new = memory.update(
        rec.id, user_id="c", content="Carol lives in Lisbon", valid_at=moved_on, ends_previous=True
    )
    old = memory.get(rec.id, user_id="c")
    assert old.invalid_at == moved_on and old.expired_at is not None and old.superseded_by == new.id
    assert [m.content for m in memory.get_all(user_id="c")] == ["Carol lives in Lisbon"]
    # what was known and valid just before the update
    assert [m.content for m in memory.get_all(user_id="c", as_of=before_move)] == ["Carol lives in Paris"]
    # before anything was valid
    assert memory.get_all(user_id="c", as_of=dt.datetime(2022, 1, 1, tzinfo=dt.UTC)) == []
    hits = memory.search("where does Carol live", user_id="c", as_of=before_move)
    assert [h.memory.content for h in hits] == ["Carol lives in Paris"]


def test_invalid_at_in_the_past_is_not_current(memory: Memory) -> None:
    memory.add(
        "Dave was on holiday in Spain",
        user_id="d",
        valid_at="2020-07-01T00:00:00Z",
        invalid_at="2020-07-15T00:00:00Z",
        memory_type="episodic",
    )
    assert memory.get_all(user_id="d") == []
    assert len(memory.get_all(user_id="d", include_inactive=True)) == 1
    # as_of is bitemporal: in 2020 the system did not know this memory yet
    assert memory.get_all(user_id="d", as_of="2020-07-10T00:00:00+00:00") == []


def test_filters(memory: Memory) -> None:
    memory.add(
        "likes hiking in the alps",
        user_id="f",
        category="preference",
        importance=0.9,
        metadata={"topic": "outdoor", "score": 3},
    )
    memory.add(
        "met Jane at the conference",
        user_id="f",
        memory_type="episodic",
        importance=0.2,
        metadata={"topic": "work", "score": 7},
    )
    assert [m.category for m in memory.get_all(user_id="f", filters={"category": "preference"})] == [
        "preference"
    ]
    assert len(memory.get_all(user_id="f", filters={"importance": {"gte": 0.5}})) == 1
    assert len(memory.get_all(user_id="f", filters={"metadata.score": {"gt": 5}})) == 1
    assert len(memory.get_all(user_id="f", filters={"metadata.topic": {"in": ["work", "outdoor"]}})) == 2
    either = {"OR": [{"memory_type": "episodic"}, {"category": "preference"}]}
    assert len(memory.get_all(user_id="f", filters=either)) == 2
    assert len(memory.get_all(user_id="f", filters={"NOT": {"memory_type": "fact"}})) == 1
    hits = memory.search("hiking", user_id="f", filters={"metadata.topic": "outdoor"})
    assert [h.memory.metadata["topic"] for h in hits] == ["outdoor"]


def test_memory_types_and_reset(memory: Memory) -> None:
    for kind in MemoryType:
        text = f"a {kind.value} memory about gardening"
        if kind is MemoryType.TRAIT:  # traits come only from reflection: written by the internal rules
            writes.add(memory.runtime, writes.draft(memory.runtime, text, "r", memory_type=kind))
        else:
            memory.add(text, user_id="r", memory_type=kind)
    memory.add("another user's memory", user_id="other")
    assert {m.memory_type for m in memory.get_all(user_id="r")} == set(MemoryType)
    removed = memory.reset(user_id="r")
    assert removed["memories"] == 4 and removed["memory_history"] == 4
    assert memory.get_all(user_id="r") == []
    assert len(memory.get_all(user_id="other")) == 1
