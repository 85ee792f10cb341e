"""A LangGraph ``BaseStore`` on neuromem (optional extra ``neuromem[langgraph]``).

::

    from neuromem import Memory
    from neuromem.adapters.langgraph import NeuromemStore

    store = NeuromemStore(Memory(), user_id="my-agent")
    graph = builder.compile(store=store)          # nodes get ``store: BaseStore``
    store.put(("memories", "alice"), "food", {"text": "Alice loves ramen"})
    store.search(("memories", "alice"), query="what does she eat?")   # neuromem recall

Each item is one memory of the store's ``user_id``: its text (the ``index`` fields, or the
whole value as ``field: value`` pairs) is what recall searches; the value, namespace and
key ride in the metadata (``lg_*``). Puts write directly (no NOOP / near-duplicate merge:
two keys are two items even with equal values); a put on an existing key is an update
(new content → a new version, with history), ``None`` a delete. ``search`` with a
``query`` runs neuromem's hybrid recall inside the namespace prefix; without one it lists
the prefix, newest first. Value ``filter`` takes LangGraph's exact matches and
``$eq $ne $gt $gte $lt $lte``. TTLs are not supported (``supports_ttl = False``).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
from collections.abc import Iterable, Mapping
from typing import Any

try:
    from langgraph.store.base import (
        BaseStore,
        GetOp,
        Item,
        ListNamespacesOp,
        MatchCondition,
        Op,
        PutOp,
        Result,
        SearchItem,
        SearchOp,
    )
    from langgraph.store.base.embed import get_text_at_path
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError("the LangGraph store needs the extra: pip install 'neuromem[langgraph]'") from exc

from .. import writes
from ..memory import Memory
from ..types import MemoryRecord

_NS, _KEY, _VALUE, _INDEX, _CREATED, _DEPTH = (
    "lg_ns",
    "lg_key",
    "lg_value",
    "lg_index",
    "lg_created",
    "lg_depth",
)
_MAX_ITEMS = 10_000
_ACTOR = "langgraph"


class NeuromemStore(BaseStore):
    """LangGraph's long-term memory store, kept in one neuromem user's memory."""

    __slots__ = ("index_fields", "memory", "user_id")

    def __init__(
        self, memory: Memory, *, user_id: str = "langgraph", index_fields: list[str] | None = None
    ) -> None:
        self.memory = memory
        self.user_id = user_id
        self.index_fields = index_fields

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        results: list[Result] = []
        for op in ops:
            if isinstance(op, GetOp):
                results.append(self._get(op))
            elif isinstance(op, SearchOp):
                results.append(self._search(op))
            elif isinstance(op, PutOp):
                self._put(op)
                results.append(None)
            elif isinstance(op, ListNamespacesOp):
                results.append(self._list_namespaces(op))
            else:
                raise ValueError(f"unknown store operation {type(op).__name__}")
        return results

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        return await asyncio.to_thread(self.batch, list(ops))

    # -- operations ---------------------------------------------------------
    def _find(self, namespace: tuple[str, ...], key: str) -> MemoryRecord | None:
        found = self.memory.get_all(
            user_id=self.user_id,
            limit=2,
            filters={f"metadata.{_NS}": _ns_text(namespace), f"metadata.{_KEY}": key},
        )
        return found[0] if found else None

    def _get(self, op: GetOp) -> Item | None:
        record = self._find(op.namespace, op.key)
        return None if record is None else _item(record)

    def _put(self, op: PutOp) -> None:
        record = self._find(op.namespace, op.key)
        if op.value is None:
            if record is not None:
                writes.delete(self.memory.runtime, self.user_id, record.id, actor=_ACTOR)
            return None
        value = dict(op.value)
        fields = self.index_fields if op.index is None else op.index
        text = _text(value, fields or None) or op.key
        meta: dict[str, Any] = {_VALUE: value, _INDEX: "no" if op.index is False else "yes"}
        if record is None:
            now = self.memory.runtime.now().isoformat()
            meta |= {
                _NS: _ns_text(op.namespace),
                _KEY: op.key,
                _CREATED: now,
                _DEPTH: len(op.namespace),
                **{f"lg_ns{i}": label for i, label in enumerate(op.namespace)},
            }
            runtime = self.memory.runtime
            writes.insert(runtime, writes.draft(runtime, text, self.user_id, metadata=meta), actor=_ACTOR)
        elif text != record.content or any(record.metadata.get(k) != v for k, v in meta.items()):
            change = writes.Change.checked(
                self.memory.runtime, content=None if text == record.content else text, metadata=meta
            )
            writes.update(self.memory.runtime, self.user_id, record.id, change, actor=_ACTOR)
        return None

    def _search(self, op: SearchOp) -> list[SearchItem]:
        where: dict[str, Any] = {f"metadata.lg_ns{i}": label for i, label in enumerate(op.namespace_prefix)}
        where[f"metadata.{_DEPTH}"] = {"gte": len(op.namespace_prefix)}
        wanted = op.offset + op.limit
        if op.query:
            where[f"metadata.{_INDEX}"] = "yes"
            size = min(1000, wanted * (4 if op.filter else 1))
            hits = self.memory.search(
                op.query, user_id=self.user_id, limit=size, filters=where, memory_types=["fact"]
            )
            scored = [(h.memory, h.score.final) for h in hits]
        else:
            listed = self.memory.get_all(user_id=self.user_id, limit=_MAX_ITEMS, filters=where)
            scored = [(r, None) for r in listed]
        kept = [(r, s) for r, s in scored if _matches(r.metadata.get(_VALUE, {}), op.filter or {})]
        return [_item(r, score=s) for r, s in kept[op.offset : wanted]]

    def _list_namespaces(self, op: ListNamespacesOp) -> list[tuple[str, ...]]:
        records = self.memory.get_all(
            user_id=self.user_id, limit=_MAX_ITEMS, filters={f"metadata.{_DEPTH}": {"gte": 1}}
        )
        found = {tuple(json.loads(r.metadata[_NS])) for r in records}
        chosen = {
            ns[: op.max_depth] if op.max_depth is not None else ns
            for ns in found
            if all(_ns_match(c, ns) for c in op.match_conditions or ())
        }
        return sorted(chosen)[op.offset : op.offset + op.limit]


def _ns_text(namespace: tuple[str, ...]) -> str:
    return json.dumps(list(namespace), ensure_ascii=False)


def _text(value: Mapping[str, Any], fields: list[str] | None) -> str:
    """What recall searches: the indexed fields, or the value as ``field: value`` pairs."""
    if fields and fields != ["$"]:
        return " ".join(t for f in fields for t in get_text_at_path(value, f)).strip()
    parts = []
    for key, item in value.items():
        shown = item if isinstance(item, str) else json.dumps(item, ensure_ascii=False, sort_keys=True)
        parts.append(shown if key in ("text", "content", "memory") else f"{key}: {shown}")
    return "; ".join(parts)


def _item(record: MemoryRecord, *, score: float | None = None) -> SearchItem:
    meta = record.metadata
    created = dt.datetime.fromisoformat(meta.get(_CREATED) or record.created_at.isoformat())
    updated = record.updated_at or record.created_at
    return SearchItem(
        namespace=tuple(json.loads(meta[_NS])),
        key=meta[_KEY],
        value=meta.get(_VALUE, {}),
        created_at=created,
        updated_at=updated,
        score=score,
    )


def _ns_match(condition: MatchCondition, namespace: tuple[str, ...]) -> bool:
    path = condition.path
    if len(namespace) < len(path):
        return False
    pairs = (
        zip(namespace, path, strict=False)
        if condition.match_type == "prefix"
        else zip(reversed(namespace), reversed(path), strict=False)
    )
    return all(p == "*" or n == p for n, p in pairs)


def _matches(value: Any, condition: Any) -> bool:
    """LangGraph's value filter: exact (nested) matches and ``$eq $ne $gt $gte $lt $lte``."""
    if isinstance(condition, Mapping):
        if any(str(k).startswith("$") for k in condition):
            return all(_compare(value, op, operand) for op, operand in condition.items())
        return isinstance(value, Mapping) and all(_matches(value.get(k), v) for k, v in condition.items())
    return bool(value == condition)


def _compare(value: Any, op: str, operand: Any) -> bool:
    if op == "$eq":
        return bool(value == operand)
    if op == "$ne":
        return bool(value != operand)
    if not isinstance(value, int | float) or isinstance(value, bool):
        return False
    checks = {
        "$gt": value > operand,
        "$gte": value >= operand,
        "$lt": value < operand,
        "$lte": value <= operand,
    }
    if op not in checks:
        raise ValueError(f"unsupported filter operator {op!r}; use $eq, $ne, $gt, $gte, $lt, $lte")
    return checks[op]
