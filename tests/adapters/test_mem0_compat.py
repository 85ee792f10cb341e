"""Mem0's documentation samples, run unchanged apart from the import (and ids taken from results
where the docs print a fixed id): docs/open-source/python-quickstart.mdx and
docs/open-source/features/metadata-filtering.mdx of mem0ai/mem0."""

from __future__ import annotations

import os

import pytest

from neuromem import Settings


def test_python_quickstart(neuromem_env: Settings) -> None:
    # Initialize Mem0
    from neuromem.compat.mem0 import Memory  # was: from mem0 import Memory

    os.environ["OPENAI_API_KEY"] = "your-api-key"

    m = Memory()

    # Store a Memory
    messages = [
        {"role": "user", "content": "I'm planning to watch a movie tonight. Any recommendations?"},
        {"role": "assistant", "content": "How about a thriller movies? They can be quite engaging."},
        {"role": "user", "content": "I'm not a big fan of thriller movies but I love sci-fi movies."},
        {
            "role": "assistant",
            "content": "Got it! I'll avoid thriller recommendations and suggest sci-fi movies in the future.",
        },
    ]

    # Store inferred memories (default behavior)
    result = m.add(messages, user_id="alice", metadata={"category": "movie_recommendations"})

    assert result["results"] and all(r["event"] == "ADD" for r in result["results"])
    assert all(r["metadata"] == {"category": "movie_recommendations"} for r in result["results"])
    assert any("sci-fi" in r["memory"] for r in result["results"])

    # Store raw messages without inference
    raw = m.add(messages, user_id="alice", metadata={"category": "movie_recommendations"}, infer=False)
    assert len(raw["results"]) >= 3  # every message kept as said (the sci-fi one may be known already)

    # Retrieve Memories
    # Get all memories
    all_memories = m.get_all(user_id="alice")
    assert {"id", "memory", "hash", "created_at", "updated_at", "metadata", "user_id"} <= set(
        all_memories["results"][0]
    )

    # Get a single memory by ID
    memory_id = result["results"][0]["id"]  # the docs print the id "892db2ae-…"
    specific_memory = m.get(memory_id)
    assert (
        specific_memory["memory"] == result["results"][0]["memory"] and specific_memory["user_id"] == "alice"
    )

    # Search Memories
    related_memories = m.search(query="What do you know about me?", user_id="alice")
    assert related_memories["results"] and all("score" in r for r in related_memories["results"])
    sci_fi = m.search("sci-fi movies", user_id="alice", limit=3)["results"]
    assert "sci-fi" in sci_fi[0]["memory"]

    # Update a Memory
    result = m.update(memory_id=memory_id, data="I love India, it is my favorite country.")
    assert result == {"message": "Memory updated successfully!"}
    assert m.get(memory_id)["memory"] == "I love India, it is my favorite country."

    # Memory History
    history = m.history(memory_id=memory_id)
    assert history[0]["action"] == "ADD" and "UPDATE" in [h["event"] for h in history]
    assert history[-1]["new_value"] == "I love India, it is my favorite country."

    # Delete Memory
    # Delete a memory by id
    m.delete(memory_id=memory_id)
    assert m.get(memory_id) is None
    # Delete all memories for a user
    m.delete_all(user_id="alice")
    assert m.get_all(user_id="alice") == {"results": []}

    # Reset Memory
    m.add("Likes to play cricket on weekends", user_id="bob", metadata={"category": "hobbies"})
    m.reset()  # Reset all memories
    assert m.get_all(user_id="bob") == {"results": []}
    m.close()


def test_current_quickstart_with_filters_scope(neuromem_env: Settings) -> None:
    from neuromem.compat.mem0 import Memory  # was: from mem0 import Memory

    m = Memory()
    messages = [
        {"role": "user", "content": "Hi, I'm Alex. I love basketball and gaming."},
        {"role": "assistant", "content": "Hey Alex! I'll remember your interests."},
    ]
    m.add(messages, user_id="alex")
    results = m.search("What do you know about me?", filters={"user_id": "alex"})
    assert any("basketball" in r["memory"] for r in results["results"])
    assert all(r["user_id"] == "alex" for r in results["results"])
    m.close()


def test_metadata_filtering_samples(neuromem_env: Settings) -> None:
    from neuromem.compat.mem0 import Memory  # was: from mem0 import Memory

    m = Memory()
    for text, meta in (
        ("I prefer window seats", {"category": "preferences", "priority": 7, "status": "active"}),
        ("I finished the quarterly report", {"category": "work", "priority": 9, "status": "completed"}),
        ("I want to learn the cello", {"category": "personal", "priority": 5, "status": "active"}),
    ):
        m.add(text, user_id="alice", metadata=meta, infer=False)

    # Search with simple metadata filters
    results = m.search("What are my preferences?", user_id="alice", filters={"category": "preferences"})
    assert [r["memory"] for r in results["results"]] == ["I prefer window seats"]

    # Equality operators
    results = m.search(
        "specific content", user_id="alice", filters={"status": {"eq": "active"}, "archived": {"ne": True}}
    )
    found = {r["memory"] for r in results["results"]}  # what recall finds relevant, within the filter
    assert found and found <= {"I prefer window seats", "I want to learn the cello"}

    # In / Not in operators
    results = m.search(
        "multi-category search",
        user_id="alice",
        filters={
            "category": {"in": ["food", "travel", "entertainment"]},
            "status": {"nin": ["deleted", "archived"]},
        },
    )
    assert results["results"] == []

    # Complex nested logic
    results = m.search(
        "advanced query",
        user_id="alice",
        filters={
            "AND": [
                {"OR": [{"category": "work"}, {"category": "personal"}]},
                {"priority": {"gte": 5}},
                {"NOT": [{"status": "archived"}]},
            ]
        },
    )
    found = {r["memory"] for r in results["results"]}
    assert found and found <= {"I finished the quarterly report", "I want to learn the cello"}

    # Logical NOT
    results = m.search(
        "exclusion query",
        user_id="alice",
        filters={"NOT": [{"category": "archived"}, {"status": "completed"}]},
    )
    assert "I finished the quarterly report" not in {r["memory"] for r in results["results"]}

    # Handle invalid operators
    try:
        results = m.search("test query", user_id="alice", filters={"invalid_operator": {"unknown": "value"}})
    except ValueError as e:
        print(f"Filter error: {e}")
        results = m.search("test query", user_id="alice", filters={"category": "general"})
    assert results == {"results": []}
    m.close()


def test_async_memory_and_bad_input(neuromem_env: Settings) -> None:
    import asyncio

    from neuromem.compat.mem0 import AsyncMemory, Memory
    from neuromem.errors import InvalidInputError

    async def scenario() -> list[str]:
        m = AsyncMemory()
        await m.add("I like green tea", user_id="carol", infer=False)
        found = await m.search("green tea", user_id="carol")
        m.sync.close()
        return [r["memory"] for r in found["results"]]

    assert asyncio.run(scenario()) == ["I like green tea"]
    m = Memory()
    with pytest.raises(InvalidInputError, match="user_id, agent_id or run_id"):
        m.add("no owner")
    assert m.get("not-a-uuid") is None
    m.close()


def test_agent_and_run_scopes_map_to_neuromem_columns(neuromem_env: Settings) -> None:
    """Issue 26 item 2: with a user_id, Mem0's agent_id / run_id are neuromem's scope columns and
    search / get_all / delete_all match them exactly, as Mem0 does."""
    from neuromem.compat.mem0 import Memory

    m = Memory()
    m.add("Likes window seats", user_id="alex", infer=False)
    m.add("Books trains before flights", user_id="alex", agent_id="planner", infer=False)
    m.add("Targets Lisbon this time", user_id="alex", agent_id="planner", run_id="r1", infer=False)
    stored = m.memory.get_all(user_id="alex")
    assert {(r.content, r.agent_id, r.run_id) for r in stored} == {
        ("Likes window seats", None, None),
        ("Books trains before flights", "planner", None),
        ("Targets Lisbon this time", "planner", "r1"),
    }
    planner = m.get_all(user_id="alex", agent_id="planner")["results"]
    assert {r["memory"] for r in planner} == {"Books trains before flights", "Targets Lisbon this time"}
    assert all(r["agent_id"] == "planner" for r in planner)
    run = m.search("Lisbon trains seats", filters={"user_id": "alex", "agent_id": "planner", "run_id": "r1"})
    assert [r["memory"] for r in run["results"]] == ["Targets Lisbon this time"]
    m.delete_all(user_id="alex", agent_id="planner")
    assert [r["memory"] for r in m.get_all(user_id="alex")["results"]] == ["Likes window seats"]
    m.close()


def test_search_returns_memories_only(neuromem_env: Settings) -> None:
    """Mem0 returns memories: never a conversation turn (an assistant reply) with ``hash`` None (issue 22 item 6)."""
    from neuromem.compat.mem0 import Memory

    m = Memory()
    m.add(
        [
            {"role": "user", "content": "I love sci-fi movies, Dune most of all."},
            {
                "role": "assistant",
                "content": "Noted: sci-fi movies like Dune. Shall I suggest more sci-fi movies?",
            },
        ],
        user_id="alice",
    )
    found = m.search("sci-fi movies", user_id="alice", limit=10)["results"]
    assert found and all(r["hash"] for r in found)
    assert not any("Shall I suggest" in r["memory"] for r in found)
    assert all(m.get(r["id"]) is not None for r in found)
