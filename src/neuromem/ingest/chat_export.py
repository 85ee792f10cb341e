"""Import a chat export (JSON or JSON Lines) through the ingest pipeline, resumably.

Accepted shapes (one user per file):

- JSON Lines, one message per line: ``{"session_id": ..., "role": ..., "content": ..., "timestamp": ...}``
  (``conversation_id`` is accepted for ``session_id``);
- JSON Lines, one session per line: ``{"session_id": ..., "messages": [...]}``;
- JSON: a list of either, or ``{"sessions": [...]}``.

A message may carry its own id (``id``, or ``metadata.message_id``): it is kept in the
message's metadata (``Memory.sources`` returns it) and is the turn's identity.

Each batch of turns is one transaction. Running an import again — after an
interruption, or with another file — skips exactly the turns already stored, recognised
by their turn key (``ingest.turns``: the message id, or role, speaker, timestamp, content
and occurrence; an undated turn by its content and occurrence), never by a count per
session: a second export without session ids, or reusing one, loses nothing, and the
same file twice stores nothing twice. A bad message (empty, unknown role…) is reported in
``ImportSummary.rejected`` and the rest is imported.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import InvalidInputError
from .pipeline import DEFAULT_SESSION, IngestPipeline
from .turns import RejectedMessage, parse_turns


@dataclass
class ImportSummary:
    sessions: int = 0
    turns_total: int = 0
    turns_ingested: int = 0
    turns_skipped: int = 0  # already stored (same turn key): an earlier run, or another import
    memories_written: int = 0
    units: int = 0  # mined sentences (or LLM items): candidates + dropped
    dropped: dict[str, int] = field(default_factory=dict)
    rejected: list[tuple[str, RejectedMessage]] = field(default_factory=list)  # (session id, bad message)


def read_export(path: Path) -> dict[str, list[dict[str, Any]]]:
    """Messages grouped by session id, in file order."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InvalidInputError(f"cannot read {path}: {exc}") from None
    items: list[Any]
    if path.suffix == ".jsonl" or (text.lstrip()[:1] == "{" and "\n{" in text.strip()):
        items = _json_lines(path, text)
    else:
        try:
            data = json.loads(text)
        except (json.JSONDecodeError, RecursionError) as exc:  # RecursionError: nested absurdly deep
            raise InvalidInputError(f"{path} is not valid JSON / JSON Lines: {exc}") from None
        items = data.get("sessions", []) if isinstance(data, dict) else data
    if not isinstance(items, list):
        raise InvalidInputError(f"{path}: expected a list of messages or sessions")
    sessions: dict[str, list[dict[str, Any]]] = {}
    for n, item in enumerate(_flatten(items)):
        if not isinstance(item, dict):
            raise InvalidInputError(f"{path}: item {n} is not an object")
        sid = str(item.get("session_id") or item.get("conversation_id") or DEFAULT_SESSION)
        message = {
            k: item[k] for k in ("role", "content", "timestamp", "name", "metadata", "id") if k in item
        }
        sessions.setdefault(sid, []).append(message)
    return sessions


def _json_lines(path: Path, text: str) -> list[Any]:
    """One JSON value per non-blank line; a bad line is reported by its number in the file."""
    items = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            items.append(json.loads(line))
        except (json.JSONDecodeError, RecursionError) as exc:
            reason = exc.msg if isinstance(exc, json.JSONDecodeError) else "nested too deep"
            column = f", column {exc.colno}" if isinstance(exc, json.JSONDecodeError) else ""
            raise InvalidInputError(f"{path} line {number}{column} is not valid JSON: {reason}") from None
    return items


def _flatten(items: list[Any]) -> Iterator[Any]:
    for item in items:
        if isinstance(item, dict) and isinstance(item.get("messages"), list):
            sid = item.get("session_id") or item.get("conversation_id") or item.get("id")
            for message in item["messages"]:
                yield {**message, "session_id": sid} if isinstance(message, dict) else message
        else:
            yield item


def import_export(
    pipeline: IngestPipeline,
    path: Path,
    user_id: str,
    *,
    batch_size: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> ImportSummary:
    """Ingest the file; ``progress(n)`` is called with the number of turns done after each batch."""
    sessions = read_export(path)
    size = batch_size or pipeline.settings.ingest.batch_size
    summary = ImportSummary(sessions=len(sessions), turns_total=sum(len(m) for m in sessions.values()))
    dropped: dict[str, int] = {}
    batches = []
    for sid, messages in sessions.items():
        parsed = parse_turns(
            messages, pipeline.settings, now=pipeline.runtime.now(), strict=False, undated_by_content=True
        )
        summary.rejected += [(sid, r) for r in parsed.rejected]
        todo = pipeline.new_turns(user_id, sid, parsed.turns)
        summary.turns_skipped += len(parsed.turns) - len(todo)
        batches += [(todo[start : start + size], user_id, sid) for start in range(0, len(todo), size)]
    if progress is not None and summary.turns_skipped:
        progress(summary.turns_skipped)
    for (_turns, _user, sid), report in zip(batches, pipeline.ingest_many(batches), strict=True):
        summary.turns_ingested += report.turns
        summary.turns_skipped += report.skipped
        summary.units += report.units
        summary.memories_written += sum(1 for r in report.results if str(r.operation) != "noop")
        summary.rejected += [(sid, r) for r in report.rejected]  # refused by the privacy mode
        for reason, n in report.dropped.items():
            dropped[reason] = dropped.get(reason, 0) + n
        if progress is not None:
            progress(report.turns + report.skipped)
    summary.dropped = dropped
    return summary
