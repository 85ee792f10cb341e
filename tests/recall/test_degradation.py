"""The degradation matrix of seed 003 §18, row by row: recall answers with what is left
and the trace says which path ran."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np
import pytest

from neuromem import Memory, Settings
from neuromem.embed import HashingEmbedder
from neuromem.errors import EmbedderError
from neuromem.recall.recipes import HYBRID_CONTEXT, HYBRID_RRF, derive
from neuromem.types import MemoryType
from tests.conftest import TEST_DIM
from tests.recall.helpers import insert_memory, link


class SwitchableEmbedder(HashingEmbedder):
    """A real hashing embedder whose query side can be switched off (the provider is 'down')."""

    down = False

    def embed_batch(self, texts: Sequence[str], *, kind: str) -> np.ndarray:  # type: ignore[override]
        if self.down and kind == "query":
            raise EmbedderError("embedding service unavailable")
        return super().embed_batch(texts, kind=kind)  # type: ignore[arg-type]


@pytest.fixture
def switchable(settings: Settings) -> Iterator[tuple[Memory, SwitchableEmbedder]]:
    embedder = SwitchableEmbedder(dim=TEST_DIM)
    m = Memory(settings, embedder=embedder)
    yield m, embedder
    m.close()


def _corpus(memory: Memory) -> dict[str, object]:
    a = insert_memory(memory, "u", "the espresso machine broke on Monday", memory_type=MemoryType.EPISODIC)
    b = insert_memory(memory, "u", "ordered a replacement part online", memory_type=MemoryType.EPISODIC)
    link(memory, "u", a.id, b.id, "TEMPORAL_NEXT")
    return {"a": a, "b": b}


def test_all_available_runs_every_stage(switchable: tuple[Memory, SwitchableEmbedder]) -> None:
    memory, _ = switchable
    rows = _corpus(memory)
    results = memory.search("espresso machine", user_id="u", trace=True, recipe=HYBRID_RRF)
    paths = results.trace["paths"]
    assert paths["bm25"] == paths["vector"] == paths["graph"] == paths["traits"] == "ran"
    assert results[0].memory.id == rows["a"].id  # type: ignore[attr-defined]
    default = memory.search("espresso machine", user_id="u", trace=True)  # linear fusion, graph walk off
    assert default.trace["paths"]["graph"] == "off"
    assert default.trace["paths"]["bm25"] == default.trace["paths"]["vector"] == "ran"
    assert default[0].memory.id == rows["a"].id  # type: ignore[attr-defined]


def test_embedder_down_falls_back_to_bm25_and_graph(switchable: tuple[Memory, SwitchableEmbedder]) -> None:
    memory, embedder = switchable
    rows = _corpus(memory)
    embedder.down = True
    results = memory.search("espresso machine", user_id="u", trace=True, recipe=HYBRID_RRF)
    paths = results.trace["paths"]
    assert paths["vector"].startswith("skipped") and "vector" in results.trace["degraded"]
    assert paths["bm25"] == "ran" and paths["graph"] == "ran"
    ids = [h.memory.id for h in results]
    assert ids[0] == rows["a"].id  # type: ignore[attr-defined]
    assert rows["b"].id in ids  # type: ignore[attr-defined]  # reached through the graph only
    assert all("vector" not in h.retrievers for h in results)


def test_vector_index_off_by_recipe(memory: Memory) -> None:
    rows = _corpus(memory)
    results = memory.search(
        "espresso machine", user_id="u", trace=True, recipe=derive(HYBRID_RRF, use_vector=False)
    )
    assert results.trace["paths"]["vector"] == "off"
    assert results[0].memory.id == rows["a"].id  # type: ignore[attr-defined]


def test_graph_under_maintenance_keeps_bm25_and_vector(memory: Memory) -> None:
    rows = _corpus(memory)
    with memory.runtime.db.transaction() as conn:
        conn.execute("ALTER TABLE graph_edges RENAME TO graph_edges_maintenance")
    context = memory.search("espresso machine", user_id="u", trace=True, recipe=HYBRID_CONTEXT)
    assert context.trace["paths"]["neighbours"].startswith("failed") and context[0].memory.id == rows["a"].id  # type: ignore[attr-defined]
    results = memory.search("espresso machine", user_id="u", trace=True, recipe=HYBRID_RRF)
    paths = results.trace["paths"]
    assert paths["graph"].startswith("failed") and paths["bm25"] == paths["vector"] == "ran"
    assert results[0].memory.id == rows["a"].id  # type: ignore[attr-defined]
    graph_off = memory.search(
        "espresso machine", user_id="u", trace=True, recipe=derive(HYBRID_RRF, use_graph=False)
    )
    assert graph_off.trace["paths"]["graph"] == "off"


def test_full_text_off_still_answers_by_vector(memory: Memory) -> None:
    rows = _corpus(memory)
    results = memory.search(
        "espresso machine", user_id="u", trace=True, recipe=derive(HYBRID_RRF, use_bm25=False)
    )
    assert results.trace["paths"]["bm25"] == "off" and results.trace["paths"]["vector"] == "ran"
    assert results[0].memory.id == rows["a"].id  # type: ignore[attr-defined]


def test_full_text_broken_is_reported_and_survived(memory: Memory) -> None:
    rows = _corpus(memory)
    with memory.runtime.db.transaction() as conn:  # BM25 reads token_count: take it away
        conn.execute("ALTER TABLE memories RENAME COLUMN token_count TO token_count_x")
    results = memory.search(
        "espresso machine", user_id="u", trace=True, recipe=derive(HYBRID_RRF, use_graph=False)
    )
    assert results.trace["paths"]["bm25"].startswith("failed")
    assert results[0].memory.id == rows["a"].id  # type: ignore[attr-defined]


def test_keywords_only_extreme_case(switchable: tuple[Memory, SwitchableEmbedder]) -> None:
    memory, embedder = switchable
    rows = _corpus(memory)
    embedder.down = True
    results = memory.search(
        "espresso machine", user_id="u", trace=True, recipe=derive(HYBRID_RRF, use_graph=False)
    )
    assert results.trace["paths"]["bm25"] == "ran"
    assert set(results.trace["degraded"]) >= {"vector", "graph"}
    assert results[0].memory.id == rows["a"].id  # type: ignore[attr-defined]
    assert results[0].retrievers == ("bm25",)


def test_users_own_lines_degrade_with_their_retrievers(switchable: tuple[Memory, SwitchableEmbedder]) -> None:
    memory, embedder = switchable
    rows = _corpus(memory)
    query = "Ann: the espresso machine\nAssistant: oh no\nAnn: it broke again"
    embedder.down = True
    results = memory.search(query, user_id="u", trace=True)
    paths = results.trace["paths"]
    assert paths["vector_user"].startswith("skipped") and paths["bm25_user"] == "ran"
    assert results[0].memory.id == rows["a"].id  # type: ignore[attr-defined]
    embedder.down = False
    with memory.runtime.db.transaction() as conn:  # every BM25 list fails: the user view's too
        conn.execute("ALTER TABLE memories RENAME COLUMN token_count TO token_count_x")
    broken = memory.search(query, user_id="u", trace=True)
    assert (
        broken.trace["paths"]["bm25_user"].startswith("failed")
        and broken.trace["paths"]["vector_user"] == "ran"
    )
    assert broken[0].memory.id == rows["a"].id  # type: ignore[attr-defined]
