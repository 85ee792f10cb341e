"""Concepts (seed 003 §6.3): clustering into concept nodes linked by ABOUT, and the concept recall route."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import numpy as np

from neuromem import Memory
from neuromem.embed.base import Embedder, EmbedKind
from neuromem.lifecycle.concepts import centroid, label_propagation, mutual_neighbours
from neuromem.recall.recipes import HYBRID, derive
from neuromem.store import graph

U = "clusterer"
COFFEE = [
    "I drink espresso every morning",
    "My favourite coffee beans come from Ethiopia",
    "I grind coffee beans before brewing espresso",
    "A flat white is my afternoon coffee",
]
CLIMBING = [
    "I go bouldering at the climbing gym on Tuesdays",
    "My climbing shoes are too tight",
    "I climbed my first 6a route at the climbing gym",
]


def test_mutual_neighbours_and_label_propagation_find_two_groups() -> None:
    rng = np.random.default_rng(7)
    a, b = rng.normal(size=16), rng.normal(size=16)
    vectors = np.stack(
        [a + 0.05 * rng.normal(size=16) for _ in range(4)]
        + [b + 0.05 * rng.normal(size=16) for _ in range(3)]
    ).astype(np.float32)
    has = np.ones(7, dtype=bool)
    pairs = mutual_neighbours(vectors, has, k=3, threshold=0.9)
    assert pairs and all((i < 4) == (j < 4) for i, j, _ in pairs)  # never across the two groups
    labels = label_propagation(7, pairs)
    assert len(set(labels[:4])) == 1 and len(set(labels[4:])) == 1 and labels[0] != labels[4]
    assert mutual_neighbours(vectors, np.zeros(7, dtype=bool), 3, 0.0) == []
    assert label_propagation(3, []) == [0, 1, 2]  # lonely vertices keep their own label
    c = centroid(vectors[:4])
    assert c is not None and abs(float(np.linalg.norm(c)) - 1.0) < 1e-5


class TopicEmbedder(Embedder):
    """A deterministic fake: a text's vector is its topic's axis (coffee, climbing, else a third)
    plus a small hash-seeded wobble, so that topics are clusters the way a real model makes them."""

    name = "topic-fake"

    def __init__(self, dim: int) -> None:
        self.dim = dim

    def embed_batch(self, texts: Sequence[str], *, kind: EmbedKind) -> np.ndarray:
        rows = []
        for text in texts:
            low = text.lower()
            axis = (
                0
                if ("coffee" in low or "espresso" in low)
                else 1
                if "climb" in low or "boulder" in low
                else 2
            )
            seed = int(hashlib.sha256(text.encode()).hexdigest()[:8], 16)
            v = 0.05 * np.random.default_rng(seed).normal(size=self.dim)
            v[axis] += 1.0
            rows.append(v / np.linalg.norm(v))
        return np.asarray(rows, dtype=np.float32)


def test_concepts_are_formed_linked_in_history_and_recalled(settings, memctl) -> None:  # type: ignore[no-untyped-def]
    with Memory(settings, embedder=TopicEmbedder(settings.store.embedding_dim)) as memory:
        _concepts(memory, memctl)


def _concepts(memory: Memory, memctl) -> None:  # type: ignore[no-untyped-def]
    ids = {}
    for text in COFFEE + CLIMBING:
        [w] = memory.add(text, user_id=U)
        ids[text] = w.memory.id
    [loner] = memory.add("The dentist appointment is on the 3rd", user_id=U)
    out = memctl("concepts", "-u", U, "--dry-run")
    assert out.exit_code == 0 and "would link" in out.output, out.output
    with memory.runtime.db.connection() as conn:
        assert graph.nodes(conn, U, node_type="concept") == []  # a dry run writes nothing

    report = memory.consolidate_concepts(user_id=U)
    assert report.groups and report.linked >= 3
    by_member = {m: g for g in report.groups for m in g.members}
    assert loner.memory.id not in by_member
    for group in report.groups:  # a group never mixes the two topics
        texts = {t for t, i in ids.items() if i in group.members}
        assert texts <= set(COFFEE) or texts <= set(CLIMBING)
    linked = next(iter(report.groups[0].new_links))
    last = memory.history(linked, user_id=U)[-1]
    assert last.event == "LINK" and last.actor == "consolidate:concepts"
    assert last.new_metadata["concept_id"] == str(report.groups[0].concept_id)
    with memory.runtime.db.connection() as conn:
        concepts = graph.nodes(conn, U, node_type="concept")
        about = graph.edges(conn, U, edge_type="ABOUT")
    assert {c["id"] for c in concepts} >= {g.concept_id for g in report.groups}
    assert {e["source_id"] for e in about} >= set(report.groups[0].members)
    again = memory.consolidate_concepts(user_id=U)
    assert again.linked == 0 and again.created == 0  # idempotent

    # the route: a query near the concept reaches its members through it
    group = report.groups[0]
    only_route = derive(
        HYBRID,
        "concepts-only",
        use_bm25=False,
        use_vector=False,
        use_traits=False,
        use_raw=False,
        focus_lines=0,
        user_view=False,
        linear_weights={"concepts": 1.0},
        concept_k=1,
        use_concepts=True,
    )
    query = next(t for t, i in ids.items() if i == group.members[0])
    hits = memory.search(query, user_id=U, recipe=only_route, trace=True)
    assert hits and {h.memory.id for h in hits} <= set(group.members)
    assert all("concepts" in h.retrievers for h in hits)
    memory.delete(group.members[0], user_id=U)
    assert group.members[0] not in {h.memory.id for h in memory.search(query, user_id=U, recipe=only_route)}
    filtered = memory.search(query, user_id=U, recipe=only_route, filters={"tags": "none-such"})
    assert list(filtered) == []
