"""Direct row writers for recall tests: graph edges, raw chunks, traits (the schema is fixed)."""

from __future__ import annotations

import datetime as dt
import hashlib
import uuid
from typing import Any

from neuromem import Memory
from neuromem.store import graph, memories, raw_chunks
from neuromem.store.memories import NewMemory
from neuromem.text.token_count import count_tokens
from neuromem.text.tokenize import search_text
from neuromem.types import MemoryRecord, MemoryType, ScoreBreakdown, SearchHit


def insert_memory(memory: Memory, user_id: str, content: str, **fields: Any) -> MemoryRecord:
    runtime = memory.runtime
    fields.setdefault("memory_type", MemoryType.FACT)
    vector = None
    if fields.pop("embed", True):
        vector = runtime.embedder.embed_passages([content])[0]
    new = NewMemory(
        user_id=user_id,
        content=content,
        content_hash=hashlib.md5(content.encode()).hexdigest(),
        search_tokens=search_text(content),
        token_count=count_tokens(content),
        embedding=vector,
        **fields,
    )
    with runtime.db.transaction() as conn:
        return memories.insert(conn, new, runtime.dim)


def insert_trait(
    memory: Memory,
    user_id: str,
    content: str,
    *,
    stage: str,
    subtype: str,
    confidence: float,
    last_reinforced: dt.datetime | None = None,
) -> MemoryRecord:
    return insert_memory(
        memory,
        user_id,
        content,
        memory_type=MemoryType.TRAIT,
        trait_stage=stage,
        trait_subtype=subtype,
        trait_confidence=confidence,
        trait_last_reinforced=last_reinforced or dt.datetime.now(dt.UTC),
    )


def refresh_traits(memory: Memory) -> None:
    """What the refresh job does (on a Citus cluster the view is a plain view: nothing to refresh)."""
    from neuromem.store.maintenance import refresh_trait_view

    refresh_trait_view(memory.runtime.db)


def link(
    memory: Memory,
    user_id: str,
    a: uuid.UUID,
    b: uuid.UUID,
    edge_type: str,
    *,
    a_kind: str = "memory",
    b_kind: str = "memory",
) -> None:
    with memory.runtime.db.transaction() as conn:
        graph.add_edges(conn, user_id, [graph.EdgeInput(a, a_kind, b, b_kind, edge_type)])  # type: ignore[arg-type]


def entity(memory: Memory, user_id: str, name: str, normalized: str, node_type: str = "person") -> uuid.UUID:
    with memory.runtime.db.transaction() as conn:
        ids = graph.upsert_nodes(conn, user_id, [graph.NodeInput(node_type, name, normalized)])
    return ids[(node_type, normalized)]


def store_raw(memory: Memory, user_id: str, text: str) -> str:
    sha = raw_chunks.sha256_of(text)
    with memory.runtime.db.transaction() as conn:
        raw_chunks.put_many(conn, user_id, [raw_chunks.RawChunk(sha, text, search_text(text))])
    return sha


def alike_hit(
    i: int, content: str, final: float, cosine: float, said: dt.datetime, **kw: object
) -> SearchHit:
    """A fact (or ``memory_type``) hit of the user "u" said at ``said``, scored ``final`` by the vector list alone
    at ``cosine`` to the query: what the pure recall rules read."""
    record = MemoryRecord(
        id=uuid.UUID(int=i),
        user_id="u",
        memory_type=kw.pop("memory_type", MemoryType.FACT),  # type: ignore[arg-type]
        content=content,
        created_at=said,
        valid_at=said,
        **kw,  # type: ignore[arg-type]
    )
    return SearchHit(record, ScoreBreakdown(final, 0, 0, 0, final, {"vector": 1}, {"score_vector": cosine}))
