"""Following a chain of facts for a multi-step question (issue 21; seed 003 §5.2 iterative retrieval). Pure.

"In which city was the author of Solaris born?" needs two facts, and the question names only the first
one's subject: "The author of Solaris is Stanislaw Lem", then "Stanislaw Lem was born in the city of
Lviv". Among thousands of facts of the same relations ("X was born in the city of Y"), the second one
shares no word with the question that a hundred others do not share too. Recall follows the chain
(``RecallPipeline._follow``): the best hits that name what the question (or an earlier step) named give
the names they add (:func:`new_names`: "Stanislaw Lem"), and BM25 searches again with the question's
words and those names (lists :data:`FOLLOW_LISTS`, one per step); the lists join the fusion.

Only a question shaped as a chain is followed (:func:`chain_shaped`): a relation of a relation of something
it names ("the capital of the country of citizenship of the founder of Zalora", "the CEO of the company
that produced the Walkman", 《长夜》的作者出生在哪), not "Who is the CEO of Sony?" — a one-step question
gains nothing from another search — nor a question about the user's own life ("my sister's birthday"),
which is answered from what they said.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache

from ..text.entities import extract_entities
from ..types import MemoryRecord, ScoreBreakdown, SearchHit

#: One list per step of the chain (``RecallRecipe.follow_hops`` at most this many)
FOLLOW_LISTS = ("bm25_follow1", "bm25_follow2", "bm25_follow3")
#: How many of the best hits are read for the names a step adds
FOLLOW_DEPTH = 10
#: Of a step's search, the best this many are read, and this many of those that name a name it followed are placed
FOLLOW_READ = 5
FOLLOW_TAKE = 2

# a relation inside the question's noun phrase: "the author of", "Lina Park's", "the company that produced",
# "the city where"
_LINK_EN = re.compile(
    r"\b(?:[Tt]he|[Aa]n?|[Ii]ts|[Tt]heir|[Hh]is|[Hh]er)\s+[\w-]+(?:\s+[\w-]+)?\s+of\b|\b[A-Z][\w-]*['’]s\b"
    r"|\b[Tt]he\s+[\w-]+\s+(?:that|who|whose|where)\b"
)
# a conversation's own people: a question of "I", "my" or "your" is answered from what was said, not by a
# chain of facts about the world
_PERSONAL_EN = re.compile(r"\b(?:I|me|my|mine|we|us|our|ours|you|your|yours)\b", re.IGNORECASE)
_PERSONAL_ZH = re.compile(r"我|咱|你|您")
_CONTRACTIONS = frozenset(
    {"what", "that", "there", "it", "here", "who", "where", "let", "he", "she", "how", "when", "why"}
)
#: A chain question is one sentence: at most this many words (a conversation or a passage is no chain question)
CHAIN_QUESTION_WORDS = 40
# a question that asks only who, what or where one relation of one thing is: "Who is the CEO of Sony?"
_IDENTITY_EN = re.compile(r"^\s*(?:who|what|which\s+\w+|where|when)\s+(?:is|are|was|were)\b", re.IGNORECASE)
# ... unless a participle after it asks another relation: "Where was the founder of Zalora born?"
_SECOND_RELATION_EN = re.compile(
    r"\b(?:born|located|based|founded|made|produced|written|directed|owned|employed|married|buried|"
    r"educated|raised|headquartered|built|designed|published|named|called)\b\s*(?:in|at|by|to|as)?\s*\??\s*$",
    re.IGNORECASE,
)
_COPULA_ZH = re.compile(r"是(?:谁|什么|哪|多少|几)|叫什么")
_CJK = re.compile(r"[\u4e00-\u9fff]")
# a question: "…?", "Who …", 哪/谁/什么/多少/几
_ASKS = re.compile(r"[?？]\s*$|^\s*(?:who|what|which|where|when|how)\b|哪|谁|什么|多少|几", re.IGNORECASE)


def asks(query: str) -> bool:
    """Whether ``query`` is a question ("…?", "Who …", 哪/谁/什么/多少/几), not a few words to look up ("chess")."""
    return bool(_ASKS.search(query))


@lru_cache(maxsize=1024)
def chain_shaped(question: str) -> bool:
    """Whether ``question`` asks a relation of something it names only through another relation."""
    if "\n" in question.strip() or len(question.split()) > CHAIN_QUESTION_WORDS or not asks(question):
        return False
    if _CJK.search(question):  # what comes before the first 的 is the thing it starts from (a name or not)
        if _PERSONAL_ZH.search(question) or len(question) > CHAIN_QUESTION_WORDS:
            return False
        links = question.count("的")
        return links >= 2 or (links == 1 and not _COPULA_ZH.search(question.split("的", 1)[1]))
    if _PERSONAL_EN.search(question) or not names(question):
        return False  # the conversation's own people, or nothing named to start the chain from
    links = sum(
        1
        for m in _LINK_EN.finditer(question)
        if m.group().split("'")[0].split("’")[0].casefold() not in _CONTRACTIONS
    )
    if links >= 2:
        return True
    if links == 0:
        return False
    return not _IDENTITY_EN.match(question) or bool(_SECOND_RELATION_EN.search(question))


def names(text: str) -> list[str]:
    """The names ``text`` gives (people, places, organisations, things: ``text.entities``), case-folded."""
    return [re.sub(r"['’]s?$", "", e.name.casefold()) for e in extract_entities(text)]


def new_names(texts: Iterable[str], known: set[str]) -> list[str]:
    """The names of ``texts`` not in ``known`` nor inside a known one, in the order they come."""
    out: dict[str, None] = {}
    for text in texts:
        for name in names(text):
            if name not in known and not any(name in k or k in name for k in known):
                out.setdefault(name, None)
    return list(out)


def links_to(text: str, known: set[str]) -> bool:
    """Whether ``text`` names one of the ``known`` names (it is a step of the chain so far)."""
    folded = text.casefold()
    return any(k in folded for k in known)


_SENTENCE_END = re.compile(r"(?<=[.!?。！？])\s+|\n+|(?<=[。！？])")


def linked_sentences(texts: Iterable[str], known: set[str]) -> list[str]:
    """The sentences of ``texts`` that name a known name (all of a text when none is known): a turn of many facts
    gives the names of the fact it links by, not of the other nine."""
    out: list[str] = []
    for text in texts:
        parts = [p for p in _SENTENCE_END.split(text) if p.strip()]
        out.extend(p for p in parts if not known or links_to(p, known))
    return out


def seed_positions(texts: Sequence[str], known: set[str], limit: int) -> list[int]:
    """Positions of at most ``limit`` of ``texts`` (best first) that name a known name; with none known, the
    best one's."""
    if not texts:
        return []
    if not known:
        return [0]
    return [i for i, t in enumerate(texts) if links_to(t, known)][:limit]


def placed_after(
    hits: Sequence[SearchHit], position: int, records: Sequence[MemoryRecord], list_name: str
) -> list[SearchHit]:
    """``hits`` with ``records`` (facts a step of the chain found) right after ``position``, each scored between
    its neighbours and ranked ``n`` in ``list_name``; a record already among the hits below moves up."""
    if not records:
        return list(hits)
    moving = {r.id for r in records}
    head = list(hits[: position + 1])
    tail = [h for h in hits[position + 1 :] if h.memory.id not in moving]
    top = head[-1].score.final
    below = tail[0].score.final if tail else 0.0
    placed = []
    for n, record in enumerate(records, start=1):
        final = below + (top - below) * (len(records) + 1 - n) / (len(records) + 1)
        placed.append(SearchHit(record, ScoreBreakdown(0.0, 0.0, 0.0, 0.0, final, {list_name: n}, {})))
    return head + placed + tail


__all__ = [
    "FOLLOW_DEPTH",
    "FOLLOW_LISTS",
    "FOLLOW_READ",
    "FOLLOW_TAKE",
    "chain_shaped",
    "linked_sentences",
    "links_to",
    "names",
    "new_names",
    "placed_after",
    "seed_positions",
]
