"""The second hop (issue 14 item 3; seed 003 §5.2 iterative retrieval). Pure.

Questions that need two pieces ("how many days after the workshop did I sign up for the race?")
name one piece; the other is found through the first. After the first fused ranking, the
second hop takes the best ``hop_seeds`` hits and builds:

- **expansion terms** (:func:`expansion_terms`): the words those hits share with nothing in the
  query, most frequent across the seeds first, at most ``hop_terms`` — searched by BM25 over
  memories and turns as the lists ``bm25_hop`` / ``bm25_turns_hop`` (weight ``hop_weight``);
- **a time anchor** (:func:`anchor_window`): "the week before the trip", "two days after the
  conference", "after I moved" — the event is looked up among the seeds (the best seed that
  mentions the anchor's words) and the window is taken relative to its date, replacing an
  unresolved time constraint of the query.

Both are recipe options (``second_hop``), off in the default recipe until measured on data it was
not tuned on (docs/benchmarks.md, "Recall evidence (issue 14)").
"""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter
from collections.abc import Sequence

from ..text.timeparse import TimeExpression
from ..text.tokenize import query_terms

_UNITS = {"day": 1, "week": 7, "month": 30, "year": 365}
_NUMBERS = {
    "a": 1,
    "an": 1,
    "one": 1,
    "the": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "a couple of": 2,
    "a few": 3,
}
_RELATIVE = re.compile(
    r"\b(?P<n>\d+|a couple of|a few|an|a|one|two|three|four|five|six|the)\s+(?P<unit>day|week|month|year)s?\s+"
    r"(?P<dir>before|after|prior to|following)\s+(?P<event>[^,.?!;]{3,60})",
    re.IGNORECASE,
)
_BARE = re.compile(
    r"\b(?P<dir>before|after|since)\s+(?P<event>(?:I|we|my|our|the)\b[^,.?!;]{3,60})", re.IGNORECASE
)


def expansion_terms(query: Sequence[str], seeds: Sequence[str], limit: int) -> list[str]:
    """Words of the seed texts not in the query, by how many seeds hold them (then first seen)."""
    asked = set(query)
    counts: Counter[str] = Counter()
    order: dict[str, int] = {}
    for text in seeds:
        for term in dict.fromkeys(query_terms(text)):
            if term in asked or len(term) < 2 or term.isdigit():
                continue
            counts[term] += 1
            order.setdefault(term, len(order))
    return sorted(counts, key=lambda t: (-counts[t], order[t]))[:limit]


def parse_anchor(question: str) -> tuple[str, int, int] | None:
    """``(event words, direction ±1, span days)`` of a time anchor in ``question``, or None."""
    m = _RELATIVE.search(question)
    if m is not None:
        n = m.group("n").lower()
        count = int(n) if n.isdigit() else _NUMBERS.get(n, 1)
        direction = -1 if m.group("dir").lower() in ("before", "prior to") else 1
        return m.group("event").strip(), direction, count * _UNITS[m.group("unit").lower()]
    m = _BARE.search(question)
    if m is not None:
        direction = -1 if m.group("dir").lower() == "before" else 1
        return m.group("event").strip(), direction, 0
    return None


def anchor_window(
    question: str, seeds: Sequence[tuple[str, dt.datetime | None]], reference: dt.datetime
) -> TimeExpression | None:
    """The window a time anchor of ``question`` points at, dated by the best seed that mentions the
    anchor's event (``seeds``: text and date, best first); None without an anchor or a dated match."""
    anchor = parse_anchor(question)
    if anchor is None:
        return None
    event, direction, days = anchor
    words = set(query_terms(event))
    when = next((date for text, date in seeds if date is not None and words & set(query_terms(text))), None)
    if when is None:
        return None
    day = when.replace(hour=0, minute=0, second=0, microsecond=0)
    if days == 0:  # "after I moved": from the event on (or up to it), bounded by the question's time
        start, end = (day, reference) if direction > 0 else (day - dt.timedelta(days=365), day)
    elif direction < 0:
        start, end = day - dt.timedelta(days=days), day
    else:
        start, end = day + dt.timedelta(days=1), day + dt.timedelta(days=days + 1)
    return TimeExpression(f"anchor: {event}", start, end, "day", (0, 0))
