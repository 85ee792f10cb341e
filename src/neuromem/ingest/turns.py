"""Conversation turns in the Mem0 message style, validated (MISSION capability 2).

``{"role": "user", "content": "...", "timestamp": ..., "name": ...}``: ``role`` is
``user`` / ``assistant`` / ``system`` / ``tool``; ``timestamp`` (optional) is a
timezone-aware datetime, an ISO-8601 string or Unix seconds; ``name`` is the
speaker. A turn without a timestamp is dated when it is received. Bad input raises
``InvalidTurnError`` (an ``InvalidInputError``) before anything is written.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .. import validation as check
from ..config import Settings
from ..errors import InvalidTurnError

ROLES = frozenset({"user", "assistant", "system", "tool"})
MAX_SESSION_ID_CHARS = 255


@dataclass(frozen=True, slots=True)
class Turn:
    role: str
    content: str
    sent_at: dt.datetime
    speaker: str | None = None
    metadata: dict[str, Any] = field(default_factory=dict)


def parse_turns(messages: Any, settings: Settings, *, now: dt.datetime | None = None) -> list[Turn]:
    """Validate one message (mapping) or a list of them into ``Turn`` values."""
    if isinstance(messages, Mapping):
        messages = [messages]
    if isinstance(messages, str | bytes) or not isinstance(messages, Sequence):
        raise InvalidTurnError("messages must be a message mapping or a list of them")
    if not messages:
        raise InvalidTurnError("messages must not be empty")
    limit = settings.ingest.max_messages_per_call
    if len(messages) > limit:
        raise InvalidTurnError(f"at most {limit} messages per call (ingest.max_messages_per_call), got {len(messages)}")
    received = now or dt.datetime.now(dt.UTC)
    turns = []
    for i, message in enumerate(messages):
        if not isinstance(message, Mapping):
            raise InvalidTurnError(f"message {i} must be a mapping with 'role' and 'content'")
        role = message.get("role")
        if role not in ROLES:
            raise InvalidTurnError(f"message {i}: role must be one of {sorted(ROLES)}, got {role!r}")
        content = check.content(message.get("content"), settings.write, field=f"message {i} content")
        raw_time = message.get("timestamp", message.get("created_at"))
        sent_at = received if raw_time is None else _timestamp(raw_time, i)
        speaker = message.get("name")
        if speaker is not None and (not isinstance(speaker, str) or len(speaker) > 255):
            raise InvalidTurnError(f"message {i}: name must be a string of at most 255 characters")
        if speaker:
            check.storable(speaker, f"message {i} name")
        extra = message.get("metadata")
        turns.append(
            Turn(
                role=str(role),
                content=content,
                sent_at=sent_at,
                speaker=speaker or None,
                metadata=check.metadata(extra) if extra is not None else {},
            )
        )
    return turns


def _timestamp(value: Any, index: int) -> dt.datetime:
    if isinstance(value, int | float) and not isinstance(value, bool):
        try:
            return dt.datetime.fromtimestamp(float(value), dt.UTC)
        except (OverflowError, OSError, ValueError):
            raise InvalidTurnError(f"message {index}: timestamp {value!r} is out of range") from None
    stamp = check.timestamp(value, f"message {index} timestamp")
    assert stamp is not None
    return stamp


def session_id(value: Any) -> str:
    """A caller's session id: a non-empty string (or UUID/int) of at most 255 characters."""
    if value is None or isinstance(value, bool):
        raise InvalidTurnError("session_id is required for conversation messages")
    text = str(value).strip()
    if not text or len(text) > MAX_SESSION_ID_CHARS:
        raise InvalidTurnError(f"session_id must be 1–{MAX_SESSION_ID_CHARS} characters")
    return check.storable(text, "session_id")
