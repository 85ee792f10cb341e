"""Token-budget packing (seed 003 §5.3 "Knapsack 近似", seed 001 §6.2 grouping). Pure.

:func:`pack` fills the budget by **marginal value** (issue 14 item 2): pinned items first,
up to their bounded share; then, repeatedly, the item whose score times ½ + ½ novelty (the
share of its words not already in the block) is highest, while it fits; an item with no new word is skipped — no line count,
so a larger budget holds more evidence, and a near-repeat of what is packed adds nothing.
Passages longer than ``max_item_tokens`` keep the sentences that hold the most query
terms, in their order (:func:`focus_passage`); without query terms, their first sentences
(:func:`compress_rule_based`). :func:`knapsack` (score per token, ½-approximation) is kept
for callers that want the densest set.
"""

from __future__ import annotations

import functools
import heapq
import re
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..text.token_count import count_tokens, fewer_tokens_than, truncate_to_tokens
from ..text.tokenize import tokenize
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
    if fewer_tokens_than(text, max_tokens + 1):
        return text
    kept: list[str] = []
    used = 1  # the closing "…"
    for piece in (p.strip() for p in _SENTENCE_END.split(text)):
        cost = passage_tokens(piece)  # pieces are joined by a space, which is free: costs add up
        if used + cost > max_tokens:
            break
        kept.append(piece)
        used += cost
    out = " ".join(p for p in kept if p)
    if not out:
        out = truncate_to_tokens(text, max(1, max_tokens - 1))
    return out.rstrip() + "…"


def make_items(
    hits: Sequence[SearchHit],
    *,
    pinned: frozenset[uuid.UUID],
    max_item_tokens: int,
    line_cost: int,
    terms: Sequence[str] = (),
    texts: Mapping[uuid.UUID, str] | None = None,
) -> list[PackItem]:
    """One item per hit: its section, its text (``texts`` by record id, else the content; focused on
    ``terms`` or compressed when long) and its token cost including the line markup."""
    items = []
    for hit in hits:
        text = " ".join(((texts or {}).get(hit.memory.id) or hit.memory.content).split())
        tokens = passage_tokens(text)  # once: a long passage is read whole by focus_passage anyway
        compressed = tokens > max_item_tokens
        if compressed:
            text = focus_passage(text, terms, max_item_tokens)
            tokens = count_tokens(text)
        items.append(
            PackItem(
                hit,
                section_of(hit),
                text,
                tokens + line_cost,
                pack_value(hit),
                hit.memory.id in pinned,
                compressed,
            )
        )
    return items


@functools.lru_cache(maxsize=4096)
def passage_tokens(text: str) -> int:
    """``count_tokens`` of a recalled passage, remembered: an agent's recalls bring the same memories back
    again and again, and counting their words is most of the packing's time."""
    return count_tokens(text)


def pack_value(hit: SearchHit) -> float:
    """The value of a hit for the block: its final score (recall scores a lexically matched hit the fusion
    clipped to 0 with a trace, ``recall.truth.lexical_traces``; a hit at 0 is worth nothing)."""
    return max(0.0, hit.score.final)


def focus_passage(text: str, terms: Sequence[str], max_tokens: int) -> str:
    """The sentences of ``text`` holding the most query ``terms`` (earlier first on ties) that fit
    ``max_tokens``, in their original order, gaps marked "…"; the leading sentences without terms."""
    sentences = [p.strip() for p in _SENTENCE_END.split(" ".join(text.split())) if p.strip()]
    wanted = {t.lower() for t in terms if t}
    if not wanted or len(sentences) < 2:
        return compress_rule_based(text, max_tokens)
    hits = [sum(1 for t in wanted if t in s.lower()) for s in sentences]
    if not any(hits):
        return compress_rule_based(text, max_tokens)
    # joined by spaces (free) and "…" (1 each), the sentences' costs add up; only those holding a term
    # can be chosen, so only they are counted
    costs = [passage_tokens(s) if hits[i] else 0 for i, s in enumerate(sentences)]
    chosen: set[int] = set()
    for i in sorted((i for i in range(len(sentences)) if hits[i]), key=lambda i: (-hits[i], i)):
        if _joined_cost(costs, chosen | {i}) <= max_tokens:
            chosen.add(i)
    if not chosen:
        best = max(range(len(sentences)), key=lambda i: (hits[i], -i))
        return compress_rule_based(sentences[best], max_tokens)
    return _joined(sentences, chosen)


def _gaps(count: int, chosen: set[int]) -> list[int | None]:
    """The chosen indices in order with ``None`` where ``_joined`` writes "…"."""
    out: list[int | None] = []
    previous = -1
    for i in sorted(chosen):
        if (previous >= 0 and i > previous + 1) or (previous < 0 and i > 0):
            out.append(None)
        out.append(i)
        previous = i
    if previous < count - 1:
        out.append(None)
    return out


def _joined(sentences: Sequence[str], chosen: set[int]) -> str:
    return " ".join("…" if i is None else sentences[i] for i in _gaps(len(sentences), chosen))


def _joined_cost(costs: Sequence[int], chosen: set[int]) -> int:
    """``count_tokens(_joined(...))`` from the sentences' own counts."""
    return sum(1 if i is None else costs[i] for i in _gaps(len(costs), chosen))


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


def pack(items: Sequence[PackItem], budget: int, *, pinned_share: float = 1.0) -> list[PackItem]:
    """Pinned items first (in order, while they fit in ``pinned_share`` of the budget), then by marginal
    value — score × (½ + ½ novelty) — while anything still fits (module docstring)."""
    chosen: list[PackItem] = []
    used = 0
    pin_budget = int(budget * pinned_share)
    for item in items:
        if item.pinned and used + item.tokens <= pin_budget:
            chosen.append(item)
            used += item.tokens
    seen: set[str] = set()
    for item in chosen:
        seen |= _words(item.text)
    rest = [i for i in items if not i.pinned and i.value > 0]  # a zero-score hit is no evidence
    words: dict[int, set[str]] = {}

    def words_of(i: int) -> set[str]:  # tokenised when first popped: most items never are
        if i not in words:
            words[i] = _words(rest[i].text)
        return words[i]

    def gain(i: int) -> float:  # score × (½ + ½ novelty): said-before words weigh half
        own = words_of(i)
        return rest[i].value * (0.5 + 0.5 * len(own - seen) / max(1, len(own)))

    # lazy greedy: a gain only shrinks as the block grows, so a popped item whose fresh gain still
    # tops the heap is the best one (the gain is submodular); each starts at its score, an upper bound
    heap = [(-rest[i].value, i) for i in range(len(rest))]
    heapq.heapify(heap)
    while heap and used < budget:
        _, i = heapq.heappop(heap)
        if rest[i].tokens > budget - used:
            continue  # never fits again: the room only shrinks
        if words_of(i) and words_of(i) <= seen:
            continue  # nothing new: a memory whose words a packed turn already holds, a repeat
        fresh = gain(i)
        if heap and fresh < -heap[0][0]:
            heapq.heappush(heap, (-fresh, i))
            continue
        said = _said_in(statement(rest[i].hit), chosen)
        if said is None:
            continue  # the same statement is in the block already (a memory and its turn, a re-import)
        if said and rest[i].tokens > budget - used + sum(c.tokens for c in said):
            continue
        for c in said:  # a packed line this one repeats whole is replaced by it
            chosen.remove(c)
            used -= c.tokens
        chosen.append(rest[i])
        used += rest[i].tokens
        seen |= words_of(i)
    return chosen


def statement(hit: SearchHit) -> str:
    """What a line states, whatever its markup: the memory's (or the turn's) words, lower-cased, with
    single spaces and word boundaries at both ends."""
    return _statement(hit.memory.content)


@functools.lru_cache(maxsize=4096)
def _statement(content: str) -> str:
    return f" {' '.join(tokenize(content, drop_stopwords=False))} "


def _said_in(said: str, chosen: Sequence[PackItem]) -> list[PackItem] | None:
    """``None`` when a chosen line already states ``said`` (whole words), else the unpinned chosen lines
    whose statement ``said`` holds whole (one line per distinct statement, issue 22 item 6)."""
    if not said.strip():
        return []
    out = []
    for c in chosen:
        other = statement(c.hit)
        if said in other:
            return None
        if other.strip() and other in said and not c.pinned:
            out.append(c)
    return out


def _words(text: str) -> set[str]:
    return set(tokenize(text))


def group(items: Sequence[PackItem]) -> dict[str, list[PackItem]]:
    """Items by section in seed 001 §6.2 order, best first inside each section."""
    out: dict[str, list[PackItem]] = {s: [] for s in SECTIONS}
    for item in items:
        out[item.section].append(item)
    for section in out.values():
        section.sort(key=lambda i: (not i.pinned, -i.value))
    return {s: v for s, v in out.items() if v}
