"""The concept route of recall (seed 003 §5 "概念/主题" path, §6.3 concepts): a query near a concept
reaches the memories ABOUT it, even those too far from the query to be found by the vector
retriever themselves. Concepts and their centroids are made by ``lifecycle.concepts``.

Score of a member: cos(query, concept centroid) × cos(member, centroid), the best over the
``recipe.concept_k`` nearest concepts. Without a query vector the route does not run.
"""

from __future__ import annotations

from ..store import concepts as store
from ..store.db import Conn
from ..types import MemoryType
from .fusion import Ranked, ranked
from .retrievers import Probe

#: members read per concept at most (the list then keeps ``recipe.vector_k``)
MEMBERS_PER_CONCEPT = 50


def concepts(conn: Conn, req: Probe, dim: int) -> list[Ranked]:
    if req.vector is None:
        return []
    types = [t for t in req.types if t in (MemoryType.FACT, MemoryType.EPISODIC)]
    if not types:
        return []
    k = req.recipe.concept_k
    hits = store.concept_route(
        conn,
        req.user_id,
        req.vector,
        dim,
        types,
        concepts=k,
        limit=min(req.recipe.vector_k, k * MEMBERS_PER_CONCEPT),
        as_of=req.as_of,
        valid_at=req.valid_at,
        where=req.where,
    )
    return ranked([(h.id, h.score) for h in hits])
