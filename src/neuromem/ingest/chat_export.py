"""Import a chat export (JSON or JSON Lines) through the ingest pipeline, resumably.

Accepted shapes (one user per file):

- JSON Lines, one message per line: ``{"session_id": ..., "role": ..., "content": ..., "timestamp": ...}``
  (``conversation_id`` is accepted for ``session_id``);
- JSON Lines, one session per line: ``{"session_id": ..., "messages": [...]}``;
- JSON: a list of either, or ``{"sessions": [...]}``.

Each batch of turns is one transaction, so after an interruption a session has exactly
its first N turns stored; running the import again skips those N turns of each session
(the file's order is the session's order) and continues — no duplicates.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import InvalidInputError
from .pipeline import DEFAULT_SESSION, IngestPipeline


@dataclass
class ImportSummary:
    sessions: int = 0
    turns_total: int = 0
    turns_ingested: int = 0
    turns_skipped: int = 0  # already stored by an earlier (interrupted) run
    memories_written: int = 0
    units: int = 0  # mined sentences (or LLM items): candidates + dropped
    dropped: dict[str, int] = field(default_factory=dict)


def read_export(path: Path) -> dict[str, list[dict[str, Any]]]:
    """Messages grouped by session id, in file order."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InvalidInputError(f"cannot read {path}: {exc}") from None
    items: list[Any]
    try:
        if path.suffix == ".jsonl" or (text.lstrip()[:1] == "{" and "\n{" in text.strip()):
            items = [json.loads(line) for line in text.splitlines() if line.strip()]
        else:
            data = json.loads(text)
            items = data.get("sessions", []) if isinstance(data, dict) else data
    except (json.JSONDecodeError, RecursionError) as exc:  # RecursionError: nested absurdly deep
        raise InvalidInputError(f"{path} is not valid JSON / JSON Lines: {exc}") from None
    if not isinstance(items, list):
        raise InvalidInputError(f"{path}: expected a list of messages or sessions")
    sessions: dict[str, list[dict[str, Any]]] = {}
    for n, item in enumerate(_flatten(items)):
        if not isinstance(item, dict):
            raise InvalidInputError(f"{path}: item {n} is not an object")
        sid = str(item.get("session_id") or item.get("conversation_id") or DEFAULT_SESSION)
        message = {k: item[k] for k in ("role", "content", "timestamp", "name", "metadata") if k in item}
        sessions.setdefault(sid, []).append(message)
    return sessions


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
        done = min(pipeline.stored_messages(user_id, sid), len(messages))
        summary.turns_skipped += done
        batches += [(messages[start : start + size], user_id, sid) for start in range(done, len(messages), size)]
    if progress is not None and summary.turns_skipped:
        progress(summary.turns_skipped)
    for report in pipeline.ingest_many(batches):
        summary.turns_ingested += report.turns
        summary.units += report.units
        summary.memories_written += sum(1 for r in report.results if str(r.operation) != "noop")
        for reason, n in report.dropped.items():
            dropped[reason] = dropped.get(reason, 0) + n
        if progress is not None:
            progress(report.turns)
    summary.dropped = dropped
    return summary
