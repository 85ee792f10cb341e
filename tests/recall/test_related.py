"""``Memory.related`` and ``memctl graph`` (issue 26 item 4): a memory's neighbours and the edges' kinds."""

from __future__ import annotations

import uuid

import pytest

from neuromem import Memory, Related
from neuromem.errors import MemoryNotFoundError
from neuromem.store import graph


def ingest_berlin(memory: Memory, user: str = "gra") -> uuid.UUID:
    memory.ingest(
        [{"role": "user", "content": "I moved to Berlin last May and I work at Initech as a data engineer."}],
        user_id=user,
        session_id="s1",
    )
    facts = [m for m in memory.get_all(user_id=user) if "Berlin" in m.content and m.memory_type == "fact"]
    assert facts, [m.content for m in memory.get_all(user_id=user)]
    return facts[0].id


def test_related_lists_entities_and_memories_with_edge_kinds(memory: Memory) -> None:
    fact = ingest_berlin(memory)
    found = memory.related(fact, user_id="gra")
    assert isinstance(found, Related) and found.memory.id == fact
    names = {(n.edge_type, n.kind, n.name) for n in found.neighbours if n.kind == "node"}
    assert ("MENTIONS", "node", "Berlin") in names and all(
        n.direction == "out" for n in found.neighbours if n.edge_type == "MENTIONS"
    )
    assert found.kinds["MENTIONS"] == sum(1 for n in found.neighbours if n.edge_type == "MENTIONS")
    memory_ends = [n for n in found.neighbours if n.kind == "memory"]
    assert all(n.memory is not None and n.memory.id == n.id for n in memory_ends)
    assert found.neighbours == tuple(sorted(found.neighbours, key=lambda n: -n.weight))


def test_related_is_scoped_and_checked(memory: Memory) -> None:
    fact = ingest_berlin(memory)
    with pytest.raises(MemoryNotFoundError):
        memory.related(fact, user_id="someone-else")
    with pytest.raises(MemoryNotFoundError):
        memory.related(uuid.uuid4(), user_id="gra")
    memory.delete(fact, user_id="gra")
    with pytest.raises(MemoryNotFoundError):
        memory.related(fact, user_id="gra")


def test_memory_neighbours_both_ways_and_deleted_ones_left_out(memory: Memory) -> None:
    [a] = memory.add("Dana keeps bees on her roof in Lyon", user_id="gra2")
    [b] = memory.add("The honey harvest is in August", user_id="gra2")
    with memory.runtime.db.transaction() as conn:  # an edge as ingest's linker writes them
        graph.add_edges(
            conn,
            "gra2",
            [graph.EdgeInput(a.memory.id, "memory", b.memory.id, "memory", "SUPPORTS", weight=0.7)],
        )
    [out] = [n for n in memory.related(a.memory.id, user_id="gra2").neighbours if n.id == b.memory.id]
    assert (out.edge_type, out.direction, out.kind, out.weight) == (
        "SUPPORTS",
        "out",
        "memory",
        pytest.approx(0.7),
    )
    assert out.memory is not None and out.memory.content == "The honey harvest is in August"
    [back] = [n for n in memory.related(b.memory.id, user_id="gra2").neighbours if n.id == a.memory.id]
    assert (back.edge_type, back.direction) == ("SUPPORTS", "in")
    memory.delete(a.memory.id, user_id="gra2")
    assert a.memory.id not in [n.id for n in memory.related(b.memory.id, user_id="gra2").neighbours]


def test_memctl_graph(memctl, memory: Memory) -> None:  # type: ignore[no-untyped-def]
    fact = ingest_berlin(memory)
    shown = memctl("graph", "-u", "gra", str(fact))
    assert shown.exit_code == 0, shown.output
    assert "MENTIONS" in shown.output and "'Berlin'" in shown.output
    missing = memctl("graph", "-u", "gra", str(uuid.uuid4()))
    assert missing.exit_code == 2 and "MemoryNotFoundError" in missing.output
