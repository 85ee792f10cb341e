"""The memory block for a system prompt (seed 001 §6.2, seed 002 "3–6 条要点", seed 004 §4.2).

Two layouts, in the language of the query:

- ``"sections"`` — core traits, preferences (always included), behaviour patterns by
  relevance, then recalled facts and episodes by relevance;
- ``"bullets"`` — seed 002's ``[记忆要点]`` block of 3–6 points, compressed by the
  configured LLM (``llm/prompts/summarize.py``) or by rules offline.

The budget is filled by marginal value (``packing.pack``, issue 14 item 2): recall looks as
deep as the budget can hold (:func:`depth_for`), and lines are added while they fit and
bring new words. Pinned lines — memories pinned with ``Memory.pin`` (seed 003 §9.1), core
traits, and instructions about how to answer ("以后用中文回答") — are always there, within
``PINNED_SHARE`` of the budget; other preferences (explicit preference facts, preference
traits) only when they bear on the question (scored by the recall at least ``RELEVANT_SHARE`` of
the best hit, or sharing a query word).
A line that stands for a conversation turn says when and who ("[2024-05-03 user] …") and, for
a short reply, the line it answered; an assistant's question the user's next turn answers is shown
on that answer's line only. Every line carries a ``[n]`` marker resolving to a
:class:`~neuromem.recall.packing.Citation` (memory id, sessions, exact original words). The
rendered text never exceeds ``token_budget`` tokens (offline token counter).
"""

from __future__ import annotations

import functools
import logging
import re
import time
import uuid
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..errors import InvalidInputError, LLMError
from ..llm.base import ChatModel
from ..llm.prompts.summarize import summarize_memories
from ..procedural.record import CATEGORY as PROCEDURE
from ..procedural.service import alike_procedures
from ..store import conversations, memories, raw_chunks
from ..store import recall_queries as rq
from ..store.db import Conn
from ..store.filters import compile_filter
from ..store.visibility import Viewer, narrowed
from ..text.language import detect_language
from ..text.token_count import count_tokens, fewer_tokens_than, truncate_to_tokens
from ..text.tokenize import tokenize
from ..types import ScoreBreakdown, SearchHit, SearchResults, TurnRef
from .packing import Citation, PackItem, group, make_items, pack
from .prompt_truth import conflicts, earlier, said_earlier, undecided_values
from .reads import statements_on_their_own
from .request import Recalled, RecallRequest
from .units import is_assistant_question

if TYPE_CHECKING:
    from ..core import Runtime

log = logging.getLogger(__name__)

HEADINGS = {
    "zh": {
        "title": "[用户记忆]",
        "core": "用户核心特质：",
        "preference": "用户偏好：",
        "behavior": "用户行为模式：",
        "recalled": "相关事实与经历：",
        "bullets": "[记忆要点]",
        "skills": "验证过的技能：",
    },
    "en": {
        "title": "[User memory]",
        "core": "Core traits:",
        "preference": "Preferences:",
        "behavior": "Behaviour patterns:",
        "recalled": "Relevant facts and episodes:",
        "bullets": "[Memory notes]",
        "skills": "Proven skills:",
    },
}
MAX_ITEM_TOKENS = 80  # the smallest per-line cap: longer passages are focused (seed 003 §5.3 摘要器)
PINNED_SHARE = 0.25  # pinned lines take at most this share of the budget
LINE_SHARE = 3  # one line holds at most budget / LINE_SHARE tokens (longer passages are focused)
RELEVANT_SHARE = (
    0.5  # a preference the recall scores at least this share of the best hit bears on the question
)
SHORT_TURN_TOKENS = 12  # a cited turn this short is shown with the line before it
CONTEXT_TOKENS = 40  # …cut to this many tokens
#: an instruction about how to answer bears on every question (seed 001 §6.2 keeps it in the prompt)
ANSWER_STYLE = re.compile(
    r"回答|回复|称呼|叫我|语言|中文|英文|answer|respond|reply|call me|address me|language", re.IGNORECASE
)
MAX_BULLETS = 6
STYLES = ("sections", "bullets")


@dataclass(frozen=True, slots=True)
class PromptLine:
    marker: int
    section: str
    text: str
    memory_id: uuid.UUID
    compressed: bool


@dataclass(frozen=True, slots=True)
class PromptBlock:
    """The packed memory block: ``text`` for the system prompt, plus what it rests on."""

    text: str
    style: str
    language: str
    tokens: int
    budget: int
    lines: tuple[PromptLine, ...]
    citations: tuple[Citation, ...]  # citations[n - 1] explains marker [n]
    results: SearchResults

    def __str__(self) -> str:
        return self.text


def depth_for(budget: int) -> int:
    """How many hits recall fetches for a block of ``budget`` tokens: enough lines to fill it."""
    return max(20, min(200, budget // 20))


def bears_on(hit: SearchHit, query_terms: set[str], found: set[uuid.UUID]) -> bool:
    """Whether a pinned candidate belongs in this block (module docstring)."""
    m = hit.memory
    if (isinstance(m.metadata, dict) and m.metadata.get("pinned") is True) or m.trait_subtype == "core":
        return True
    if m.id in found or ANSWER_STYLE.search(m.content):
        return True
    return bool(query_terms & set(tokenize(m.content)))


def pin_priority(hit: SearchHit, found: set[uuid.UUID]) -> int:
    """Order of the pinned lines within their share: how to answer and core traits, then what the
    recall found relevant, then the rest of what the user pinned."""
    m = hit.memory
    if ANSWER_STYLE.search(m.content) or m.trait_subtype == "core":
        return 0
    return 1 if m.id in found else 2


def pinned_candidates(runtime: Runtime, conn: Conn, *, user_id: str, viewer: Viewer) -> list[SearchHit]:
    """Explicit preference facts, core/preference traits and pinned memories (``Memory.pin``,
    seed 003 §9.1): the candidates for pinned lines (``bears_on`` picks among them). They do not depend
    on the question: ``Memory.recall_prompt`` reads them on recall's connection while it is embedded."""
    pinned = memories.list_memories(
        conn, user_id, where=narrowed(compile_filter({"metadata.pinned": True}), viewer), limit=20
    )
    records = memories.list_memories(
        conn, user_id, limit=10, where=narrowed(compile_filter({"category": "preference"}), viewer)
    )
    traits = rq.trait_candidates(
        conn,
        user_id,
        None,
        runtime.dim,
        limit=20,
        rates=runtime.settings.traits,
        floor=runtime.settings.recall.trait_confidence_floor,
    )
    wanted = [t.id for t in traits if t.subtype in ("core", "preference")]
    found = memories.get_many(conn, user_id, wanted)
    trait_records = [found[i] for i in wanted if i in found]
    zero = ScoreBreakdown(0.0, 0.0, 0.0, 0.0, 0.0)
    chosen = {r.id: r for r in [*pinned, *trait_records, *[r for r in records if r.memory_type == "fact"]]}
    return [SearchHit(r, zero) for r in chosen.values()]


def _turn_texts(
    conn: Conn, user_id: str, hits: list[SearchHit]
) -> tuple[dict[uuid.UUID, str], frozenset[uuid.UUID]]:
    """The line of each hit that stands for a conversation turn: date and speaker, the turn's words
    (or the memory's, when they are not the turn's own), and for a short turn the line before it; and
    the hits that are the assistant's questions the user's next turn answers, also among the hits. Such
    a question is shown with its answer, as the line before it whatever the answer's length, and not on
    a line of its own: the answer says what holds now ("你还在找黄医生看牙吗？" → "没有了，我换成了林医生")."""
    with_turns = [h for h in hits if h.turns]
    if not with_turns:
        return {}, frozenset()
    asked = {
        (h.turns[0].session_id, h.turns[0].seq): h for h in with_turns if is_assistant_question(h.turns[0])
    }
    answers = {
        h.memory.id: asked[(h.turns[0].session_id, h.turns[0].seq - 1)]
        for h in with_turns
        if h.turns[0].role == "user" and (h.turns[0].session_id, h.turns[0].seq - 1) in asked
    }
    short = [
        (h.turns[0].session_id, h.turns[0].seq - 1)
        for h in with_turns
        if h.turns[0].seq > 0
        and h.memory.id not in answers
        and fewer_tokens_than(h.turns[0].content, SHORT_TURN_TOKENS)
    ]
    read = conversations.turns_at(conn, user_id, short)
    withdrawn = conversations.withdrawn_turns(conn, user_id, [t.id for t in read.values()])
    before: dict[tuple[str, int], conversations.TurnRow | TurnRef] = {
        k: t for k, t in read.items() if t.id not in withdrawn
    }  # what the user took back stays out
    before.update(
        {(q.turns[0].session_id, q.turns[0].seq): q.turns[0] for q in answers.values()}
    )  # hits themselves: never withdrawn
    out: dict[uuid.UUID, str] = {}
    shown: set[uuid.UUID] = set()  # questions shown on their answer's line
    for h in with_turns:
        turn = h.turns[0]
        own = " ".join(h.memory.content.split())
        words = " ".join(turn.content.split())
        text = words if own in words else own
        prev = before.get((turn.session_id, turn.seq - 1))
        if prev is not None and text == words:
            said = truncate_to_tokens(" ".join(prev.content.split()), CONTEXT_TOKENS)
            text = f'{text} (after {prev.speaker or prev.role}: "{said}")'
            if h.memory.id in answers:
                shown.add(answers[h.memory.id].memory.id)
        out[h.memory.id] = f"[{turn.sent_at.date().isoformat()} {turn.speaker or turn.role}] {text}"
    return out, frozenset(shown)


def _citations(conn: Conn, user_id: str, hits: list[SearchHit]) -> list[Citation]:
    """Each packed line's memory, its sessions and the exact original words it cites (one read each)."""
    sessions = rq.sessions_of(conn, user_id, [h.memory.id for h in hits])
    refs = [h.memory.raw_refs[0] if h.memory.raw_refs else None for h in hits]
    texts = raw_chunks.get_texts(conn, user_id, sorted({str(r["sha256"]) for r in refs if r}))
    out = []
    for h, ref in zip(hits, refs, strict=True):
        m = h.memory
        session_ids = list(sessions.get(m.id, []))
        meta_session = m.metadata.get("session_id") if isinstance(m.metadata, dict) else None
        if meta_session and str(meta_session) not in session_ids:
            session_ids.append(str(meta_session))
        out.append(
            Citation(
                m.id,
                tuple(session_ids),
                None if ref is None else raw_chunks.cut(texts.get(str(ref["sha256"])), ref),
                None if ref is None else str(ref.get("sha256")),
                None if ref is None else int(ref.get("offset", 0)),
                None if ref is None or ref.get("length") is None else int(ref["length"]),
            )
        )
    return out


def _render_sections(grouped: dict[str, list[PackItem]], lang: str) -> tuple[str, list[PackItem]]:
    heads = HEADINGS[lang]
    lines = [heads["title"]]
    ordered: list[PackItem] = []
    for section, items in grouped.items():
        lines.append(heads[section])
        for item in items:
            ordered.append(item)
            lines.append(f"- {item.text} [{len(ordered)}]")
    return "\n".join(lines), ordered


def _render_bullets(items: list[PackItem], lang: str) -> tuple[str, list[PackItem]]:
    ordered = sorted(items, key=lambda i: (not i.pinned, -i.value))[:MAX_BULLETS]
    lines = [HEADINGS[lang]["bullets"]] + [f"- {item.text} [{n}]" for n, item in enumerate(ordered, start=1)]
    return "\n".join(lines), ordered


def _fit(items: list[PackItem], budget: int, render: Any) -> tuple[str, list[PackItem]]:
    """Render, then drop the least valuable item while the text is over budget."""
    chosen = list(items)
    while True:
        text, ordered = render(chosen)
        if count_tokens(text) <= budget or not chosen:
            return (text if chosen else ""), (ordered if chosen else [])
        victim = min(chosen, key=lambda i: (i.pinned, i.value))
        chosen.remove(victim)


def _llm_bullets(
    chat: ChatModel, items: list[PackItem], query: str, lang: str, budget: int, today: str
) -> tuple[str, list[PackItem]] | None:
    try:
        bullets = summarize_memories(chat, [i.hit.memory.content for i in items], query, today=today)
    except LLMError as exc:
        log.warning("LLM compression failed, using the rule-based bullets: %s", exc)
        return None
    lines = [HEADINGS[lang]["bullets"]]
    used: list[PackItem] = []
    for bullet in bullets[:MAX_BULLETS]:
        markers = []
        for s in bullet.sources:
            item = items[s - 1]
            if item not in used:
                used.append(item)
            markers.append(str(used.index(item) + 1))
        line = f"- {bullet.text.strip()}" + (f" [{','.join(markers)}]" if markers else "")
        if count_tokens("\n".join([*lines, line])) > budget:
            break
        lines.append(line)
    return ("\n".join(lines), used) if len(lines) > 1 else None


def prompt_budget(token_budget: Any, style: Any) -> int:
    """``token_budget`` checked (an integer of at least 16), after ``style`` (one of ``STYLES``)."""
    if isinstance(token_budget, bool) or not isinstance(token_budget, int) or token_budget < 16:
        raise InvalidInputError(f"token_budget must be an integer of at least 16, got {token_budget!r}")
    if style not in STYLES:
        raise InvalidInputError(f"style must be one of {', '.join(STYLES)}, got {style!r}")
    return token_budget


def build_recall_prompt(
    runtime: Runtime,
    request: RecallRequest,
    recalled: Recalled,
    budget: int,
    *,
    style: str = "sections",
    chat: ChatModel | None = None,
    pinned: list[SearchHit],
) -> PromptBlock:
    """Pack ``recalled`` — the recall of ``request``, checked by the facade with :func:`prompt_budget` —
    within ``budget`` tokens and lay out the memory block. What the block adds to the hits (pinned
    lines, proven skills, turn dates, conflicts, citations) is read over one connection; the
    question's vector comes with ``recalled``, the pinned candidates with ``pinned`` (read by recall,
    :func:`pinned_candidates`; empty when that read failed). The stages' times join ``results.trace["timings_ms"]``
    (``prompt_reads``, ``prompt_pack``, ``prompt_total``)."""
    started = time.perf_counter()
    reads = 0.0
    results = recalled.results
    uid, query = request.user_id, request.query
    lang = "zh" if detect_language(query) == "zh" else "en"
    terms = tokenize(query)
    top = max((h.score.final for h in results.hits), default=0.0)
    found = {h.memory.id for h in results.hits if top > 0 and h.score.final >= RELEVANT_SHARE * top}
    with runtime.db.connection() as conn, statements_on_their_own(conn):
        mark = time.perf_counter()
        pins = sorted(
            (p for p in pinned if bears_on(p, set(terms), found)),
            key=lambda p: pin_priority(p, found),
        )  # the share is filled in this order
        # seed 004 §4.2 "Proven Skills": only for a task that looks alike
        pins += alike_procedures(runtime, conn, query, uid, recalled.query_vector)
        pinned_ids = frozenset(p.memory.id for p in pins)
        hits = [h for h in results.hits if h.memory.category != PROCEDURE or h.memory.id in pinned_ids]
        hits += [p for p in pins if p.memory.id not in {h.memory.id for h in hits}]
        texts, answered = _turn_texts(conn, uid, hits)
        hits = [h for h in hits if h.memory.id not in answered]  # shown with their answers
        hits = earlier(
            hits, texts, set(terms), lang
        )  # issue 21 item 3: a replaced value is never shown as current
        hits = said_earlier(hits, texts, lang)
        hits = conflicts(conn, uid, hits, texts, lang)
        hits = undecided_values(hits, texts, query, lang)
        reads += time.perf_counter() - mark
        layout = functools.partial(
            _layout, hits, pins, pinned_ids, terms, texts, budget, style, lang, query, results
        )
        asks_model = style == "bullets" and chat is not None
        if not asks_model:  # packing is quick: the citations are read over the same connection
            text, ordered = layout(None)
            mark = time.perf_counter()
            citations = _citations(conn, uid, [i.hit for i in ordered])
            reads += time.perf_counter() - mark
    if asks_model:  # no connection is held while the model compresses the bullets
        text, ordered = layout(chat)
        with runtime.db.connection() as conn, statements_on_their_own(conn):
            citations = _citations(conn, uid, [i.hit for i in ordered])
    lines = tuple(
        PromptLine(n, i.section, i.text, i.hit.memory.id, i.compressed)
        for n, i in enumerate(ordered, start=1)
    )
    total = (time.perf_counter() - started) * 1000
    timings = results.trace.setdefault("timings_ms", {})
    timings.update(
        prompt_reads=round(reads * 1000, 3),
        prompt_pack=round(total - reads * 1000, 3),
        prompt_total=round(total, 3),
    )
    return PromptBlock(text, style, lang, count_tokens(text), budget, lines, tuple(citations), results)


def _layout(
    hits: list[SearchHit],
    pins: list[SearchHit],
    pinned_ids: frozenset[uuid.UUID],
    terms: list[str],
    texts: dict[uuid.UUID, str],
    budget: int,
    style: str,
    lang: str,
    query: str,
    results: SearchResults,
    chat: ChatModel | None,
) -> tuple[str, list[PackItem]]:
    """The lines chosen within ``budget`` (``packing.pack``) and laid out in ``style``, in marker order."""
    line_cost = count_tokens("- [99]\n")
    items = make_items(
        hits,
        pinned=pinned_ids,
        max_item_tokens=max(MAX_ITEM_TOKENS, budget // LINE_SHARE),
        line_cost=line_cost,
        terms=terms,
        texts=texts,
    )
    heads = HEADINGS[lang]
    skills = any(p.memory.category == PROCEDURE for p in pins)
    reserve = count_tokens("\n".join(v for k, v in heads.items() if k != "skills" or skills))
    chosen = pack(items, max(0, budget - reserve), pinned_share=PINNED_SHARE)
    if style == "bullets" and chat is not None and chosen:
        today = (results.trace.get("stages", {}).get("query", {}) or {}).get("reference", "") or "today"
        llm = _llm_bullets(
            chat, sorted(chosen, key=lambda i: -i.value)[:12], query, lang, budget, str(today)[:10]
        )
        if llm is not None and llm[1]:
            return llm
    if style == "bullets":
        return _fit(chosen, budget, lambda c: _render_bullets(c, lang))
    return _fit(chosen, budget, lambda c: _render_sections(group(c), lang))
