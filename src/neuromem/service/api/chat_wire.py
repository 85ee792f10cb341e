"""OpenAI's chat-completions wire format, as the memory proxy needs it (pure, no I/O).

- ``parse_request`` checks a request body enough to forward it (``WireError`` otherwise,
  answered as OpenAI's ``{"error": {...}}`` with status 400);
- ``last_user_text`` is what recall looks for; ``with_memory`` puts the recalled block in a
  system message (appended to a leading system message, else a new one first);
- ``answer_text`` reads a non-streamed answer, ``StreamCollector`` gathers a streamed one
  from its server-sent events while the bytes pass through unchanged.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

MEMORY_HEADING = "Relevant memories about the user (from neuromem):"


class WireError(ValueError):
    """A request the proxy cannot forward; ``param`` names the offending field."""

    def __init__(self, message: str, param: str | None = None) -> None:
        super().__init__(message)
        self.param = param

    def body(self) -> dict[str, Any]:
        return openai_error(str(self), "invalid_request_error", self.param)


def openai_error(message: str, kind: str, param: str | None = None) -> dict[str, Any]:
    """OpenAI's error shape."""
    return {"error": {"message": message, "type": kind, "param": param, "code": None}}


def parse_request(raw: bytes) -> dict[str, Any]:
    """The request as a dict, when it is a JSON object with a usable ``messages`` list."""
    try:
        body = json.loads(raw)
    except ValueError as exc:
        raise WireError(f"the body is not JSON: {exc}") from None
    if not isinstance(body, dict):
        raise WireError("the body must be a JSON object")
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        raise WireError("'messages' must be a non-empty array", "messages")
    for i, message in enumerate(messages):
        if not isinstance(message, dict) or not isinstance(message.get("role"), str):
            raise WireError(f"messages[{i}] must be an object with a string 'role'", f"messages[{i}]")
    if not isinstance(body.get("model", ""), str):
        raise WireError("'model' must be a string", "model")
    if not isinstance(body.get("stream", False), bool):
        raise WireError("'stream' must be a boolean", "stream")
    if body.get("user") is not None and not isinstance(body["user"], str):
        raise WireError("'user' must be a string", "user")
    return body


def content_text(content: Any) -> str:
    """The text of a message's ``content``: a string, or the text parts of a list of parts."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = [p.get("text") for p in content if isinstance(p, dict) and p.get("type") == "text"]
        return "\n".join(p for p in parts if isinstance(p, str))
    return ""


def last_user_text(messages: list[dict[str, Any]]) -> str:
    """The text of the last user message ("" when there is none)."""
    for message in reversed(messages):
        if message.get("role") == "user":
            return content_text(message.get("content")).strip()
    return ""


def with_memory(messages: list[dict[str, Any]], block: str) -> list[dict[str, Any]]:
    """``messages`` with ``block`` in a system message; the caller's list is not changed."""
    if not block.strip():
        return list(messages)
    text = f"{MEMORY_HEADING}\n{block.strip()}"
    first = messages[0]
    if first.get("role") in ("system", "developer") and isinstance(first.get("content"), str):
        return [{**first, "content": f"{first['content']}\n\n{text}"}, *messages[1:]]
    return [{"role": "system", "content": text}, *messages]


def answer_text(body: Any) -> str:
    """The assistant's text in a non-streamed answer ("" when the shape is unexpected)."""
    try:
        return content_text(body["choices"][0]["message"]["content"])
    except (KeyError, IndexError, TypeError):
        return ""


@dataclass
class StreamCollector:
    """Reads server-sent events as they pass: the text of choice 0's deltas, and whether ``[DONE]`` came."""

    parts: list[str] = field(default_factory=list)
    done: bool = False
    _pending: bytes = b""

    def feed(self, chunk: bytes) -> None:
        self._pending += chunk
        *lines, self._pending = self._pending.split(b"\n")
        for line in lines:
            self._line(line.strip())

    def _line(self, line: bytes) -> None:
        if not line.startswith(b"data:"):
            return
        data = line[5:].strip()
        if data == b"[DONE]":
            self.done = True
            return
        try:
            event = json.loads(data)
            delta = event["choices"][0].get("delta") or {}
        except (ValueError, KeyError, IndexError, TypeError, AttributeError):
            return
        if isinstance(delta.get("content"), str):
            self.parts.append(delta["content"])

    @property
    def text(self) -> str:
        return "".join(self.parts)
