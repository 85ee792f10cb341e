"""Tags (seed 002 ``tags TEXT[]``): set by add/update, returned, filtered with array operators."""

from __future__ import annotations

import io
import json

import pytest

from neuromem import InvalidInputError, Memory
from neuromem.errors import InvalidFilterError

U = "tagger"


def _ids(records) -> set:  # type: ignore[no-untyped-def]
    return {r.id for r in records}


def test_tags_are_stored_updated_and_filtered(memory: Memory) -> None:
    [work] = memory.add(
        "The quarterly report is due on Friday", user_id=U, tags=["work", "deadline", "work "]
    )
    [trip] = memory.add("Booked the train to Lyon for the conference", user_id=U, tags=["travel", "work"])
    [home] = memory.add("The plumber comes on Tuesday morning", user_id=U)
    assert memory.get(work.memory.id, user_id=U).tags == ("work", "deadline")  # stripped, repeats once
    assert memory.get(home.memory.id, user_id=U).tags == ()

    every = {"user_id": U, "limit": 50}
    assert _ids(memory.get_all(**every, filters={"tags": "work"})) == {work.memory.id, trip.memory.id}
    assert _ids(memory.get_all(**every, filters={"tags": {"contains_any": ["deadline", "travel"]}})) == {
        work.memory.id,
        trip.memory.id,
    }
    assert _ids(memory.get_all(**every, filters={"tags": {"contains_all": ["work", "travel"]}})) == {
        trip.memory.id
    }
    assert _ids(memory.get_all(**every, filters={"NOT": {"tags": {"contains_any": ["work"]}}})) == {
        home.memory.id
    }
    hits = memory.search("when is the report due", user_id=U, filters={"tags": {"contains_any": ["travel"]}})
    assert hits and {h.memory.id for h in hits} == {trip.memory.id}

    # tags alone: an in-place change (version + 1); new content: the new version keeps the tags
    retagged = memory.update(home.memory.id, user_id=U, tags=["home"])
    assert retagged.tags == ("home",) and retagged.version == 2
    newer = memory.update(work.memory.id, user_id=U, content="The quarterly report is due on Monday")
    assert newer.id != work.memory.id and newer.tags == ("work", "deadline")
    assert _ids(memory.get_all(**every, filters={"tags": "deadline"})) == {newer.id}


@pytest.mark.parametrize("bad", ["work", ["ok", ""], [3], ["x" * 65], [f"t{i}" for i in range(33)]])
def test_bad_tags_are_refused_and_nothing_is_written(memory: Memory, bad) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(InvalidInputError):
        memory.add("Something worth keeping", user_id=U, tags=bad)
    assert memory.get_all(user_id=U) == []
    with pytest.raises(InvalidInputError, match="single memory"):
        memory.add([{"role": "user", "content": "hello"}], user_id=U, tags=["x"])


@pytest.mark.parametrize(
    "bad",
    [
        {"tags": {"contains_any": []}},
        {"tags": {"eq": "x"}},
        {"tags": {"contains_all": [1]}},
        {"tags": {"contains_any": "work"}},
        {"tags": {}},
    ],
)
def test_bad_tag_filters_are_refused(memory: Memory, bad) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(InvalidFilterError):
        memory.get_all(user_id=U, filters=bad)


def test_tags_travel_through_export_and_import(memory: Memory, settings) -> None:  # type: ignore[no-untyped-def]
    [w] = memory.add("Renew the passport before May", user_id=U, tags=["admin", "travel"])
    buffer = io.StringIO()
    memory.export(buffer, user_id=U, format="jsonl")
    rows = [json.loads(line) for line in buffer.getvalue().splitlines()[1:]]
    assert any(r.get("row", r).get("tags") == ["admin", "travel"] for r in rows)
    memory.forget(user_id=U, everything=True)
    buffer.seek(0)
    memory.import_file(buffer, include_forgotten=True)  # the owner restores what they forgot
    assert memory.get(w.memory.id, user_id=U).tags == ("admin", "travel")
