"""Conflict priority of seed 003 §7.2, as pure functions:

    prio(fact) = a·source_trust + b·recency_score + c·evidence_support + d·consistency

- ``source_trust`` — ``metadata.source_trust`` when given, else ``conflicts.source_trust`` of
  ``metadata.source`` (``user`` when absent), else ``conflicts.default_trust``;
- ``recency_score`` — 1 for the newer side of the pair, 0 for the older (seed: 新近版本加权);
- ``evidence_support`` — ``1 − exp(−n / 2)`` for ``n`` supporting pieces (its own sources and
  SUPPORTS edges);
- ``consistency`` — the share of the user's other facts on the same subject attribute that
  agree with this value (0.5 when there are none).

The higher side becomes the active version, the lower keeps its row with ``invalid_at``; sides
closer than ``conflicts.review_margin`` go to the review queue instead. Also the offline
detector of "same subject, same predicate, another value" (:func:`attribute_and_value`): a
copular statement about something of the speaker's ("my favourite colour is blue", "我的生日是
五月三日") whose subject phrase matches another fact's and whose value differs.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

from .config import ConflictSettings


@dataclass(frozen=True, slots=True)
class Side:
    """One side of a conflict, reduced to the four inputs of the priority."""

    trust: float
    newer: bool
    support: int
    agreeing: int
    others: int  # other facts of the same attribute (agreeing or not)


@dataclass(frozen=True, slots=True)
class Verdict:
    old_score: float
    new_score: float
    winner: str | None  # "old", "new", or None: too close, review

    @property
    def margin(self) -> float:
        return abs(self.new_score - self.old_score)


def source_trust(metadata: dict[str, Any], settings: ConflictSettings) -> float:
    given = metadata.get("source_trust")
    if isinstance(given, int | float) and not isinstance(given, bool) and 0 <= given <= 1:
        return float(given)
    source = metadata.get("source", "user")
    return settings.source_trust.get(str(source), settings.default_trust)


def evidence_support(n: int) -> float:
    return 1.0 - math.exp(-max(0, n) / 2.0)


def consistency(agreeing: int, others: int) -> float:
    return 0.5 if others <= 0 else agreeing / others


def priority(side: Side, settings: ConflictSettings) -> float:
    return (
        settings.weight_trust * side.trust
        + settings.weight_recency * (1.0 if side.newer else 0.0)
        + settings.weight_support * evidence_support(side.support)
        + settings.weight_consistency * consistency(side.agreeing, side.others)
    )


def judge(old: Side, new: Side, settings: ConflictSettings) -> Verdict:
    a, b = priority(old, settings), priority(new, settings)
    if abs(a - b) < settings.review_margin:
        return Verdict(a, b, None)
    return Verdict(a, b, "new" if b > a else "old")


# --------------------------------------------------------------------------- offline detector

_EN = re.compile(
    r"^\s*(my (?:[\w'’-]+ ){0,4}?[\w'’-]+) (?:is|are|was) (?:now |currently |still )?(.+?)[\s.!。]*$",
    re.IGNORECASE,
)
_ZH = re.compile(r"^\s*(我的\S{1,12}?)(?:现在|目前)?(?:是|为|叫)(.+?)[。！!.\s]*$")


def attribute_and_value(text: str) -> tuple[str, str] | None:
    """``("my favourite colour", "blue")`` for a copular statement about the speaker's own
    attribute, else None. The attribute is case-folded; the value too."""
    for pattern in (_EN, _ZH):
        m = pattern.match(text)
        if m:
            attribute, value = m.group(1).casefold().strip(), m.group(2).casefold().strip()
            if value and len(value) <= 80:
                return " ".join(attribute.split()), value
    return None


__all__ = [
    "Side",
    "Verdict",
    "attribute_and_value",
    "consistency",
    "evidence_support",
    "judge",
    "priority",
    "source_trust",
]
