"""One recall reads each candidate's rows once (issue 25, speed): the second hop fuses the first hop's
candidates again and reads only the new ones, with the same answers as reading them afresh."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from neuromem import Memory
from neuromem.recall import candidate_rows
from neuromem.recall.candidate_rows import CandidateRows
from neuromem.recall.recipes import derive, get_recipe
from neuromem.store import conversations
from neuromem.store import recall_queries as rq


@pytest.fixture
def asked(monkeypatch: pytest.MonkeyPatch) -> dict[str, list[list[uuid.UUID]]]:
    """The ids each read of the store was asked for (the real reads run)."""
    calls: dict[str, list[list[uuid.UUID]]] = {}

    def counted(module: Any, name: str) -> None:
        real = getattr(module, name)

        def wrapper(conn: Any, user_id: str, ids: Any) -> Any:
            calls.setdefault(name, []).append(list(ids))
            return real(conn, user_id, ids)

        monkeypatch.setattr(module, name, wrapper)

    for name in ("source_turns", "withdrawn_turns", "turns_by_id"):
        counted(conversations, name)
    counted(rq, "records_with_vectors")
    assert candidate_rows.conversations is conversations and candidate_rows.rq is rq
    return calls


def test_rows_are_read_once_and_answer_as_a_fresh_read(
    memory: Memory, asked: dict[str, list[list[uuid.UUID]]]
) -> None:
    ids = [memory.add(f"I keep note {i} about the garden", user_id="r")[0].memory.id for i in range(4)]
    absent = uuid.uuid4()
    with memory.runtime.db.connection() as conn:
        rows = CandidateRows(conn, "r")
        first, _ = rows.records_with_vectors([*ids[:3], absent])
        second, second_vectors = rows.records_with_vectors([*ids[1:], absent])
        fresh, fresh_vectors = rq.records_with_vectors(conn, "r", ids[1:])
        assert rows.turns_by_id([absent]) == {} and rows.turns_by_id([absent]) == {}
        assert rows.withdrawn_turns([absent]) == set() and rows.source_turns(ids) == rows.source_turns(ids)
    # the second read asked only for the id the first did not: a missing row is remembered as missing
    assert asked["records_with_vectors"][:2] == [[*ids[:3], absent], [ids[3]]]
    assert len(asked["turns_by_id"]) == len(asked["withdrawn_turns"]) == len(asked["source_turns"]) == 1
    assert set(second) == set(ids[1:]) and second == fresh and first.keys() == set(ids[:3])
    assert second_vectors.keys() == fresh_vectors.keys() == set(ids[1:])
    assert all((second_vectors[i] == fresh_vectors[i]).all() for i in ids[1:])


def test_the_second_hop_reads_only_the_candidates_the_first_did_not(
    memory: Memory, asked: dict[str, list[list[uuid.UUID]]]
) -> None:
    memory.add("I signed up for the pottery workshop with Rachel", user_id="h")
    memory.add("Rachel's kiln cracked so the glazing class moved to Thursday", user_id="h")
    for i in range(12):
        memory.add(f"Unrelated note {i} about groceries and the bus timetable", user_id="h")
    hop = derive(get_recipe("bm25"), "hop", second_hop=True)
    results = memory.search("what happened with the pottery workshop?", user_id="h", recipe=hop, trace=True)
    assert results.trace["paths"]["bm25_hop"] == "ran" and any("kiln" in h.memory.content for h in results)
    reads = [ids for ids in asked["records_with_vectors"] if ids]  # (the truth stage may ask for none)
    assert len(reads) == 2  # the first hop's fusion, then the second's
    assert not set(reads[0]) & set(reads[1])  # nothing read twice
