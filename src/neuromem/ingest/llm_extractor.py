"""The LLM extractor (MISSION capability 2): same ``Candidate`` schema as the rules.

The answer is validated (``complete_structured`` repairs and retries); then each memory
is checked here: its turn must exist and be a mined role, its quote is located in the
turn (else the whole turn is cited), a memory in another language than the user's
words is replaced by the quote, and the time expression is resolved by neuromem against
the turn's own timestamp. If the call still fails, the turns go to the rule-based
extractor and a ``extraction_fallback`` pipeline event is recorded — no turn is lost.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from ..errors import LLMError
from ..llm.base import ChatModel, UsageRecord
from ..llm.prompts.extract_memories import ExtractedMemory, extract_memories
from ..text.language import detect_language
from ..text.sensitive import sensitive_categories
from ..text.timeparse import resolve_time_expressions
from ..types import Emotion, FactCategory, MemoryType
from .candidates import Candidate, EntityRef, Extraction, Relation, TimeInfo
from .rules import extract_with_rules
from .turns import Turn


def extract_with_llm(
    chat: ChatModel,
    turns: Sequence[Turn],
    roles: Sequence[str],
    usage: list[UsageRecord],
    *,
    window: int = 16,
) -> Extraction:
    """One call per ``window`` turns (prompts stay small); a failed window falls back to the rules alone."""
    out = Extraction()
    for start in range(0, len(turns), window):
        part = _extract_window(chat, turns[start : start + window], roles, usage)
        out.candidates.extend(replace(c, turn_index=c.turn_index + start) for c in part.candidates)
        out.dropped.update(part.dropped)
        out.events.extend(part.events)
    return out


def _extract_window(
    chat: ChatModel, turns: Sequence[Turn], roles: Sequence[str], usage: list[UsageRecord]
) -> Extraction:
    listing = [(t.role, t.sent_at.isoformat(timespec="minutes"), t.content) for t in turns]
    date = turns[-1].sent_at.date().isoformat()
    try:
        answer = extract_memories(chat, listing, conversation_date=date, usage_sink=usage.append)
    except LLMError as exc:
        out = extract_with_rules(turns, roles)
        out.events.append(("extraction_fallback", {"error": str(exc)[:1000], "turns": len(turns)}))
        return out
    out = Extraction()
    mined = {i for i, t in enumerate(turns) if t.role in roles}
    covered: set[int] = set()
    for item in answer.memories:
        index = item.turn - 1
        if index not in mined:
            out.dropped["llm_invalid_turn"] += 1
            continue
        covered.add(index)
        out.candidates.append(_candidate(item, turns[index], index))
    for n in answer.small_talk_turns:
        if n - 1 in mined and n - 1 not in covered:
            out.dropped["small_talk"] += 1
            covered.add(n - 1)
    out.dropped["no_memory"] += len(mined - covered)
    return out


def _candidate(item: ExtractedMemory, turn: Turn, index: int) -> Candidate:
    text = turn.content
    start = text.find(item.quote.strip())
    span = (start, start + len(item.quote.strip())) if start >= 0 else (0, len(text))
    source_language = detect_language(text[span[0] : span[1]])
    content = item.content.strip()
    if source_language in ("zh", "en") and detect_language(content) != source_language:
        content = text[span[0] : span[1]]  # written in the language the user spoke
    time = None
    if item.time_expression:
        found = resolve_time_expressions(item.time_expression, turn.sent_at)
        if found:
            t = found[0]
            time = TimeInfo(item.time_expression, t.start, t.end, str(t.granularity))
    memory_type = MemoryType(item.type)
    category = None
    if memory_type is MemoryType.FACT:
        category = FactCategory(item.category) if item.category else FactCategory.GENERAL
    relation = None
    if item.relation is not None:
        relation = Relation(
            item.relation.predicate, EntityRef(item.relation.object, item.relation.object_type)
        )
    entities = tuple(EntityRef(e.name, e.type) for e in item.entities)
    emotion = (
        None
        if item.emotion is None
        else Emotion(item.emotion.valence, item.emotion.arousal, item.emotion.label)
    )
    value = item.slot_value.strip().casefold() if item.slot_value else None
    return Candidate(
        content=content,
        memory_type=memory_type,
        category=category,
        importance=item.importance,
        turn_index=index,
        span=span,
        language=detect_language(content),
        extractor="llm",
        entities=entities,
        keywords=tuple(k for k in item.keywords if k.strip())[:8],
        time=time,
        emotion=emotion,
        slot=item.slot if item.slot and value else None,
        value=value if item.slot else None,
        relation=relation,
        topic=item.topic,
        sensitive=sensitive_categories(content) | sensitive_categories(text[span[0] : span[1]]),
        polarity=value if value in ("positive", "negative") else None,
    )
