"""Mem0's ``Memory`` API over neuromem: existing Mem0 code switches by changing one import.

::

    # from mem0 import Memory
    from neuromem.compat.mem0 import Memory

    m = Memory()
    m.add(messages, user_id="alice", metadata={"category": "movies"})
    m.search("What do you know about me?", user_id="alice")   # {"results": [{"id", "memory", "score", ...}]}

The shapes follow Mem0's documentation (OSS ``Memory``, v1 results): ``add`` returns
``{"results": [{"id", "memory", "metadata", "event"}]}``; ``search`` and ``get_all``
``{"results": [...]}`` with ``id``, ``memory``, ``hash``, ``metadata``, ``score``,
``created_at``, ``updated_at``, ``user_id``; ``history`` a list of changes. What differs:

- ``Memory()`` reads ``NEUROMEM_*`` settings (embedded PostgreSQL and the offline embedder by
  default); ``Memory.from_config(config)`` takes ``{"neuromem": {...settings...}}`` and ignores
  Mem0's provider sections (vector store, llm, embedder), which neuromem configures itself.
- ``add(..., infer=True)`` runs neuromem's extraction (rules offline, the LLM when configured);
  ``infer=False`` stores each message as it is.
- Ids stay valid across updates: ``get``/``update``/``delete`` follow an id to the newest version.
- ``filters`` take Mem0's operators ``eq ne gt gte lt lte in nin`` and ``AND``/``OR``/``NOT`` over
  metadata fields (``user_id``/``agent_id``/``run_id`` inside ``filters`` scope the search);
  others (``contains``, ``icontains``, ``*``) raise ``InvalidFilterError`` (a ``ValueError``).
- Scopes (docs/architecture.md, "Scopes"): with a ``user_id``, ``agent_id`` and ``run_id`` are
  neuromem's scope columns of the user's memory, and ``search`` / ``get_all`` / ``delete_all`` match them
  exactly, as Mem0 does (neuromem's own ``Memory.search(agent_id=…)`` also shows the user's shared
  memories). Without a ``user_id``, the agent or run is the owner (``agent:<id>`` / ``run:<id>``).
- ``reset()`` erases every user's memories in the database, as Mem0's does.
- ``search`` returns memories only, as Mem0 does: neuromem's conversation turns that no memory came
  from (``metadata.turn_only`` hits of ``neuromem.Memory.search``) are left out.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import functools
import uuid
from collections.abc import Mapping, Sequence
from typing import Any

from .. import Memory as NeuromemMemory
from .. import Settings
from ..errors import InvalidFilterError, InvalidInputError, MemoryNotFoundError
from ..store import owners
from ..types import HistoryEntry, MemoryRecord, Operation, SearchHit, WriteResult
from ..validation import limit as check_limit

_SCOPES = ("user_id", "agent_id", "run_id")
_KEYS = "mem0_metadata_keys"  # which metadata keys the caller gave (neuromem adds its own)
_OPERATORS = frozenset({"eq", "ne", "gt", "gte", "lt", "lte", "in", "nin"})
_EVENTS = {Operation.ADD: "ADD", Operation.UPDATE: "UPDATE", Operation.DELETE: "DELETE"}


class Memory:
    """Mem0's ``Memory`` (open-source SDK) backed by a ``neuromem.Memory``."""

    def __init__(
        self, config: Mapping[str, Any] | None = None, *, memory: NeuromemMemory | None = None
    ) -> None:
        if memory is None:
            overrides = dict((config or {}).get("neuromem", {}))
            memory = NeuromemMemory(Settings.from_env(**overrides))
        self.memory = memory

    @classmethod
    def from_config(cls, config_dict: Mapping[str, Any]) -> Memory:
        return cls(config_dict)

    # -- writes -------------------------------------------------------------
    def add(
        self,
        messages: Any,
        *,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        infer: bool = True,
        memory_type: str | None = None,
        prompt: str | None = None,
    ) -> dict[str, Any]:
        """Remember ``messages`` (a string, a message dict or a list of them) for one scope."""
        owner = _owner(user_id, agent_id, run_id)
        del memory_type, prompt  # Mem0 options neuromem decides itself (types by extraction)
        given = dict(metadata or {})
        meta = {
            **given,
            _KEYS: sorted(given),
            **{k: v for k, v in (("agent_id", agent_id), ("run_id", run_id)) if v},
        }
        turns = _messages(messages)
        scoped = _columns(user_id, agent_id, run_id)
        if infer:
            results = self.memory.add(turns, user_id=owner, session_id=run_id, metadata=meta, **scoped)
        else:
            results = [
                r
                for t in turns
                if t.get("role") != "system"
                for r in self.memory.add(
                    t["content"], user_id=owner, metadata={**meta, "role": t["role"]}, **scoped
                )
            ]
        return {"results": [_event(r) for r in results if r.operation in _EVENTS]}

    def update(self, memory_id: str, data: str, metadata: Mapping[str, Any] | None = None) -> dict[str, str]:
        record = self._current(memory_id)
        self.memory.update(record.id, user_id=record.user_id, content=data, metadata=metadata)
        return {"message": "Memory updated successfully!"}

    def delete(self, memory_id: str) -> dict[str, str]:
        record = self._current(memory_id)
        self.memory.delete(record.id, user_id=record.user_id)
        return {"message": "Memory deleted successfully!"}

    def delete_all(
        self, *, user_id: str | None = None, agent_id: str | None = None, run_id: str | None = None
    ) -> dict[str, str]:
        owner = _owner(user_id, agent_id, run_id)
        exact = _exact(_columns(user_id, agent_id, run_id), None)
        while batch := self.memory.get_all(user_id=owner, filters=exact, limit=1000):
            for record in batch:
                self.memory.delete(record.id, user_id=owner)
        return {"message": "Memories deleted successfully!"}

    def reset(self) -> None:
        """Erase every user's memories (Mem0's ``reset`` empties the whole store)."""
        with self.memory.runtime.db.connection() as conn:
            everyone = owners.users(conn)
        for user in everyone:
            self.memory.reset(user_id=user)

    # -- reads --------------------------------------------------------------
    def search(
        self,
        query: str,
        *,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
        limit: int = 100,
        filters: Mapping[str, Any] | None = None,
        threshold: float | None = None,
        rerank: bool = True,
    ) -> dict[str, Any]:
        del rerank  # neuromem's recall always fuses and re-scores
        scope, where = _split_filters(filters)
        ids = (
            user_id or scope.get("user_id"),
            agent_id or scope.get("agent_id"),
            run_id or scope.get("run_id"),
        )
        owner = _owner(*ids)
        # memories only, as Mem0 returns: a conversation turn no memory came from is neuromem's own kind of hit
        # (issue 22 item 6), so the search looks twice as deep and leaves those out
        wanted = check_limit(limit)
        hits = self.memory.search(
            query, user_id=owner, limit=min(1000, 2 * wanted), filters=_exact(_columns(*ids), where)
        )
        memories = [
            h
            for h in hits
            if not (isinstance(h.memory.metadata, dict) and h.memory.metadata.get("turn_only"))
        ]
        results = [
            _item(h.memory, h) for h in memories[:wanted] if threshold is None or h.score.final >= threshold
        ]
        return {"results": results}

    def get_all(
        self,
        *,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
        filters: Mapping[str, Any] | None = None,
        limit: int = 100,
    ) -> dict[str, Any]:
        scope, where = _split_filters(filters)
        ids = (
            user_id or scope.get("user_id"),
            agent_id or scope.get("agent_id"),
            run_id or scope.get("run_id"),
        )
        owner = _owner(*ids)
        records = self.memory.get_all(user_id=owner, filters=_exact(_columns(*ids), where), limit=limit)
        return {"results": [_item(r) for r in records]}

    def get(self, memory_id: str) -> dict[str, Any] | None:
        try:
            return _item(self._current(memory_id))
        except MemoryNotFoundError:
            return None

    def history(self, memory_id: str) -> list[dict[str, Any]]:
        record = self._record(memory_id)
        return [_change(e) for e in self.memory.history(record.id, user_id=record.user_id)]

    def close(self) -> None:
        self.memory.close()

    def __enter__(self) -> Memory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _record(self, memory_id: Any) -> MemoryRecord:
        with self.memory.runtime.db.connection() as conn:
            owner = owners.owner_of(conn, _uuid(memory_id))
        if owner is None:
            raise MemoryNotFoundError(f"no memory {memory_id}")
        return self.memory.get(memory_id, user_id=owner)

    def _current(self, memory_id: Any) -> MemoryRecord:
        """The newest version of the memory ``memory_id`` names (Mem0 ids survive updates)."""
        record = self._record(memory_id)
        while record.superseded_by is not None:
            record = self.memory.get(record.superseded_by, user_id=record.user_id)
        if record.expired_at is not None:
            raise MemoryNotFoundError(f"memory {memory_id} was deleted")
        return record


class AsyncMemory:
    """Mem0's ``AsyncMemory``: the same methods, awaited (each runs ``Memory``'s in a thread)."""

    def __init__(
        self, config: Mapping[str, Any] | None = None, *, memory: NeuromemMemory | None = None
    ) -> None:
        self.sync = Memory(config, memory=memory)

    @classmethod
    def from_config(cls, config_dict: Mapping[str, Any]) -> AsyncMemory:
        return cls(config_dict)

    def __getattr__(self, name: str) -> Any:
        method = getattr(self.sync, name)
        if not callable(method) or name.startswith("_"):
            return method

        @functools.wraps(method)
        async def call(*args: Any, **kwargs: Any) -> Any:
            return await asyncio.to_thread(method, *args, **kwargs)

        return call


def _owner(user_id: str | None, agent_id: str | None, run_id: str | None) -> str:
    """Mem0 scopes by user, agent or run; neuromem by one id (agents and runs get a prefix)."""
    if user_id:
        return user_id
    if agent_id:
        return f"agent:{agent_id}"
    if run_id:
        return f"run:{run_id}"
    raise InvalidInputError("one of user_id, agent_id or run_id is required")


def _columns(user_id: str | None, agent_id: str | None, run_id: str | None) -> dict[str, Any]:
    """With a user, the agent and run are neuromem's scope columns (without one they are the owner)."""
    return {k: v for k, v in (("agent_id", agent_id), ("run_id", run_id)) if v} if user_id else {}


def _exact(columns: Mapping[str, Any], where: dict[str, Any] | None) -> dict[str, Any] | None:
    """Mem0's scope match: exactly this agent and run, and the caller's filter."""
    if not columns:
        return where
    return dict(columns) if where is None else {"AND": [dict(columns), where]}


def _messages(messages: Any) -> list[dict[str, str]]:
    if isinstance(messages, str):
        return [{"role": "user", "content": messages}]
    if isinstance(messages, Mapping):
        return [dict(messages)]
    if isinstance(messages, Sequence) and messages and all(isinstance(m, Mapping) for m in messages):
        return [dict(m) for m in messages]
    raise InvalidInputError("messages must be a string, a message dict or a non-empty list of message dicts")


def _split_filters(filters: Mapping[str, Any] | None) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """Mem0 filters → (scope ids, neuromem filter over metadata)."""
    if not filters:
        return {}, None
    if not isinstance(filters, Mapping):
        raise InvalidFilterError("filters must be a mapping")
    scope = {k: v for k, v in filters.items() if k in _SCOPES}
    rest = {k: v for k, v in filters.items() if k not in _SCOPES}
    return scope, (_translate(rest) if rest else None)


def _translate(filters: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in filters.items():
        upper = key.upper()
        if upper in ("AND", "OR"):
            out[upper] = [_translate(v) for v in value]
        elif upper == "NOT":
            inner = [value] if isinstance(value, Mapping) else list(value)
            out["NOT"] = {"OR": [_translate(v) for v in inner]}  # none of them holds
        elif value == "*" or (isinstance(value, Mapping) and not set(value) <= _OPERATORS):
            unknown = "*" if value == "*" else ", ".join(sorted(set(value) - _OPERATORS))
            raise InvalidFilterError(
                f"filter operator {unknown!r} on {key!r} is not supported; "
                f"use {', '.join(sorted(_OPERATORS))}, AND, OR, NOT"
            )
        else:
            out[f"metadata.{key}"] = value
    return out


def _iso(value: dt.datetime | None) -> str | None:
    return None if value is None else value.isoformat()


def _item(record: MemoryRecord, hit: SearchHit | None = None) -> dict[str, Any]:
    meta = dict(record.metadata)
    item: dict[str, Any] = {
        "id": str(record.id),
        "memory": record.content,
        "hash": record.content_hash,
        "metadata": {k: meta[k] for k in meta.get(_KEYS, meta) if k in meta and k not in (_KEYS, *_SCOPES)},
        "created_at": _iso(record.created_at),
        "updated_at": _iso(record.updated_at),
        "user_id": record.user_id,
    }
    for scope in ("agent_id", "run_id"):
        value = getattr(record, scope) or meta.get(scope)
        if value:
            item[scope] = value
    if hit is not None:
        item["score"] = hit.score.final
    return item


def _event(result: WriteResult) -> dict[str, Any]:
    item = _item(result.memory)
    out = {
        "id": item["id"],
        "memory": item["memory"],
        "metadata": item["metadata"],
        "event": _EVENTS[result.operation],
    }
    if result.previous_id is not None:
        out["previous_id"] = str(result.previous_id)
    return out


def _change(entry: HistoryEntry) -> dict[str, Any]:
    event = str(entry.event.value).upper()
    return {
        "id": str(entry.id),
        "memory_id": str(entry.memory_id),
        "old_memory": entry.old_content,
        "new_memory": entry.new_content,
        "event": event,
        "previous_value": entry.old_content,
        "new_value": entry.new_content,
        "action": event,
        "created_at": _iso(entry.created_at),
        "updated_at": None,
        "is_deleted": int(event == "DELETE"),
        "actor_id": entry.actor,
    }


def _uuid(value: Any) -> uuid.UUID:
    try:
        return value if isinstance(value, uuid.UUID) else uuid.UUID(str(value))
    except ValueError:
        raise MemoryNotFoundError(f"no memory {value!r}") from None
