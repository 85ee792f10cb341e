"""SQL of concepts (seed 003 §6.3 consolidation, R2G-2 "Concept … 由巩固阶段生成"): what clustering
reads (vectors, entity mentions, memory links, ABOUT links), concept nodes with their centroid, and
the concept recall route (memories ABOUT the concepts nearest a query). The caller owns the transaction."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from psycopg import sql
from psycopg.types.json import Jsonb

from ..types import MemoryType
from .db import Conn
from .filters import CompiledFilter
from .sql_parts import recall_scope_sql
from .vectors import from_halfvec_send, to_halfvec

CONCEPT = "concept"
#: memory ↔ memory links that join two memories in one topic, with seed 003 §15's edge weights
MEMORY_LINKS = {"SAME_AS": 1.0, "SUPPORTS": 0.8}


@dataclass(frozen=True, slots=True)
class ClusterInput:
    ids: list[uuid.UUID]
    vectors: np.ndarray  # one row per id (zeros without a vector)
    has_vector: np.ndarray  # bool per id
    contents: list[str]
    entities: dict[uuid.UUID, list[uuid.UUID]]  # entity node → the memories naming it
    entity_names: dict[uuid.UUID, str]
    links: list[tuple[uuid.UUID, uuid.UUID, float]]  # SAME_AS / SUPPORTS between memories
    about: dict[uuid.UUID, set[uuid.UUID]]  # concept node → its current members among ``ids``


CLUSTER_MEMORIES = """SELECT id, content, halfvec_send(embedding) AS v FROM memories
           WHERE user_id = %s AND memory_type IN ('fact', 'episodic') AND expired_at IS NULL
           ORDER BY created_at DESC, id LIMIT %s"""
CLUSTER_EDGES = """SELECT e.source_id, e.target_id, e.edge_type, e.target_kind, n.node_type, n.name
           FROM graph_edges e LEFT JOIN graph_nodes n ON n.user_id = e.user_id AND n.id = e.target_id
                                                     AND e.target_kind = 'node' AND n.expired_at IS NULL
           WHERE e.user_id = %s AND e.expired_at IS NULL AND e.source_kind = 'memory' AND e.source_id = ANY(%s)
             AND e.edge_type = ANY(%s)"""


def cluster_input(conn: Conn, user_id: str, limit: int, dim: int) -> ClusterInput:
    """The newest ``limit`` current facts and episodes of a user with what clustering needs."""
    rows = conn.execute(CLUSTER_MEMORIES, (user_id, limit)).fetchall()
    ids = [r["id"] for r in rows]
    vectors = np.zeros((len(rows), dim), dtype=np.float32)
    has = np.zeros(len(rows), dtype=bool)
    for i, r in enumerate(rows):
        v = from_halfvec_send(r["v"])
        if v is not None and v.shape[0] == dim:
            vectors[i], has[i] = v, True
    edges = conn.execute(
        CLUSTER_EDGES,
        (user_id, ids, ["MENTIONS", "ABOUT", *MEMORY_LINKS]),
    ).fetchall()
    known = set(ids)
    entities: dict[uuid.UUID, list[uuid.UUID]] = {}
    names: dict[uuid.UUID, str] = {}
    about: dict[uuid.UUID, set[uuid.UUID]] = {}
    links = []
    for e in edges:
        if e["edge_type"] == "MENTIONS" and e["node_type"] is not None:
            entities.setdefault(e["target_id"], []).append(e["source_id"])
            names[e["target_id"]] = e["name"]
        elif e["edge_type"] == "ABOUT" and e["node_type"] == CONCEPT:
            about.setdefault(e["target_id"], set()).add(e["source_id"])
        elif e["edge_type"] in MEMORY_LINKS and e["target_id"] in known:
            links.append((e["source_id"], e["target_id"], MEMORY_LINKS[e["edge_type"]]))
    return ClusterInput(ids, vectors, has, [r["content"] for r in rows], entities, names, links, about)


CONCEPT_NODES = """SELECT id, name, normalized_name, properties FROM graph_nodes
           WHERE user_id = %s AND node_type = 'concept' AND expired_at IS NULL"""


def concept_nodes(conn: Conn, user_id: str) -> dict[uuid.UUID, dict[str, Any]]:
    rows = conn.execute(CONCEPT_NODES, (user_id,)).fetchall()
    return {r["id"]: r for r in rows}


SET_CONCEPT = """UPDATE graph_nodes SET embedding = %s::halfvec, properties = properties || %s, updated_at = now()
           WHERE user_id = %s AND id = %s"""


def set_concept(
    conn: Conn,
    user_id: str,
    node_id: uuid.UUID,
    centroid: np.ndarray | None,
    dim: int,
    properties: dict[str, Any],
) -> None:
    conn.execute(
        SET_CONCEPT,
        (None if centroid is None else to_halfvec(centroid, dim), Jsonb(properties), user_id, node_id),
    )


@dataclass(frozen=True, slots=True)
class ConceptHit:
    id: uuid.UUID
    score: float


def concept_route(
    conn: Conn,
    user_id: str,
    vector: np.ndarray,
    dim: int,
    types: Sequence[MemoryType],
    *,
    concepts: int,
    limit: int,
    as_of: Any = None,
    valid_at: Any = None,
    where: CompiledFilter | None = None,
) -> list[ConceptHit]:
    """Memories ABOUT the ``concepts`` concept nodes nearest the query, scored by the query's similarity
    to the concept times the member's similarity to it, best first. Recall's scope applies (a deleted
    or archived row never comes back), with its filters."""
    params: dict[str, Any] = {
        "v": to_halfvec(vector, dim),
        "u": user_id,
        "nc": concepts,
        "n": limit,
        "types": [str(t) for t in types],
    }
    clauses = [recall_scope_sql(as_of, valid_at, params)]
    if where is not None:
        clauses.append(where.clause)
        params.update(where.params)
    rows = conn.execute(CONCEPT_ROUTE.format(scope=sql.SQL(" AND ").join(clauses)), params).fetchall()
    return [ConceptHit(r["id"], float(r["score"])) for r in rows]


CONCEPT_ROUTE = sql.SQL(
    """WITH c AS (SELECT id, embedding, 1 - (embedding <=> %(v)s::halfvec) AS sim FROM graph_nodes
                       WHERE user_id = %(u)s AND node_type = 'concept' AND expired_at IS NULL
                         AND embedding IS NOT NULL
                       ORDER BY embedding <=> %(v)s::halfvec LIMIT %(nc)s),
                 about AS (SELECT e.source_id AS member, c.sim AS concept_sim, c.embedding AS centroid
                           FROM c JOIN graph_edges e ON e.user_id = %(u)s AND e.target_id = c.id
                                                    AND e.edge_type = 'ABOUT' AND e.expired_at IS NULL)
            SELECT m.id, max(about.concept_sim * (1 - (m.embedding <=> about.centroid))) AS score
            FROM memories m JOIN about ON about.member = m.id
            WHERE m.user_id = %(u)s AND m.memory_type = ANY(%(types)s) AND m.embedding IS NOT NULL
              AND {scope}
            GROUP BY m.id ORDER BY score DESC, m.id LIMIT %(n)s"""
)
