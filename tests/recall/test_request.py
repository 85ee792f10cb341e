"""One recall request, one prompt trip, retrievers as a table, the runtime's clock (issue 25 items 1, 3, 4)."""

from __future__ import annotations

import datetime as dt
import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from typing import Any

import numpy as np
import psycopg
import pytest

from neuromem import Memory
from neuromem.recall.query import analyze_query
from neuromem.recall.recipes import get_recipe
from neuromem.recall.request import RecallRequest
from neuromem.recall.retriever_table import (
    FUSION_ORDER,
    NOT_APPLICABLE,
    RETRIEVERS,
    Retriever,
    Search,
    in_fusion_order,
)
from neuromem.recall.retrievers import Probe
from neuromem.recall.trace import Trace
from neuromem.types import MemoryType

T0 = dt.datetime(2024, 5, 3, 9, 0, tzinfo=dt.UTC)


def _count_connections(memory: Memory, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many pool connections this thread takes from now on (a counter around the real pool)."""
    db = memory.runtime.db
    caller = threading.get_ident()
    taken = [0]
    real: Callable[..., AbstractContextManager[Any]] = db.connection

    def counting(*args: Any, **kwargs: Any) -> AbstractContextManager[Any]:
        if threading.get_ident() == caller:  # not the background work ingest started (reflection, flushes)
            taken[0] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(db, "connection", counting)
    return taken


def _count_embeddings(memory: Memory, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    embedder = memory.runtime.embedder
    calls: list[str] = []
    real = embedder.embed_query

    def counting(text: str) -> np.ndarray:
        calls.append(text)
        return real(text)

    monkeypatch.setattr(embedder, "embed_query", counting)
    return calls


def test_the_pipeline_runs_a_request_and_answers_the_query_vector_with_the_results(memory: Memory) -> None:
    memory.add("Mia plays the cello in an orchestra", user_id="u")
    request = RecallRequest("who plays the cello", "u", get_recipe("hybrid"), tuple(MemoryType), limit=5)
    recalled = memory._recall.run(request)
    results = recalled.results
    assert "cello" in results[0].memory.content
    assert recalled.query_vector is not None
    assert np.allclose(recalled.query_vector, memory.runtime.embedder.embed_query("who plays the cello"))
    assert [h.memory.id for h in memory.search("who plays the cello", user_id="u", limit=5)] == [
        h.memory.id for h in results
    ]  # the facade builds the same request


def test_a_request_is_frozen() -> None:
    request = RecallRequest("q", "u", get_recipe("hybrid"), (MemoryType.FACT,), limit=5)
    with pytest.raises(AttributeError):
        request.limit = 6  # type: ignore[misc]


def test_recall_prompt_embeds_the_question_once_and_reads_over_one_connection(
    memory: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    memory.ingest(
        [
            {"role": "user", "content": "I deploy the billing API every Friday", "timestamp": T0},
            {"role": "assistant", "content": "ok", "timestamp": T0},
            {"role": "user", "content": "yes", "timestamp": T0},
        ],
        user_id="u",
        session_id="s",
    )
    memory.add("I prefer answers in English", user_id="u", category="preference")
    memory.record_procedure("Deploy the billing API", ["run tests", "build image", "push"], user_id="u")
    memory.pin(memory.add("My manager is Ana", user_id="u")[0].memory.id, user_id="u")
    embedded = _count_embeddings(memory, monkeypatch)
    taken = _count_connections(memory, monkeypatch)
    block = memory.recall_prompt("how do I deploy the billing API", user_id="u", token_budget=400)
    assert "Deploy the billing API" in block.text and "Ana" in block.text  # a proven skill, a pinned line
    assert any(c.session_ids for c in block.citations)  # turns cited with their session
    assert embedded == ["how do I deploy the billing API"]  # the procedures reuse the recall's vector
    assert (
        taken[0] == 2
    )  # one for the recall, one for everything the block adds (pins, turns, skills, citations)
    assert {"prompt_reads", "prompt_pack", "prompt_total"} <= set(block.results.trace["timings_ms"])


def test_every_retriever_of_the_table_says_how_it_went(memory: Memory) -> None:
    memory.add("Mia plays the cello", user_id="u")
    query = "user: hello\nassistant: hi, how can I help?\nuser: who plays the cello?"
    paths = memory.search(query, user_id="u", trace=True).trace["paths"]
    assert {r.name for r in RETRIEVERS} <= set(paths)
    assert paths["bm25"] == paths["vector"] == paths["bm25_focus"] == "ran"
    single = memory.search("cello", user_id="u", trace=True).trace["paths"]
    assert "bm25_focus" not in single and "vector_user" not in single  # nothing to search: no path at all


def test_the_word_searches_run_while_the_question_is_embedded_and_fuse_in_a_fixed_order(
    memory: Memory,
) -> None:
    memory.add("Mia plays the cello", user_id="u")
    order: list[str] = []
    waited: list[str] = []

    def pending() -> None:  # the query vector, awaited at its first use
        waited.append(order[-1] if order else "")
        return None

    def recorded(r: Retriever) -> Retriever:
        return Retriever(r.name, r.off, lambda s: order.append(r.name) or r.run(s))  # type: ignore[func-returns-value]

    probe = Probe(
        "u", analyze_query("who plays the cello?", T0), None, tuple(MemoryType), 5, get_recipe("hybrid")
    )
    with memory.runtime.db.connection() as conn:
        search = Search(conn, probe, memory.settings, Trace(False), pending=pending)
        memory._recall._run_table(tuple(recorded(r) for r in RETRIEVERS), search)
    assert order[:2] == ["bm25", "bm25_turns"] and waited == ["bm25_turns"]  # both before the wait
    assert set(FUSION_ORDER) >= {r.name for r in RETRIEVERS}  # a new retriever must take its place
    assert list(in_fusion_order(search.lists)) == [n for n in FUSION_ORDER if n in search.lists]
    assert list(in_fusion_order({"z": [], "bm25_turns": [], "y": [], "bm25": []})) == [
        "bm25",
        "bm25_turns",
        "z",
        "y",
    ]


def test_a_failing_retriever_costs_only_its_own_list(memory: Memory) -> None:
    memory.add("Mia plays the cello", user_id="u")

    def boom(search: Search) -> list[Any]:
        raise ValueError("broken on purpose")

    table = (
        Retriever("boom", lambda s: None, boom),
        Retriever("quiet", lambda s: NOT_APPLICABLE, boom),
        Retriever("switched", lambda s: "off", boom),
        next(r for r in RETRIEVERS if r.name == "bm25"),
    )
    trace = Trace(False)
    probe = Probe("u", analyze_query("cello", T0), None, tuple(MemoryType), 5, get_recipe("hybrid"))
    with memory.runtime.db.connection() as conn:
        search = Search(conn, probe, memory.settings, trace)
        memory._recall._run_table(table, search)
    assert trace.paths["boom"].startswith("failed: ValueError: broken on purpose")
    assert trace.paths["switched"] == "off" and "quiet" not in trace.paths
    assert trace.paths["bm25"] == "ran" and list(search.lists) == ["bm25"] and search.lists["bm25"]


@pytest.fixture
def clocked(memory: Memory) -> Iterator[Memory]:
    memory.runtime.clock = lambda: T0
    yield memory


def test_recall_reads_the_runtime_clock(clocked: Memory) -> None:
    added = clocked.add("Mia plays the cello", user_id="u")[0].memory
    results = clocked.search("what did Mia play yesterday", user_id="u", trace=True)
    assert results.trace["stages"]["query"]["reference"] == T0.isoformat()
    window = results.trace["stages"]["query"]["time"]
    assert window is not None and window["start"].startswith("2024-05-02")
    clocked.runtime.access.flush()
    assert clocked.get(added.id, user_id="u").last_accessed_at == T0


def test_recall_reads_statement_by_statement_and_gives_the_connection_back_as_it_was(memory: Memory) -> None:
    from neuromem.recall.reads import isolated, statements_on_their_own

    with memory.runtime.db.connection() as conn:
        assert not conn.autocommit
        with statements_on_their_own(conn):
            assert conn.autocommit
            with pytest.raises(psycopg.errors.UndefinedColumn), isolated(conn):
                conn.execute("SELECT no_such_column FROM memories")
            assert conn.execute("SELECT 1 AS one").fetchone() == {"one": 1}  # the failure cost nothing else
        assert not conn.autocommit
        conn.execute("SELECT 1")
        with statements_on_their_own(conn):  # inside a transaction: left as it is, savepoints do the work
            assert not conn.autocommit
            with pytest.raises(psycopg.errors.UndefinedColumn), isolated(conn):
                conn.execute("SELECT no_such_column FROM memories")
            assert conn.execute("SELECT 2 AS two").fetchone() == {"two": 2}
        conn.rollback()
