"""Concepts: related memories clustered into concept nodes linked by ``ABOUT`` (seed 003 §6.3
"语义聚类 … 生成/更新 Concept", §4 step 6 "社区发现/聚类 → 生成/更新 Concept 节点", R2G-2).

One run for one user (``consolidate_concepts``):

1. **A graph of memories.** Vertices: the newest ``concept_max_memories`` current facts and episodes,
   the entity nodes they mention and the concept nodes they are already ABOUT. Edges: memory ↔ memory
   between *mutual* k nearest neighbours (``concept_neighbours``) at cosine ≥ ``concept_similarity``
   (seed 003 §17's SIMILAR_TO θ, 0.75; mutual so that a dense embedding space does not chain everything),
   weighted by the cosine; SAME_AS (1.0) and SUPPORTS (0.8) links; memory → entity (MENTIONS, 0.6) for
   entities named by at most ``concept_entity_max_degree`` memories (hubs say nothing); memory → concept
   (ABOUT, 1.0).
2. **Communities** by weighted label propagation (Raghavan et al. 2007), asynchronous in a fixed
   order so that a run is deterministic.
3. **Concepts.** A community with at least ``concept_min_members`` memories becomes a concept: the
   concept node most of them are already ABOUT, else a node named after the entity most of them
   mention, else after their top keywords. Members not yet ABOUT it get the edge (weight = cosine to
   the centroid) and a ``LINK`` history row with actor ``consolidate:concepts``.
4. **Centroids.** Every concept node with current members gets the normalised mean of their vectors
   (``graph_nodes.embedding``): the concept recall route (``recall.concepts``) compares queries with it.

``dry_run=True`` returns the plan and writes nothing. Links are never removed by a run: a memory
that drifted away stays filed where it was (forgetting it removes its edges).
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..core import Runtime
from ..store import concepts as store
from ..store import consolidation, graph, history, memories
from ..store.graph import EdgeInput, NodeInput
from ..text.entities import normalize_entity_name
from ..text.keywords import keywords
from ..types import HistoryEvent

ACTOR = "consolidate:concepts"
MENTIONS_WEIGHT = 0.6  # seed 003 §15 leaves MENTIONS out; the recall recipes' default
ABOUT_WEIGHT = 1.0  # seed 003 §15


# --------------------------------------------------------------------------- pure parts


def mutual_neighbours(
    vectors: np.ndarray, has: np.ndarray, k: int, threshold: float, block: int = 512
) -> list[tuple[int, int, float]]:
    """Pairs ``(i, j, cosine)`` with ``i < j``, each among the other's ``k`` nearest and at cosine ≥ ``threshold``."""
    index = np.flatnonzero(has)
    if len(index) < 2:
        return []
    x = vectors[index]
    x = x / np.maximum(np.linalg.norm(x, axis=1, keepdims=True), 1e-12)
    k = min(k, len(index) - 1)
    nearest: list[dict[int, float]] = []
    for start in range(0, len(index), block):
        sims = x[start : start + block] @ x.T
        for r in range(sims.shape[0]):
            sims[r, start + r] = -np.inf
        top = np.argpartition(-sims, k - 1, axis=1)[:, :k]
        for r in range(sims.shape[0]):
            nearest.append({int(c): float(sims[r, c]) for c in top[r] if sims[r, c] >= threshold})
    pairs = []
    for a, near in enumerate(nearest):
        for b, sim in near.items():
            if a < b and a in nearest[b]:
                pairs.append((int(index[a]), int(index[b]), sim))
    return pairs


def label_propagation(n: int, edges: Sequence[tuple[int, int, float]], rounds: int = 30) -> list[int]:
    """Weighted label propagation: each vertex, in index order, takes the label of the heaviest
    neighbourhood (ties: the smallest label) until no label changes. Returns a label per vertex."""
    adjacent: list[list[tuple[int, float]]] = [[] for _ in range(n)]
    for a, b, w in edges:
        if a != b:
            adjacent[a].append((b, w))
            adjacent[b].append((a, w))
    labels = list(range(n))
    for _ in range(rounds):
        changed = False
        for v in range(n):
            if not adjacent[v]:
                continue
            score: dict[int, float] = {}
            for u, w in adjacent[v]:
                score[labels[u]] = score.get(labels[u], 0.0) + w
            best = min(score, key=lambda label: (-score[label], label))
            if score[best] > score.get(labels[v], 0.0) + 1e-12:
                labels[v] = best
                changed = True
        if not changed:
            break
    return labels


def centroid(vectors: np.ndarray) -> np.ndarray | None:
    if len(vectors) == 0:
        return None
    mean = vectors.mean(axis=0)
    norm = float(np.linalg.norm(mean))
    return None if norm == 0.0 else mean / norm


# --------------------------------------------------------------------------- the run


@dataclass(frozen=True, slots=True)
class ConceptGroup:
    name: str
    members: tuple[uuid.UUID, ...]
    new_links: tuple[uuid.UUID, ...]  # members that were not ABOUT it yet
    concept_id: uuid.UUID | None = None  # None: a new concept (in a dry run, not created)
    created: bool = False  # the run made the concept node


@dataclass(frozen=True, slots=True)
class ConceptReport:
    user_id: str
    dry_run: bool
    memories: int  # memories clustered
    groups: tuple[ConceptGroup, ...] = field(default_factory=tuple)
    centroids: int = 0  # concept nodes whose centroid was (re)computed

    @property
    def linked(self) -> int:
        return sum(len(g.new_links) for g in self.groups)

    @property
    def created(self) -> int:
        return sum(1 for g in self.groups if g.concept_id is None or g.created)


def consolidate_concepts(runtime: Runtime, user_id: str, *, dry_run: bool = False) -> ConceptReport:
    uid = user_id  # checked by the facade, or a stored user id from the sweep
    s = runtime.settings.lifecycle
    with runtime.db.transaction() as conn:
        data = store.cluster_input(conn, uid, s.concept_max_memories, runtime.dim)
        existing = store.concept_nodes(conn, uid)
        groups = _plan(data, existing, s)
        if dry_run:
            return ConceptReport(uid, True, len(data.ids), tuple(groups))
        done = [_apply(conn, uid, data, g) for g in groups]
        about = store.cluster_input(conn, uid, s.concept_max_memories, runtime.dim).about
        position = {mid: i for i, mid in enumerate(data.ids)}
        centroids = 0
        for node_id, members in about.items():
            rows = [position[m] for m in members if m in position and data.has_vector[position[m]]]
            vector = centroid(data.vectors[rows])
            store.set_concept(
                conn, uid, node_id, vector, runtime.dim, {"members": len(members), "consolidated_by": ACTOR}
            )
            centroids += vector is not None
    return ConceptReport(uid, False, len(data.ids), tuple(done), centroids)


def _plan(data: store.ClusterInput, existing: dict[uuid.UUID, Any], s: Any) -> list[ConceptGroup]:
    n = len(data.ids)
    position = {mid: i for i, mid in enumerate(data.ids)}
    edges = list(mutual_neighbours(data.vectors, data.has_vector, s.concept_neighbours, s.concept_similarity))
    extra: dict[uuid.UUID, int] = {}  # entity / concept node → its vertex

    def vertex(node: uuid.UUID) -> int:
        return extra.setdefault(node, n + len(extra))

    for a, b, w in data.links:
        edges.append((position[a], position[b], w))
    for entity, named in data.entities.items():
        if 2 <= len(named) <= s.concept_entity_max_degree:
            edges.extend((position[m], vertex(entity), MENTIONS_WEIGHT) for m in named)
    for concept, members in data.about.items():
        if concept in existing:
            edges.extend((position[m], vertex(concept), ABOUT_WEIGHT) for m in members if m in position)
    labels = label_propagation(n + len(extra), edges)
    communities: dict[int, list[int]] = {}
    for v in range(n):
        communities.setdefault(labels[v], []).append(v)
    groups = []
    for rows in communities.values():
        if len(rows) < s.concept_min_members:
            continue
        member_ids = [data.ids[r] for r in rows]
        concept_id, name = _name(data, existing, member_ids)
        linked = data.about.get(concept_id, set()) if concept_id is not None else set()
        groups.append(
            ConceptGroup(name, tuple(member_ids), tuple(m for m in member_ids if m not in linked), concept_id)
        )
    groups.sort(key=lambda g: (-len(g.members), g.name))
    return groups


def _name(
    data: store.ClusterInput, existing: dict[uuid.UUID, Any], members: list[uuid.UUID]
) -> tuple[uuid.UUID | None, str]:
    """The concept most members are already ABOUT, else a name from their most named entity or keywords."""
    wanted = set(members)
    best = max(existing, key=lambda c: (len(data.about.get(c, set()) & wanted), str(c)), default=None)
    if best is not None and 2 * len(data.about.get(best, set()) & wanted) >= len(wanted):
        return best, str(existing[best]["name"])
    counts = Counter({e: len(wanted.intersection(named)) for e, named in data.entities.items()})
    entity, hits = counts.most_common(1)[0] if counts else (None, 0)
    if entity is not None and 2 * hits >= len(wanted):
        name = data.entity_names[entity]
    else:
        text = "\n".join(c for mid, c in zip(data.ids, data.contents, strict=True) if mid in wanted)
        name = " · ".join(keywords(text, 2)) or "topic"
    normalized = normalize_entity_name(name)
    for node_id, node in existing.items():
        if node["normalized_name"] == normalized:
            return node_id, str(node["name"])
    return None, name


def _apply(conn: Any, uid: str, data: store.ClusterInput, group: ConceptGroup) -> ConceptGroup:
    concept_id = group.concept_id
    if concept_id is None:
        key = normalize_entity_name(group.name) or group.name.casefold()
        concept_id = graph.upsert_nodes(conn, uid, [NodeInput(store.CONCEPT, group.name, key)])[
            (store.CONCEPT, key)
        ]
    if group.new_links:
        graph.add_edges(
            conn,
            uid,
            [
                EdgeInput(m, "memory", concept_id, "node", "ABOUT", properties={"by": ACTOR})
                for m in group.new_links
            ],
        )
        for record in memories.get_many(conn, uid, group.new_links).values():
            history.record(
                conn,
                HistoryEvent.LINK,
                old=record,
                new=record,
                actor=ACTOR,
                extra={"concept_id": str(concept_id), "concept": group.name},
            )
    return ConceptGroup(
        group.name, group.members, group.new_links, concept_id, created=group.concept_id is None
    )


def concepts_job(
    runtime: Runtime, now: dt.datetime, *, dry_run: bool = False, users: int = 100
) -> dict[str, int]:
    """The scheduled form (seed 003 §6.3 "睡眠巩固": an off-peak batch): every user with current
    facts or episodes, up to ``users`` per run; returns the new links per user (that would be made,
    with ``dry_run``)."""
    with runtime.db.connection() as conn:
        found = consolidation.users_with_current(conn, users)
    return {u: consolidate_concepts(runtime, u, dry_run=dry_run).linked for u in found}


__all__ = [
    "ACTOR",
    "ConceptGroup",
    "ConceptReport",
    "centroid",
    "concepts_job",
    "consolidate_concepts",
    "label_propagation",
    "mutual_neighbours",
]
