"""Graph links of written memories (seed 003 §2.2, R2G-2/3/5).

MENTIONS memory → entity node (deduplicated per user by normalised name and type,
aliases kept); relation edges (``works_at``, ``lives_in``…) from the user's node to an
entity, bitemporal, a single-valued one ending the previous value; ABOUT memory →
concept node when a topic is known; DERIVED_FROM memory → the ``raw_chunk`` node of its
source words (the edge carries the ``raw_refs`` item); TEMPORAL_NEXT between the
episodes of a session in order; SUPPORTS / CONTRADICTS new fact → old fact.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..store import graph
from ..store.db import Conn
from ..store.graph import EdgeInput, NodeInput
from ..text.entities import normalize_entity_name
from ..types import MemoryRecord, MemoryType
from .candidates import Candidate

SINGLE_VALUED_RELATIONS = frozenset({"works_at", "lives_in", "married_to", "studies_at"})
USER_NODE_TYPE = "user"
RAW_CHUNK_NODE_TYPE = "raw_chunk"
CONCEPT_NODE_TYPE = "concept"


@dataclass
class Linker:
    """Collects the links of one ingest batch; ``previous_episode`` threads TEMPORAL_NEXT."""

    user_id: str
    previous_episode: uuid.UUID | None = None
    edges_written: int = 0
    _user_node: uuid.UUID | None = field(default=None, repr=False)

    def link(
        self,
        conn: Conn,
        memory: MemoryRecord,
        candidate: Candidate,
        raw_ref: dict[str, Any],
        *,
        contradicted: Sequence[MemoryRecord] = (),
        supported: Sequence[MemoryRecord] = (),
    ) -> None:
        nodes: list[NodeInput] = [
            NodeInput(e.type, e.name, e.normalized) for e in candidate.entities if e.normalized
        ]
        nodes.append(NodeInput(RAW_CHUNK_NODE_TYPE, raw_ref["sha256"], raw_ref["sha256"]))
        topic = normalize_entity_name(candidate.topic) if candidate.topic else ""
        if topic:
            nodes.append(NodeInput(CONCEPT_NODE_TYPE, candidate.topic or topic, topic))
        rel = candidate.relation
        if rel is not None and rel.object.normalized:
            nodes.append(NodeInput(rel.object.type, rel.object.name, rel.object.normalized))
        ids = graph.upsert_nodes(conn, self.user_id, _unique(nodes))
        when = memory.valid_at
        mem = memory.id
        edges = [
            EdgeInput(mem, "memory", ids[(e.type, e.normalized)], "node", "MENTIONS", valid_at=when)
            for e in candidate.entities
            if e.normalized
        ]
        edges.append(
            EdgeInput(
                mem,
                "memory",
                ids[(RAW_CHUNK_NODE_TYPE, raw_ref["sha256"])],
                "node",
                "DERIVED_FROM",
                properties={"raw_ref": raw_ref},
            )
        )
        if topic:
            edges.append(
                EdgeInput(mem, "memory", ids[(CONCEPT_NODE_TYPE, topic)], "node", "ABOUT", valid_at=when)
            )
        if rel is not None and rel.object.normalized:
            target = ids[(rel.object.type, rel.object.normalized)]
            user_node = self._user(conn)
            if rel.predicate in SINGLE_VALUED_RELATIONS and when is not None:
                graph.invalidate_relations(
                    conn, self.user_id, user_node, rel.predicate, keep_target=target, at=when
                )
            edges.append(
                EdgeInput(
                    user_node,
                    "node",
                    target,
                    "node",
                    rel.predicate,
                    valid_at=when,
                    properties={"memory_id": str(mem)},
                )
            )
        if memory.memory_type is MemoryType.EPISODIC:
            if self.previous_episode is not None and self.previous_episode != mem:
                edges.append(EdgeInput(self.previous_episode, "memory", mem, "memory", "TEMPORAL_NEXT"))
            self.previous_episode = mem
        for old in contradicted:
            edges.append(
                EdgeInput(
                    mem,
                    "memory",
                    old.id,
                    "memory",
                    "CONTRADICTS",
                    valid_at=when,
                    properties={"slot": candidate.slot},
                )
            )
        for old in supported:
            if old.id != mem:
                edges.append(
                    EdgeInput(
                        mem,
                        "memory",
                        old.id,
                        "memory",
                        "SUPPORTS",
                        valid_at=when,
                        properties={"slot": candidate.slot},
                    )
                )
        self.edges_written += graph.add_edges(conn, self.user_id, edges)

    def same_as(self, conn: Conn, memory: MemoryRecord, others: Sequence[tuple[MemoryRecord, float]]) -> None:
        """SAME_AS between an episode and earlier episodes of the same event (seed 003 R2G-5)."""
        edges = [
            EdgeInput(
                memory.id,
                "memory",
                other.id,
                "memory",
                "SAME_AS",
                weight=similarity,
                confidence=similarity,
                valid_at=memory.valid_at,
            )
            for other, similarity in others
            if other.id != memory.id
        ]
        self.edges_written += graph.add_edges(conn, self.user_id, edges)

    def _user(self, conn: Conn) -> uuid.UUID:
        if self._user_node is None:
            key = normalize_entity_name(self.user_id)
            ids = graph.upsert_nodes(conn, self.user_id, [NodeInput(USER_NODE_TYPE, self.user_id, key)])
            self._user_node = ids[(USER_NODE_TYPE, key)]
        return self._user_node


def _unique(nodes: list[NodeInput]) -> list[NodeInput]:
    seen: dict[tuple[str, str], NodeInput] = {}
    for n in nodes:
        seen.setdefault((n.node_type, n.normalized_name), n)
    return list(seen.values())
