"""User feedback on a memory (seed 003 §9.1 ``feedback``; §6.1's ``ε·user_feedback`` weight term).

- ``pin`` / ``unpin`` — ``metadata.pinned``; a pinned memory is always in the prompt block
  (``recall.prompt``), whatever the query;
- ``upvote`` / ``downvote`` — moves the memory's ``importance`` by ``lifecycle.feedback_step``
  (clamped to [0, 1]), which recall's score multiplies in (seed 000 §6.1), and counts the vote
  in ``metadata.feedback``.

Each is an in-place update under the optimistic lock with a history row whose actor says
which feedback it was (``feedback:upvote``…).
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from .. import writes
from ..core import Runtime
from ..errors import InvalidInputError
from ..types import MemoryRecord

KINDS = ("pin", "unpin", "upvote", "downvote")


def give_feedback(
    runtime: Runtime, user_id: str, memory_id: UUID, kind: str, *, actor: str = "user"
) -> MemoryRecord:
    if kind not in KINDS:
        raise InvalidInputError(f"feedback must be one of {', '.join(KINDS)}, got {kind!r}")
    current = writes.get(runtime, user_id, memory_id)
    step = runtime.settings.lifecycle.feedback_step
    votes = dict(current.metadata.get("feedback") or {})
    importance = None
    metadata: dict[str, Any]
    if kind in ("pin", "unpin"):
        metadata = {"pinned": kind == "pin"}
    else:
        key = "up" if kind == "upvote" else "down"
        votes[key] = int(votes.get(key, 0)) + 1
        metadata = {"feedback": votes}
        importance = min(1.0, max(0.0, current.importance + (step if kind == "upvote" else -step)))
    change = writes.Change(metadata=metadata, importance=importance)
    return writes.update(
        runtime, user_id, memory_id, change, actor=f"feedback:{kind}" if actor == "user" else actor[:50]
    )


__all__ = ["KINDS", "give_feedback"]
