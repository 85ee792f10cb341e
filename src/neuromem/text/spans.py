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
#: A lookbehind that fails right after an abbreviation's full stop ("Mr.", "Dr.", "e.g."): the stop ends no sentence
#: and no value
NOT_ABBREVIATED = "".join(f"(?<!\\b{re.escape(a)}\\.)" for a in _ABBREVIATIONS)
_SPLIT = re.compile(
    r"(?<=[。！？；])|(?<=[!?;])(?![\w@#$%&*])|\n+|"  # "Heron!512", "Yahoo!Mail": one word, not two sentences
    + NOT_ABBREVIATED
    + r"(?<=[.])\s+"
)
#: The same, but a semicolon joins: "Alun's retired; his niece Carys has taken the van on" is one statement
_SPLIT_KEEPING_SEMICOLONS = re.compile(
    r"(?<=[。！？])|(?<=[!?])(?![\w@#$%&*])|\n+|" + NOT_ABBREVIATED + r"(?<=[.])\s+"
)


def trim_span(text: str, start: int, end: int) -> tuple[int, int] | None:
    """``(start, end)`` narrowed to exclude surrounding whitespace; None if only whitespace remains."""
    piece = text[start:end]
    stripped = piece.strip()
    if not stripped:
        return None
    start += len(piece) - len(piece.lstrip())
    return start, start + len(stripped)


def split_sentences(text: str, *, semicolons: bool = True) -> list[tuple[int, int]]:
    """Spans of the sentences of ``text`` (Chinese and English punctuation, newlines), trimmed. Not
    ``semicolons``: a semicolon does not end a sentence (the clauses it joins tell one thing)."""
    spans: list[tuple[int, int]] = []
    start = 0
    for m in (_SPLIT if semicolons else _SPLIT_KEEPING_SEMICOLONS).finditer(text):
        if m.start() > start or m.end() > start:
            spans.append((start, m.start() if m.start() > start else m.end()))
        start = max(start, m.end())
    spans.append((start, len(text)))
    return [span for a, b in spans if (span := trim_span(text, a, b)) is not None]


def is_question(text: str) -> bool:
    """``text`` ends with a question mark, full or half width ("Still fully remote?", 还是早起吗？)."""
    return text.rstrip().endswith(("?", "？"))
