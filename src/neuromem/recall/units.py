"""Memories and conversation turns as one kind of hit (issue 14 item 1; seed 003 §5.2, §6.2 provenance).

Every stored turn, of every role, is a retrieval unit beside the memories: the retrievers
``bm25_turns`` and ``vector_turns`` rank the user's turns (``store.conversations``), the memory
retrievers rank memories, and before fusion every list is re-keyed to **units**:

- a memory that came from a turn (``memory_sources``) and that turn are one unit, keyed by the
  turn's message id — found by either channel, counted once, carried as the memory (when several
  came from the turn, the one the memory lists agree on best: the largest Σ 1/rank, so that of a turn
  of ten facts the one the query names stands for it, not one a single list put first) with the turn
  in ``SearchHit.turns``;
- a memory without a source turn (a document chunk, a trait, an ``add``) is its own unit;
- a turn no current memory came from (small talk, a question, an assistant reply, a sentence
  below the importance threshold) is a unit of its own, shown as a read-only view of the turn
  (:func:`turn_record`, ``metadata["turn_only"]``).

Within a re-keyed list a unit keeps its best rank and score (``fusion.ranked``).
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..store.conversations import TurnRow
from ..text.spans import is_question
from ..types import MemoryRecord, MemoryType, TurnRef
from .fusion import Ranked, ranked

#: The retriever lists whose ids are message ids (turns), not memory ids
TURN_LISTS = frozenset({"bm25_turns", "vector_turns", "bm25_turns_hop"})


@dataclass(frozen=True, slots=True)
class Units:
    """Lists re-keyed to units, and for each unit with a memory, its representative memory and
    (when it has one) its turn."""

    lists: dict[str, list[Ranked]]
    memory_of: dict[uuid.UUID, uuid.UUID]  # unit → representative memory id
    turn_of: dict[uuid.UUID, uuid.UUID]  # unit → message id (every unit that stands for a turn)


def memory_ids(lists: Mapping[str, Sequence[Ranked]]) -> list[uuid.UUID]:
    """The distinct memory ids of the memory lists (not the turn lists)."""
    return list(dict.fromkeys(h.id for name, hits in lists.items() if name not in TURN_LISTS for h in hits))


def to_units(lists: Mapping[str, Sequence[Ranked]], source: Mapping[uuid.UUID, uuid.UUID]) -> Units:
    """Re-key ``lists`` to units; ``source`` maps a memory to the turn it came from."""
    agree: dict[uuid.UUID, float] = {}  # Σ 1/rank over the memory lists: how well the lists agree on it
    out: dict[str, list[Ranked]] = {}
    turn_of: dict[uuid.UUID, uuid.UUID] = {}
    for name, hits in lists.items():
        pairs: list[tuple[uuid.UUID, float]] = []
        for h in hits:
            if name in TURN_LISTS:
                unit = h.id
                turn_of[unit] = h.id
            else:
                unit = source.get(h.id, h.id)
                if h.id in source:
                    turn_of[unit] = source[h.id]
                agree[h.id] = agree.get(h.id, 0.0) + 1.0 / h.rank
            pairs.append((unit, h.score))
        out[name] = ranked(pairs)
    memory_of: dict[uuid.UUID, uuid.UUID] = {}
    for mid in sorted(agree, key=lambda i: (-agree[i], i)):
        memory_of.setdefault(source.get(mid, mid), mid)
    return Units(out, memory_of, turn_of)


def turn_ref(turn: TurnRow) -> TurnRef:
    return TurnRef(
        turn.id, turn.session_external_id, turn.seq, turn.role, turn.speaker, turn.content, turn.sent_at
    )


def turn_record(turn: TurnRow, user_id: str) -> MemoryRecord:
    """A turn no memory came from, shown as a hit: an episodic, read-only view (id = the message id)."""
    meta: dict[str, object] = {
        "turn_only": True,
        "session_id": turn.session_external_id,
        "role": turn.role,
        "seq": turn.seq,
    }
    if turn.speaker:
        meta["speaker"] = turn.speaker
    return MemoryRecord(
        id=turn.id,
        user_id=user_id,
        memory_type=MemoryType.EPISODIC,
        content=turn.content,
        created_at=turn.created_at,
        metadata=meta,
        valid_at=turn.sent_at,
        has_embedding=turn.vector is not None,
    )


def is_turn_only(record: MemoryRecord) -> bool:
    return isinstance(record.metadata, dict) and record.metadata.get("turn_only") is True


def is_assistant_question(turn: TurnRef) -> bool:
    """The assistant asked something (:func:`is_question`)."""
    return turn.role == "assistant" and is_question(turn.content)
