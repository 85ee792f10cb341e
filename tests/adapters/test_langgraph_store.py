"""NeuromemStore against LangGraph's own usage: the store scenarios of langgraph's
libs/checkpoint/tests/test_store.py (with ``InMemoryStore()`` replaced by our store) and a
compiled StateGraph whose nodes use the injected store."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import TypedDict

import pytest
from langgraph.graph import END, START, StateGraph
from langgraph.store.base import BaseStore, InvalidNamespaceError, PutOp

from neuromem import Memory
from neuromem.adapters.langgraph import NeuromemStore


@pytest.fixture
def store(memory: Memory) -> Iterator[NeuromemStore]:
    yield NeuromemStore(memory, user_id="agent")


def test_list_namespaces_basic(store: NeuromemStore) -> None:
    namespaces = [
        ("a", "b", "c"),
        ("a", "b", "d", "e"),
        ("a", "b", "d", "i"),
        ("a", "b", "f"),
        ("a", "c", "f"),
        ("b", "a", "f"),
        ("users", "123"),
        ("users", "456", "settings"),
        ("admin", "users", "789"),
    ]
    for i, ns in enumerate(namespaces):
        store.put(namespace=ns, key=f"id_{i}", value={"data": f"value_{i:02d}"})

    assert sorted(store.list_namespaces(prefix=("a", "b"))) == [
        ("a", "b", "c"),
        ("a", "b", "d", "e"),
        ("a", "b", "d", "i"),
        ("a", "b", "f"),
    ]
    assert sorted(store.list_namespaces(suffix=("f",))) == [("a", "b", "f"), ("a", "c", "f"), ("b", "a", "f")]
    assert sorted(store.list_namespaces(prefix=("a",), suffix=("f",))) == [("a", "b", "f"), ("a", "c", "f")]
    assert sorted(store.list_namespaces(prefix=("a", "b"), max_depth=3)) == [
        ("a", "b", "c"),
        ("a", "b", "d"),
        ("a", "b", "f"),
    ]
    assert store.list_namespaces(prefix=("a", "b"), limit=2) == [("a", "b", "c"), ("a", "b", "d", "e")]
    assert store.list_namespaces(prefix=("a", "b"), offset=2) == [("a", "b", "d", "i"), ("a", "b", "f")]
    assert sorted(store.list_namespaces(prefix=("a", "*", "f"))) == [("a", "b", "f"), ("a", "c", "f")]
    assert sorted(store.list_namespaces(suffix=("*", "f"))) == [
        ("a", "b", "f"),
        ("a", "c", "f"),
        ("b", "a", "f"),
    ]
    assert store.list_namespaces(prefix=("nonexistent",)) == []
    assert store.list_namespaces(prefix=("users", "123")) == [("users", "123")]
    assert sorted(store.list_namespaces(max_depth=2)) == [
        ("a", "b"),
        ("a", "c"),
        ("admin", "users"),
        ("b", "a"),
        ("users", "123"),
        ("users", "456"),
    ]


def test_list_namespaces_with_wildcards_and_empty_store(store: NeuromemStore) -> None:
    assert store.list_namespaces() == []
    namespaces = [
        ("users", "123"),
        ("users", "456"),
        ("users", "789", "settings"),
        ("admin", "users", "789"),
        ("guests", "123"),
        ("guests", "456", "preferences"),
    ]
    for i, ns in enumerate(namespaces):
        store.put(namespace=ns, key=f"id_{i}", value={"data": f"value_{i:02d}"})
    assert sorted(store.list_namespaces(prefix=("users", "*"))) == [
        ("users", "123"),
        ("users", "456"),
        ("users", "789", "settings"),
    ]
    assert store.list_namespaces(suffix=("*", "preferences")) == [("guests", "456", "preferences")]
    assert store.list_namespaces(prefix=("*", "users"), suffix=("*", "settings")) == []


def test_cannot_put_empty_namespace_and_async_round_trip(store: NeuromemStore) -> None:
    asyncio.run(_namespaces_and_round_trip(store))


async def _namespaces_and_round_trip(store: NeuromemStore) -> None:
    doc = {"foo": "bar"}
    with pytest.raises(InvalidNamespaceError):
        store.put((), "foo", doc)
    with pytest.raises(InvalidNamespaceError):
        await store.aput((), "foo", doc)
    with pytest.raises(InvalidNamespaceError):
        store.put(("the", "thing.about"), "foo", doc)
    with pytest.raises(InvalidNamespaceError):
        await store.aput(("some", "fun", ""), "foo", doc)
    with pytest.raises(InvalidNamespaceError):
        store.put(("langgraph", "foo"), "bar", doc)

    await store.aput(("foo", "langgraph", "foo"), "bar", doc)
    assert (await store.aget(("foo", "langgraph", "foo"), "bar")).value == doc  # type: ignore[union-attr]
    assert (await store.asearch(("foo", "langgraph", "foo")))[0].value == doc
    await store.adelete(("foo", "langgraph", "foo"), "bar")
    assert (await store.aget(("foo", "langgraph", "foo"), "bar")) is None
    store.put(("foo", "langgraph", "foo"), "bar", doc)
    assert store.get(("foo", "langgraph", "foo"), "bar").value == doc  # type: ignore[union-attr]
    assert store.search(("foo", "langgraph", "foo"))[0].value == doc
    store.delete(("foo", "langgraph", "foo"), "bar")
    assert store.get(("foo", "langgraph", "foo"), "bar") is None

    # past the public put api
    await store.abatch([PutOp(("langgraph", "foo"), "bar", doc)])
    assert (await store.aget(("langgraph", "foo"), "bar")).value == doc  # type: ignore[union-attr]
    assert (await store.asearch(("langgraph", "foo")))[0].value == doc
    await store.adelete(("langgraph", "foo"), "bar")
    assert (await store.aget(("langgraph", "foo"), "bar")) is None


def test_put_update_equal_values_filters_and_concurrent_async(store: NeuromemStore) -> None:
    asyncio.run(_put_update_and_filters(store))


async def _put_update_and_filters(store: NeuromemStore) -> None:
    same, diff = {"value": "same"}, {"value": "different"}
    await asyncio.gather(
        store.aput(("test",), "same", same),
        store.aput(("test",), "different", diff),
        store.aput(("test",), "twin", same),
    )
    got = await asyncio.gather(
        store.aget(("test",), "same"), store.aget(("test",), "twin"), store.aget(("test",), "different")
    )
    assert [g.value for g in got] == [same, same, diff]  # type: ignore[union-attr]  # equal values stay two items
    first = store.get(("test",), "same")
    store.put(("test",), "same", {"value": 2})
    after = store.get(("test",), "same")
    assert after.value == {"value": 2} and after.created_at == first.created_at  # type: ignore[union-attr]
    assert after.updated_at >= first.updated_at  # type: ignore[union-attr]
    assert [i.key for i in store.search(("test",), filter={"value": 2})] == ["same"]
    assert {i.key for i in store.search(("test",), filter={"value": {"$ne": 2}})} == {"twin", "different"}
    store.put(("scores",), "a", {"score": 4.5})
    store.put(("scores",), "b", {"score": 5.5})
    assert [i.key for i in store.search(("scores",), filter={"score": {"$gt": 4.99}})] == ["b"]


def test_search_with_query_uses_recall_in_the_prefix(store: NeuromemStore) -> None:
    docs = [
        ("doc1", {"text": "short text"}),
        ("doc2", {"text": "longer text document"}),
        ("doc3", {"text": "longest text document here"}),
        ("doc4", {"description": "text in description field"}),
        ("doc5", {"content": "text in content field"}),
        ("doc6", {"body": "text in body field"}),
    ]
    for key, value in docs:
        store.put(("test",), key, value)
    store.put(("other",), "doc7", {"text": "longer text document elsewhere"})
    results = store.search(("test",), query="long text document")
    assert results and all(r.namespace == ("test",) for r in results)
    keys = [r.key for r in results]
    assert "doc2" in keys and "doc3" in keys and "doc7" not in keys
    assert all(r.score is not None for r in results)
    # index=False keeps an item out of query search, but get and listing still see it
    store.put(("test",), "hidden", {"text": "longer text document secret"}, index=False)
    assert "hidden" not in [r.key for r in store.search(("test",), query="secret document")]
    assert store.get(("test",), "hidden") is not None
    # index fields: only the named field is searched
    store.put(("recipes",), "r1", {"title": "Ramen", "notes": "tonkotsu broth"}, index=["title"])
    assert store.search(("recipes",), query="ramen")[0].key == "r1"


class State(TypedDict):
    user: str
    message: str
    reply: str


def test_a_compiled_graph_remembers_across_runs_through_the_store(store: NeuromemStore) -> None:
    def remember(state: State, *, store: BaseStore) -> dict[str, str]:
        if state["message"].startswith("remember "):
            fact = state["message"][len("remember ") :]
            store.put(
                ("memories", state["user"]),
                f"m{len(store.search(('memories', state['user'])))}",
                {"text": fact},
            )
        return {}

    def answer(state: State, *, store: BaseStore) -> dict[str, str]:
        found = store.search(("memories", state["user"]), query=state["message"], limit=1)
        return {"reply": found[0].value["text"] if found else "I don't know"}

    builder = StateGraph(State)
    builder.add_node("remember", remember)
    builder.add_node("answer", answer)
    builder.add_edge(START, "remember")
    builder.add_edge("remember", "answer")
    builder.add_edge("answer", END)
    graph = builder.compile(store=store)
    graph.invoke({"user": "alice", "message": "remember I am allergic to peanuts", "reply": ""})
    graph.invoke({"user": "alice", "message": "remember my sister lives in Oslo", "reply": ""})
    out = graph.invoke({"user": "alice", "message": "which food allergy do I have? peanuts?", "reply": ""})
    assert out["reply"] == "I am allergic to peanuts"
    assert (
        graph.invoke({"user": "bob", "message": "where does my sister live?", "reply": ""})["reply"]
        == "I don't know"
    )
