"""Provenance of a memory (seed 000 §2.6.4, seed 003 §3.0): its sessions and messages
(``memory_sources``) and the exact original words its ``raw_refs`` point to.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from ..core import Runtime
from ..errors import MemoryNotFoundError
from ..store import conversations, memories, raw_chunks


@dataclass(frozen=True, slots=True)
class Provenance:
    memory_id: Any
    # session_id (external), message_id (neuromem's), seq, role, speaker, sent_at, content, metadata (the
    # caller's, e.g. its own "message_id"); a memory added as text with a session_id has a source with
    # message_id None and no message fields
    messages: tuple[dict[str, Any], ...]
    quotes: tuple[str, ...]  # the words each raw_refs item points to, in order


def provenance(runtime: Runtime, mid: uuid.UUID, uid: str) -> Provenance:
    """Where the memory ``mid`` of the (checked) user ``uid`` came from (``Memory.sources``)."""
    with runtime.db.connection() as conn:
        record = memories.get(conn, uid, mid)
        if record is None:
            raise MemoryNotFoundError(f"no memory {mid} for user {uid!r}")
        if record.expired_at is not None and record.superseded_by is None:
            raise MemoryNotFoundError(f"memory {mid} of user {uid!r} was deleted; its sources are withdrawn")
        rows = conversations.sources_of(conn, uid, mid)
        quotes = tuple(
            q for q in (raw_chunks.quote(conn, uid, ref) for ref in record.raw_refs) if q is not None
        )
    messages = tuple(
        {
            "session_id": r["external_id"],
            "message_id": r["message_id"],
            "seq": r["seq"],
            "role": r["role"],
            "speaker": r["speaker"],
            "sent_at": r["sent_at"],
            "content": r["content"],
            "metadata": dict(r["metadata"] or {}),
        }
        for r in rows
    )
    return Provenance(mid, messages, quotes)
