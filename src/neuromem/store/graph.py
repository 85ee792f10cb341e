"""SQL over ``graph_nodes`` and ``graph_edges`` (seed 000 §4.1, seed 003 §2.2, R2G-2/3/5).

Nodes are entities (and concepts), unique per ``(user_id, node_type, normalized_name)``;
an upsert counts the mention and keeps every surface form in ``aliases``. Edges join
memories and nodes (``source_kind`` / ``target_kind`` = ``'memory'`` | ``'node'``) and are
bitemporal: ``valid_at`` / ``invalid_at`` in event time, ``expired_at`` when retracted.
At most one current edge per (source, target, type); adding it again raises its weight.
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from psycopg import sql
from psycopg.types.json import Jsonb

from ..ids import uuid7
from .db import Conn

Kind = Literal["memory", "node"]


@dataclass(frozen=True, slots=True)
class NodeInput:
    node_type: str
    name: str
    normalized_name: str


@dataclass(frozen=True, slots=True)
class EdgeInput:
    source_id: uuid.UUID
    source_kind: Kind
    target_id: uuid.UUID
    target_kind: Kind
    edge_type: str
    weight: float = 1.0
    confidence: float = 1.0
    valid_at: dt.datetime | None = None
    invalid_at: dt.datetime | None = None
    properties: dict[str, Any] = field(default_factory=dict)


UPSERT_NODES = """INSERT INTO graph_nodes (id, user_id, node_type, name, normalized_name, aliases, mention_count)
                   VALUES (%s, %s, %s, %s, %s, ARRAY[%s], 1)
                   ON CONFLICT (user_id, node_type, normalized_name) DO UPDATE SET
                       mention_count = graph_nodes.mention_count + 1,
                       updated_at = %s,  -- the clock as a parameter: Citus allows only immutable functions here
                       -- a new mention brings an archived node back (seed 003 §6.4, lifecycle.archive)
                       expired_at = CASE WHEN graph_nodes.archived_at IS NULL THEN graph_nodes.expired_at END,
                       archived_at = NULL,
                       aliases = CASE WHEN %s = ANY(graph_nodes.aliases) THEN graph_nodes.aliases
                                      ELSE array_append(graph_nodes.aliases, %s) END
                   RETURNING id"""


def upsert_nodes(conn: Conn, user_id: str, nodes: Sequence[NodeInput]) -> dict[tuple[str, str], uuid.UUID]:
    """Create or update entity nodes; returns ids by ``(node_type, normalized_name)``.

    Each input counts as one mention; a new surface form joins ``aliases``.
    """
    out: dict[tuple[str, str], uuid.UUID] = {}
    now = dt.datetime.now(dt.UTC)
    with conn.cursor() as cur:
        for n in nodes:
            cur.execute(
                UPSERT_NODES,
                (uuid7(), user_id, n.node_type[:30], n.name, n.normalized_name, n.name, now, n.name, n.name),
            )
            row = cur.fetchone()
            assert row is not None
            out[(n.node_type, n.normalized_name)] = row["id"]
    return out


ADD_EDGES = """INSERT INTO graph_edges (id, user_id, source_id, source_kind, target_id, target_kind, edge_type,
                                        weight, confidence, properties, valid_at, invalid_at)
               VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)
               ON CONFLICT (user_id, source_id, target_id, edge_type) WHERE expired_at IS NULL
               DO UPDATE SET weight = graph_edges.weight + EXCLUDED.weight,
                             confidence = greatest(graph_edges.confidence, EXCLUDED.confidence)"""


def add_edges(conn: Conn, user_id: str, edges: Sequence[EdgeInput]) -> int:
    """Insert edges; an existing current edge with the same (source, target, type) gains weight instead."""
    if not edges:
        return 0
    with conn.cursor() as cur:
        cur.executemany(
            ADD_EDGES,
            [
                (
                    uuid7(),
                    user_id,
                    e.source_id,
                    e.source_kind,
                    e.target_id,
                    e.target_kind,
                    e.edge_type[:30],
                    e.weight,
                    e.confidence,
                    Jsonb(e.properties),
                    e.valid_at,
                    e.invalid_at,
                )
                for e in edges
            ],
        )
    return len(edges)


INVALIDATE_RELATIONS = """UPDATE graph_edges SET invalid_at = %s
           WHERE user_id = %s AND source_id = %s AND edge_type = %s AND target_id <> %s
             AND expired_at IS NULL AND invalid_at IS NULL"""


def invalidate_relations(
    conn: Conn, user_id: str, source_id: uuid.UUID, edge_type: str, *, keep_target: uuid.UUID, at: dt.datetime
) -> int:
    """End (``invalid_at``) the current relation edges of one type from a node, except to ``keep_target``.

    Used when a fact contradicts an older one (a new employer ends ``works_at`` the old one).
    """
    cur = conn.execute(
        INVALIDATE_RELATIONS,
        (at, user_id, source_id, edge_type, keep_target),
    )
    return cur.rowcount


EXPIRE_EDGES_OF = """UPDATE graph_edges SET expired_at = now()
           WHERE user_id = %s AND expired_at IS NULL AND (source_id = ANY(%s) OR target_id = ANY(%s))"""


def expire_edges_of(conn: Conn, user_id: str, ids: Sequence[uuid.UUID]) -> int:
    """Retract every current edge touching the given memories or nodes."""
    cur = conn.execute(EXPIRE_EDGES_OF, (user_id, list(ids), list(ids)))
    return cur.rowcount


EDGES = sql.SQL(
    """SELECT id, source_id, source_kind, target_id, target_kind, edge_type, weight, confidence,
              properties, valid_at, invalid_at, created_at, expired_at
       FROM graph_edges WHERE {where} ORDER BY created_at, id"""
)
_OF_USER = sql.SQL("user_id = %s")
_TOUCHING = sql.SQL("(source_id = %s OR target_id = %s)")
_OF_TYPE = sql.SQL("edge_type = %s")
_CURRENT = sql.SQL("expired_at IS NULL")


def edges(
    conn: Conn,
    user_id: str,
    *,
    touching: uuid.UUID | None = None,
    edge_type: str | None = None,
    include_expired: bool = False,
) -> list[dict[str, Any]]:
    clauses: list[sql.Composable] = [_OF_USER]
    params: list[Any] = [user_id]
    if touching is not None:
        clauses.append(_TOUCHING)
        params += [touching, touching]
    if edge_type is not None:
        clauses.append(_OF_TYPE)
        params.append(edge_type)
    if not include_expired:
        clauses.append(_CURRENT)
    return conn.execute(EDGES.format(where=sql.SQL(" AND ").join(clauses)), params).fetchall()


_CURRENT_NODES = sql.SQL(
    """SELECT id, node_type, name, normalized_name, aliases, mention_count, properties
       FROM graph_nodes WHERE user_id = %s AND expired_at IS NULL{of_type} ORDER BY name"""
)
CURRENT_NODES_OF_TYPE = _CURRENT_NODES.format(of_type=sql.SQL(" AND node_type = %s"))
CURRENT_NODES = _CURRENT_NODES.format(of_type=sql.SQL(""))


def nodes(conn: Conn, user_id: str, *, node_type: str | None = None) -> list[dict[str, Any]]:
    if node_type is None:
        return conn.execute(CURRENT_NODES, (user_id,)).fetchall()
    return conn.execute(CURRENT_NODES_OF_TYPE, (user_id, node_type)).fetchall()
