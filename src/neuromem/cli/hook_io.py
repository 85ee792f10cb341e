"""What coding agents send their hooks on stdin, read into one shape (pure; no neuromem imports).

- Claude Code: ``UserPromptSubmit`` gets ``{"session_id", "transcript_path", "prompt", …}``;
  ``Stop`` gets ``{"session_id", "transcript_path", "stop_hook_active", …}`` — the exchange is read
  from the transcript (JSON Lines: ``{"type": "user"|"assistant", "message": {"content": …}}``).
- Cursor: ``beforeSubmitPrompt`` gets ``{"conversation_id", "prompt", …}``; ``afterAgentResponse``
  gets ``{"conversation_id", "text", …}`` — the prompt was kept by the first hook (``PendingPrompts``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

MAX_TRANSCRIPT_BYTES = 20 * 1024 * 1024  # a longer transcript is read from its last 20 MB


@dataclass(frozen=True)
class HookEvent:
    session: str  # Claude Code's session_id / Cursor's conversation_id ("" when absent)
    prompt: str  # the user's prompt ("" when the event has none)
    reply: str  # the agent's reply (Cursor's afterAgentResponse)
    transcript: Path | None  # Claude Code's transcript_path


def read_event(raw: str) -> HookEvent:
    """The hook's stdin; a ``ValueError`` when it is not a JSON object."""
    data = json.loads(raw) if raw.strip() else {}
    if not isinstance(data, dict):
        raise ValueError("the hook's input is not a JSON object")
    transcript = data.get("transcript_path")
    return HookEvent(
        session=str(data.get("session_id") or data.get("conversation_id") or ""),
        prompt=_text(data.get("prompt")),
        reply=_text(data.get("text")),
        transcript=Path(transcript).expanduser() if isinstance(transcript, str) and transcript else None,
    )


def _text(value: Any) -> str:
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, list):  # content parts
        parts = [p.get("text") for p in value if isinstance(p, dict) and p.get("type") == "text"]
        return "\n".join(p for p in parts if isinstance(p, str)).strip()
    return ""


def last_exchange(lines: Iterable[str]) -> tuple[str, str] | None:
    """The last prompt the user typed in a Claude Code transcript and the assistant's text after it
    (tool calls and tool results left out); None when there is no such prompt."""
    prompt: str | None = None
    replies: list[str] = []
    for line in lines:
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        if not isinstance(entry, dict) or entry.get("isMeta"):
            continue
        message = entry.get("message")
        content = message.get("content") if isinstance(message, dict) else None
        text = _text(content)
        if entry.get("type") == "user" and text and not _is_command_echo(text):
            prompt, replies = text, []
        elif entry.get("type") == "assistant" and text and prompt is not None:
            replies.append(text)
    return None if prompt is None else (prompt, "\n\n".join(replies))


def _is_command_echo(text: str) -> bool:
    """Claude Code writes slash-command output into the transcript as user text in these tags."""
    return bool(re.match(r"<(command-name|command-message|local-command-stdout)>", text))


def read_transcript(path: Path) -> list[str]:
    with path.open("rb") as f:
        size = f.seek(0, 2)
        f.seek(max(0, size - MAX_TRANSCRIPT_BYTES))
        return f.read().decode("utf-8", errors="replace").splitlines()


class PendingPrompts:
    """Prompts kept between Cursor's ``beforeSubmitPrompt`` and ``afterAgentResponse``, one file per
    conversation under ``folder``."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def _file(self, agent: str, session: str) -> Path:
        safe = re.sub(r"[^A-Za-z0-9_.-]", "_", f"{agent}-{session or 'default'}")[:200]
        return self.folder / f"{safe}.prompt"

    def keep(self, agent: str, session: str, prompt: str) -> None:
        self.folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        self._file(agent, session).write_text(prompt, encoding="utf-8")

    def take(self, agent: str, session: str) -> str:
        file = self._file(agent, session)
        try:
            text = file.read_text(encoding="utf-8")
        except FileNotFoundError:
            return ""
        file.unlink(missing_ok=True)
        return text
