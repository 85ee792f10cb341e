"""``Memory.related``: a memory's neighbours in the graph and the kinds of the edges to them
(issue 26 item 4; seed 003 §2.2's typed edges: MENTIONS, ABOUT, SIMILAR_TO, SUPPORTS,
CONTRADICTS, DERIVED_FROM, TEMPORAL_NEXT, SAME_AS…).

Edges are read as they are now (expired ones left out); a neighbour that is a soft-deleted memory
is left out too, as recall leaves it out.
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections import Counter
from dataclasses import dataclass
from typing import Literal

from ..core import Runtime
from ..errors import MemoryNotFoundError
from ..store import memories
from ..store import related as related_sql
from ..types import MemoryRecord


@dataclass(frozen=True, slots=True)
class Neighbour:
    """One edge from (``direction="out"``) or to (``"in"``) the memory, and what is at its other end:
    a memory (``memory``) or a graph node (``node_type`` and ``name``: an entity, a concept…)."""

    edge_type: str
    direction: Literal["out", "in"]
    kind: Literal["memory", "node"]
    id: uuid.UUID
    weight: float
    confidence: float
    valid_at: dt.datetime | None
    invalid_at: dt.datetime | None
    memory: MemoryRecord | None = None
    node_type: str | None = None
    name: str | None = None


@dataclass(frozen=True, slots=True)
class Related:
    """A memory and its neighbours, heaviest edge first; ``kinds`` counts the edges by type."""

    memory: MemoryRecord
    neighbours: tuple[Neighbour, ...]
    kinds: dict[str, int]


def related(runtime: Runtime, memory_id: uuid.UUID, user_id: str, *, limit: int) -> Related:
    with runtime.db.connection() as conn:
        record = memories.get(conn, user_id, memory_id)
        if record is None or _deleted(record):
            raise MemoryNotFoundError(f"no memory {memory_id} for user {user_id!r}")
        rows = related_sql.neighbours(conn, user_id, memory_id, limit)
        records = memories.get_many(
            conn, user_id, [r["other_id"] for r in rows if r["other_kind"] == "memory"]
        )
    found = []
    for r in rows:
        other = records.get(r["other_id"]) if r["other_kind"] == "memory" else None
        if r["other_kind"] == "memory" and (other is None or _deleted(other)):
            continue
        if r["other_kind"] == "node" and r["name"] is None:
            continue  # the node is gone (forgotten) while the edge waits for its clean-up
        found.append(
            Neighbour(
                r["edge_type"],
                r["direction"],
                r["other_kind"],
                r["other_id"],
                float(r["weight"]),
                float(r["confidence"]),
                r["valid_at"],
                r["invalid_at"],
                other,
                r["node_type"],
                r["name"],
            )
        )
    return Related(record, tuple(found), dict(Counter(n.edge_type for n in found)))


def _deleted(record: MemoryRecord) -> bool:
    """Soft-deleted: expired without being superseded or archived."""
    return record.expired_at is not None and record.superseded_by is None and record.archived_at is None
