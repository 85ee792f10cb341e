"""Token-budget packing (seed 003 §5.3 "Knapsack 近似", seed 001 §6.2 grouping). Pure.

Items are chosen by score per token (the greedy 0/1-knapsack approximation, checked
against the best single item, which makes it a ½-approximation), pinned items first.
Supporting episodes longer than ``max_item_tokens`` are compressed by the rule-based
summariser (their first sentences, cut to the limit) before their cost is counted.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Sequence
from dataclasses import dataclass

from ..text.token_count import count_tokens, truncate_to_tokens
from ..types import SearchHit

#: Sections of the prompt, in seed 001 §6.2 order.
SECTIONS = ("core", "preference", "behavior", "recalled", "skills")  # + seed 004 §4.2 "Proven Skills"


@dataclass(frozen=True, slots=True)
class Citation:
    """Where a packed line comes from: the memory, its sessions and the exact original words."""

    memory_id: uuid.UUID
    session_ids: tuple[str, ...] = ()
    quote: str | None = None
    sha256: str | None = None
    offset: int | None = None
    length: int | None = None


@dataclass(frozen=True, slots=True)
class PackItem:
    hit: SearchHit
    section: str
    text: str  # what goes into the prompt (maybe compressed)
    tokens: int
    value: float
    pinned: bool = False
    compressed: bool = False


def section_of(hit: SearchHit) -> str:
    """Seed 001 §6.2: core traits, preferences (traits and explicit preference facts), behaviours, the rest."""
    m = hit.memory
    if m.memory_type == "trait":
        return {"core": "core", "preference": "preference", "behavior": "behavior"}.get(
            m.trait_subtype or "", "behavior"
        )
    if m.category == "preference":
        return "preference"
    if m.category == "procedure":
        return "skills"
    return "recalled"


_SENTENCE_END = re.compile(r"(?<=[。！？!?])|(?<=[.;]) ")


def compress_rule_based(text: str, max_tokens: int) -> str:
    """The leading sentences of ``text`` that fit ``max_tokens`` (at least a cut first sentence)."""
    text = " ".join(text.split())
    if count_tokens(text) <= max_tokens:
        return text
    out = ""
    for piece in _SENTENCE_END.split(text):
        candidate = (out + " " + piece).strip() if out else piece.strip()
        if count_tokens(candidate + "…") > max_tokens:
            break
        out = candidate
    if not out:
        out = truncate_to_tokens(text, max(1, max_tokens - 1))
    return out.rstrip() + "…"


def make_items(
    hits: Sequence[SearchHit], *, pinned: frozenset[uuid.UUID], max_item_tokens: int, line_cost: int
) -> list[PackItem]:
    """One item per hit: its section, its (compressed) text, and its token cost including the line markup."""
    items = []
    for hit in hits:
        text = " ".join(hit.memory.content.split())
        compressed = False
        if count_tokens(text) > max_item_tokens:
            text, compressed = compress_rule_based(text, max_item_tokens), True
        items.append(PackItem(hit, section_of(hit), text, count_tokens(text) + line_cost, hit.score.final,
                              hit.memory.id in pinned, compressed))  # fmt: skip
    return items


def knapsack(values: Sequence[float], costs: Sequence[int], budget: int) -> list[int]:
    """Indices chosen greedily by value per cost within ``budget``, or the single most valuable
    item that fits if that is worth more (½-approximation of 0/1 knapsack)."""
    order = sorted(range(len(values)), key=lambda i: (-(values[i] / max(costs[i], 1)), i))
    chosen, used = [], 0
    for i in order:
        if costs[i] <= budget - used:
            chosen.append(i)
            used += costs[i]
    fitting = [i for i in range(len(values)) if costs[i] <= budget]
    if fitting:
        best = max(fitting, key=lambda i: (values[i], -i))
        if values[best] > sum(values[i] for i in chosen):
            return [best]
    return sorted(chosen)


def pack(items: Sequence[PackItem], budget: int) -> list[PackItem]:
    """Pinned items first (in order, while they fit), then the knapsack over the rest."""
    chosen: list[PackItem] = []
    used = 0
    for item in items:
        if item.pinned and used + item.tokens <= budget:
            chosen.append(item)
            used += item.tokens
    rest = [i for i in items if not i.pinned and i.value > 0]  # a zero-score hit is no evidence
    picked = knapsack([i.value for i in rest], [i.tokens for i in rest], budget - used)
    chosen.extend(rest[i] for i in picked)
    return chosen


def group(items: Sequence[PackItem]) -> dict[str, list[PackItem]]:
    """Items by section in seed 001 §6.2 order, best first inside each section."""
    out: dict[str, list[PackItem]] = {s: [] for s in SECTIONS}
    for item in items:
        out[item.section].append(item)
    for section in out.values():
        section.sort(key=lambda i: (not i.pinned, -i.value))
    return {s: v for s, v in out.items() if v}
