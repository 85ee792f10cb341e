"""What the memory page shows, as JSON-ready data (seed 001 §8.2 "Trait Transparency").

Each function takes the ``Memory`` and the stored user id and returns plain dicts: the
traits by stage with confidence, decayed confidence and their evidence chain down to the
original words; memories with history and sources; the prompt block a query would get.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from ...errors import NotFoundError
from ...memory import Memory
from ...types import HistoryEntry, MemoryRecord

STAGES = ("core", "established", "emerging", "candidate", "trend")
LISTED_TYPES = ("fact", "episodic", "document")


def features(memory: Memory) -> dict[str, bool]:
    """Actions the page offers: pin and forget exist only when the library has them."""
    return {"pin": hasattr(memory, "pin"), "forget": hasattr(memory, "forget")}


def traits(memory: Memory, user: str) -> dict[str, Any]:
    groups: dict[str, list[dict[str, Any]]] = {stage: [] for stage in STAGES}
    for record in memory.traits(user_id=user).all():
        detail = memory.trait(record.id, user_id=user)
        groups.setdefault(record.trait_stage or "trend", []).append(
            {
                **_trait(record),
                "decayed_confidence": detail.decayed_confidence,
                "evidence_count": len(_evidence(memory, user, detail)),
            }
        )
    for items in groups.values():
        items.sort(key=lambda t: -(t["confidence"] or 0))
    return {"stages": [{"stage": s, "traits": groups[s]} for s in groups if groups[s]]}


def trait(memory: Memory, user: str, trait_id: str) -> dict[str, Any]:
    """One trait and its evidence, each piece down to the words it came from."""
    detail = memory.trait(trait_id, user_id=user)
    return {
        **_trait(detail.trait),
        "decayed_confidence": detail.decayed_confidence,
        "evidence": [
            {
                "memory_id": str(e.memory_id),
                "type": e.evidence_type,
                "quality": str(e.quality),
                "context": e.context,
                "content": e.content,
                "at": _iso(e.created_at),
                **_origin(memory, user, e.memory_id),
            }
            for e in _evidence(memory, user, detail)
        ],
        "history": [_change(h) for h in detail.history],
    }


def _evidence(memory: Memory, user: str, detail: Any) -> list[Any]:
    """A trait's evidence; a corrected trait (a new version) keeps what its earlier versions gathered."""
    evidence = list(detail.supporting) + list(detail.contradicting)
    if evidence or detail.trait.version == 1:
        return evidence
    for entry in memory.history(detail.trait.id, user_id=user):
        if entry.memory_id == detail.trait.id:
            continue
        try:
            earlier = memory.trait(entry.memory_id, user_id=user)
        except NotFoundError:
            continue
        evidence = list(earlier.supporting) + list(earlier.contradicting)
        if evidence:
            break
    return evidence


def memories(memory: Memory, user: str, query: str | None, limit: int) -> dict[str, Any]:
    """Facts, episodes and documents (traits have their own section), found by ``query`` or newest first."""
    if query:
        hits = memory.search(query, user_id=user, limit=limit, memory_types=LISTED_TYPES)
        return {"memories": [{**_memory(h.memory), "score": h.score.final} for h in hits]}
    records = memory.get_all(user_id=user, limit=limit, filters={"memory_type": {"in": list(LISTED_TYPES)}})
    return {"memories": [_memory(r) for r in records]}


def memory_detail(memory: Memory, user: str, memory_id: str) -> dict[str, Any]:
    record = memory.get(memory_id, user_id=user)
    return {
        **_memory(record),
        "history": [_change(h) for h in memory.history(record.id, user_id=user)],
        **_origin(memory, user, record.id),
    }


def prompt(memory: Memory, user: str, query: str) -> dict[str, Any]:
    block = memory.recall_prompt(query, user_id=user)
    return {
        "text": block.text,
        "tokens": block.tokens,
        "budget": block.budget,
        "language": block.language,
        "lines": [
            {"marker": line.marker, "section": line.section, "memory_id": str(line.memory_id)}
            for line in block.lines
        ],
    }


def _origin(memory: Memory, user: str, memory_id: Any) -> dict[str, Any]:
    """The original words (raw-chunk quotes) and the conversation messages a memory came from."""
    try:
        source = memory.sources(memory_id, user_id=user)
    except NotFoundError:
        return {"quotes": [], "messages": []}
    return {
        "quotes": list(source.quotes),
        "messages": [
            {
                "session_id": str(m["session_id"]),
                "role": m["role"],
                "content": m["content"],
                "sent_at": _iso(m["sent_at"]),
            }
            for m in source.messages
        ],
    }


def _memory(record: MemoryRecord) -> dict[str, Any]:
    return {
        "id": str(record.id),
        "content": record.content,
        "memory_type": record.memory_type.value,
        "category": record.category,
        "version": record.version,
        "importance": record.importance,
        "created_at": _iso(record.created_at),
        "valid_at": _iso(record.valid_at),
        "current": record.is_current,
        "pinned": bool(record.metadata.get("pinned")),
    }


def _trait(record: MemoryRecord) -> dict[str, Any]:
    return {
        **_memory(record),
        "subtype": record.trait_subtype,
        "stage": record.trait_stage,
        "confidence": record.trait_confidence,
        "context": record.trait_context,
        "reinforcements": record.trait_reinforcement_count,
        "first_observed": _iso(record.trait_first_observed),
        "last_reinforced": _iso(record.trait_last_reinforced),
    }


def _change(entry: HistoryEntry) -> dict[str, Any]:
    return {
        "event": entry.event.value,
        "actor": entry.actor,
        "at": _iso(entry.created_at),
        "old": entry.old_content,
        "new": entry.new_content,
        "memory_id": str(entry.memory_id),
    }


def _iso(value: dt.datetime | None) -> str | None:
    return None if value is None else value.isoformat()
