"""Turn what a (local) model says into the JSON value it meant.

Repairs, in order: ``<think>…</think>`` reasoning blocks, Markdown code fences,
prose before and after the JSON, then — only outside double-quoted strings —
trailing commas, Python ``True``/``False``/``None`` and single-quoted strings.
Anything still unparseable raises ``ValueError`` with the JSON decoder's
message, which ``complete_structured`` sends back to the model.
"""

from __future__ import annotations

import json
import re
from typing import Any

_THINK = re.compile(r"<think>.*?(?:</think>|$)", re.DOTALL | re.IGNORECASE)
_FENCE = re.compile(r"```[ \t]*(?:json5?|JSON)?[ \t]*\n?(.*?)```", re.DOTALL)
_PY_LITERALS = {"True": "true", "False": "false", "None": "null"}

__all__ = ["parse_json_reply"]


def parse_json_reply(text: str) -> Any:
    """The JSON value in ``text``.

    >>> parse_json_reply('Sure! ```json\\n{"a": [1, 2,], "b": True}\\n``` Hope it helps.')
    {'a': [1, 2], 'b': True}
    >>> parse_json_reply("{'name': 'Li Lei', 'likes': None}")
    {'name': 'Li Lei', 'likes': None}
    """
    cleaned = _THINK.sub("", text).strip()
    fence = _FENCE.search(cleaned)
    if fence:
        cleaned = fence.group(1).strip()
    try:
        return json.loads(cleaned)
    except ValueError:
        pass
    candidate = _outermost(cleaned)
    if candidate is None:
        raise ValueError("the answer contains no JSON object or array")
    try:
        return json.loads(candidate)
    except ValueError:
        pass
    try:
        return json.loads(_normalize(candidate))
    except ValueError as exc:
        raise ValueError(f"the answer is not valid JSON: {exc}") from None


def _outermost(text: str) -> str | None:
    """The first balanced ``{…}`` or ``[…]`` in ``text`` (string-aware), or its unbalanced tail."""
    starts = [i for i in (text.find("{"), text.find("[")) if i >= 0]
    if not starts:
        return None
    start = min(starts)
    depth = 0
    quote: str | None = None
    i = start
    while i < len(text):
        ch = text[i]
        if quote:
            if ch == "\\":
                i += 1
            elif ch == quote:
                quote = None
        elif ch == '"' or (ch == "'" and not text[i - 1].isalnum()):
            quote = ch
        elif ch in "{[":
            depth += 1
        elif ch in "}]":
            depth -= 1
            if depth == 0:
                return text[start : i + 1]
        i += 1
    return text[start:]


def _normalize(text: str) -> str:
    """Rewrite Python-ish JSON into JSON, touching nothing inside double-quoted strings."""
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append(text[i : j + 1])
            i = j + 1
        elif ch == "'":
            j = i + 1
            chars: list[str] = []
            while j < n and text[j] != "'":
                if text[j] == "\\" and j + 1 < n:
                    chars.append(text[j + 1] if text[j + 1] == "'" else text[j : j + 2])
                    j += 2
                    continue
                chars.append('\\"' if text[j] == '"' else text[j])
                j += 1
            out.append('"' + "".join(chars) + '"')
            i = j + 1
        elif ch == ",":
            j = i + 1
            while j < n and text[j].isspace():
                j += 1
            if j >= n or text[j] not in "}]":
                out.append(ch)
            i += 1
        elif ch.isalpha() or ch == "_":
            j = i
            while j < n and (text[j].isalnum() or text[j] == "_"):
                j += 1
            word = text[i:j]
            out.append(_PY_LITERALS.get(word, word))
            i = j
        else:
            out.append(ch)
            i += 1
    return "".join(out)
