"""Conversation turns in the Mem0 message style, validated (MISSION capability 2).

``{"role": "user", "content": "...", "timestamp": ..., "name": ..., "metadata": {...}}``:
``role`` is ``user`` / ``assistant`` / ``system`` / ``tool``; ``timestamp`` (optional) is a
timezone-aware datetime, an ISO-8601 string or Unix seconds; ``name`` is the speaker; an
``id`` (or ``metadata.message_id`` / ``metadata.id``) is the caller's own message id. A
turn without a timestamp is dated when it is received.

**Turn identity** (``Turn.key``, issue 12 item 1): resuming an import and retrying an
ingest recognise a turn already stored by its key, never by a count of turns per session:

- with an external message id: ``sha256("id", id, n)``;
- otherwise ``sha256(role, speaker, timestamp in µs, content, n)``;

where ``n`` counts the earlier turns of the same sequence with the same identity (so a
conversation may say "ok" twice). A turn without a timestamp is keyed by the time it was
received (a live turn is a new event), except when the caller asks for content keys
(``undated_by_content=True``, used by chat-export imports, whose re-runs must be
idempotent): then the time part is empty. ``store/migrations/0004_turn_keys.sql`` computes
the same keys for turns stored before keys existed. A message whose id is stored with other
words (an edit) is not skipped: it is stored under ``edited_key`` — nothing said is dropped.

Bad messages: ``parse_turns`` collects a typed error per bad message
(``RejectedMessage``) and keeps the good ones; with ``strict=True`` the first bad message
raises and nothing is kept. A batch that is not a list of messages at all always raises.
A turn longer than ``write.max_content_chars`` is accepted (up to
``ingest.document_max_chars``): the pipeline stores it as chunks linked to the turn.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .. import validation as check
from ..config import Settings
from ..errors import InvalidInputError, InvalidTurnError
from ..store.vectors import to_halfvec
from ..text.token_count import count_tokens
from ..text.tokenize import search_text

ROLES = frozenset({"user", "assistant", "system", "tool"})
MAX_SESSION_ID_CHARS = 255
EXTERNAL_ID_KEYS = ("message_id", "id")  # metadata keys read as the caller's message id
_EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)
_SEP = "\x1f"


@dataclass(frozen=True, slots=True)
class Turn:
    role: str
    content: str
    sent_at: dt.datetime
    speaker: str | None = None
    metadata: dict[str, Any] = field(default_factory=dict)
    key: str = ""  # the turn's identity (module docstring); "" only for hand-built turns
    index: int = 0  # position in the caller's list of messages


@dataclass(frozen=True, slots=True)
class RejectedMessage:
    """A message of a batch that was not stored, with the typed error saying why."""

    index: int
    error: InvalidInputError

    @property
    def reason(self) -> str:
        return str(self.error)


@dataclass(frozen=True, slots=True)
class ParsedTurns:
    turns: list[Turn]
    rejected: list[RejectedMessage]


def parse_turns(
    messages: Any,
    settings: Settings,
    *,
    now: dt.datetime,
    strict: bool = True,
    undated_by_content: bool = False,
) -> ParsedTurns:
    """Validate one message (mapping) or a list of them into ``Turn`` values.

    Already parsed ``Turn`` values pass through unchanged (an import parses a whole session
    once, then ingests it in batches).
    """
    if isinstance(messages, Mapping | Turn):
        messages = [messages]
    if isinstance(messages, str | bytes) or not isinstance(messages, Sequence):
        raise InvalidTurnError("messages must be a message mapping or a list of them")
    if not messages:
        raise InvalidTurnError("messages must not be empty")
    limit = settings.ingest.max_messages_per_call
    if len(messages) > limit:
        raise InvalidTurnError(
            f"at most {limit} messages per call (ingest.max_messages_per_call), got {len(messages)}"
        )
    received = now
    seen: Counter[str] = Counter()
    turns: list[Turn] = []
    rejected: list[RejectedMessage] = []
    for i, message in enumerate(messages):
        if isinstance(message, Turn):
            turns.append(message)
            continue
        try:
            turn = _turn(message, i, settings, received, undated_by_content)
        except InvalidInputError as exc:
            if strict:
                raise
            rejected.append(RejectedMessage(i, exc))
            continue
        basis = turn.key
        turns.append(_with_key(turn, basis, seen[basis]))
        seen[basis] += 1
    return ParsedTurns(turns, rejected)


def _turn(message: Any, i: int, settings: Settings, received: dt.datetime, undated_by_content: bool) -> Turn:
    """One validated turn whose ``key`` still holds the identity basis (hashed by ``_with_key``)."""
    if not isinstance(message, Mapping):
        raise InvalidTurnError(f"message {i} must be a mapping with 'role' and 'content'")
    role = message.get("role")
    if role not in ROLES:
        raise InvalidTurnError(f"message {i}: role must be one of {sorted(ROLES)}, got {role!r}")
    content = check.content(
        message.get("content"),
        settings.write,
        field=f"message {i} content",
        max_chars=settings.ingest.document_max_chars,
    )
    raw_time = message.get("timestamp", message.get("created_at"))
    sent_at = received if raw_time is None else _timestamp(raw_time, i)
    speaker = message.get("name")
    if speaker is not None and (not isinstance(speaker, str) or len(speaker) > 255):
        raise InvalidTurnError(f"message {i}: name must be a string of at most 255 characters")
    if speaker:
        check.storable(speaker, f"message {i} name")
    extra = message.get("metadata")
    meta = check.metadata(extra) if extra is not None else {}
    own_id = message.get("id")
    if own_id is not None:
        if isinstance(own_id, bool) or not isinstance(own_id, str | int) or not str(own_id).strip():
            raise InvalidTurnError(f"message {i}: id must be a non-empty string or an integer")
        meta.setdefault("message_id", own_id)
    external = external_id(meta)
    if external is not None:
        basis = _SEP.join(("id", external))
    else:
        when = "" if raw_time is None and undated_by_content else str(epoch_us(sent_at))
        basis = _SEP.join((str(role), speaker or "", when, content))
    return Turn(
        role=str(role),
        content=content,
        sent_at=sent_at,
        speaker=speaker or None,
        metadata=meta,
        key=basis,
        index=i,
    )


def edited_key(turn: Turn) -> str:
    """The key of a turn whose identity is already stored with other words (a message edited under
    the same id): its own key and content, so the new words are stored too, once."""
    digest = check.content_hash(turn.content)
    return hashlib.sha256(_SEP.join((turn.key, "edited", digest)).encode("utf-8")).hexdigest()


def lookup_keys(turns: Sequence[Turn]) -> list[str]:
    """Every key ``new_turns`` needs to know about."""
    return [k for t in turns for k in (t.key, edited_key(t))]


def new_turns(turns: Sequence[Turn], stored: Mapping[str, str]) -> list[tuple[int, Turn]]:
    """The turns (with their index) a session does not hold yet, given its stored ``key → content
    hash``: a key not stored is new; a stored key with the same words is the same turn (skipped);
    a stored key with other words (an edited message) is stored again under ``edited_key``."""
    out = []
    for i, turn in enumerate(turns):
        held = stored.get(turn.key)
        if held is None:
            out.append((i, turn))
        elif held != check.content_hash(turn.content):
            key = edited_key(turn)
            if key not in stored:
                out.append(
                    (
                        i,
                        Turn(
                            turn.role,
                            turn.content,
                            turn.sent_at,
                            turn.speaker,
                            turn.metadata,
                            key,
                            turn.index,
                        ),
                    )
                )
    return out


def external_id(metadata: Mapping[str, Any]) -> str | None:
    """The caller's message id in a message's metadata, if any (``EXTERNAL_ID_KEYS``)."""
    for name in EXTERNAL_ID_KEYS:
        value = metadata.get(name)
        if value is not None and not isinstance(value, bool) and str(value).strip():
            return str(value).strip()
    return None


def epoch_us(moment: dt.datetime) -> int:
    """Microseconds since the Unix epoch (exact; the SQL of migration 0004 computes the same)."""
    return (moment - _EPOCH) // dt.timedelta(microseconds=1)


def _with_key(turn: Turn, basis: str, occurrence: int) -> Turn:
    digest = hashlib.sha256(_SEP.join((basis, str(occurrence))).encode("utf-8")).hexdigest()
    return Turn(turn.role, turn.content, turn.sent_at, turn.speaker, turn.metadata, digest, turn.index)


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


#: A turn as a retrieval unit (issue 14 item 1): its search tokens, token count and vector literal
TurnUnit = tuple[str, int, str | None]


def turn_unit(turn: Turn, vector: np.ndarray | None, dim: int, content_tokens: str | None = None) -> TurnUnit:
    """What makes a stored turn findable by itself: its words (with the speaker's name, as memories'
    tokens have it: ``writes._searchable``), their count for BM25, and its passage vector (None: full text only).
    ``content_tokens``: the content's search tokens when already computed (its raw chunks'), so a long
    turn is tokenised once."""
    literal = None if vector is None else to_halfvec(vector, dim)
    words = search_text(turn.content) if content_tokens is None else content_tokens
    if turn.speaker:
        words = f"{search_text(turn.speaker + ':')} {words}".strip()
    return words, count_tokens(turn.content), literal
