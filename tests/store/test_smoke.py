from neuromem import Memory, Operation


def test_add_then_search_finds_it(memory: Memory) -> None:
    added = memory.add("Alice works at Google as a data scientist", user_id="alice")
    assert added[0].operation is Operation.ADD
    hits = memory.search("where does alice work", user_id="alice")
    assert hits[0].memory.id == added[0].memory.id
