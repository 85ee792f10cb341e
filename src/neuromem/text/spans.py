"""Character spans of text: the one place that trims a span to its non-blank content, and the one
sentence splitter (Chinese and English punctuation, newlines, common English abbreviations), and whether a
sentence asks (:func:`is_question`)."""

from __future__ import annotations

import re

_ABBREVIATIONS = (
    "Dr",
    "Mr",
    "Mrs",
    "Ms",
    "St",
    "Jr",
    "Sr",
    "Prof",
    "vs",
    "etc",
    "e.g",
    "i.e",
    "approx",
    "No",
)
_SPLIT = re.compile(
    r"(?<=[。！？；])|(?<=[!?;])(?![\w@#$%&*])|\n+|"  # "Heron!512", "Yahoo!Mail": one word, not two sentences
    + "".join(f"(?<!\\b{re.escape(a)}\\.)" for a in _ABBREVIATIONS)
    + r"(?<=[.])\s+"
)


def trim_span(text: str, start: int, end: int) -> tuple[int, int] | None:
    """``(start, end)`` narrowed to exclude surrounding whitespace; None if only whitespace remains."""
    piece = text[start:end]
    stripped = piece.strip()
    if not stripped:
        return None
    start += len(piece) - len(piece.lstrip())
    return start, start + len(stripped)


def split_sentences(text: str) -> list[tuple[int, int]]:
    """Spans of the sentences of ``text`` (Chinese and English punctuation, newlines), trimmed."""
    spans: list[tuple[int, int]] = []
    start = 0
    for m in _SPLIT.finditer(text):
        if m.start() > start or m.end() > start:
            spans.append((start, m.start() if m.start() > start else m.end()))
        start = max(start, m.end())
    spans.append((start, len(text)))
    return [span for a, b in spans if (span := trim_span(text, a, b)) is not None]


def is_question(text: str) -> bool:
    """``text`` ends with a question mark, full or half width ("Still fully remote?", 还是早起吗？)."""
    return text.rstrip().endswith(("?", "？"))
