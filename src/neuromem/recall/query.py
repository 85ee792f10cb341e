"""Query analysis (seed 003 §5.1): keywords K, entities E, time constraint T, exact tokens.

Pure and offline: jieba segments Chinese, the time constraint is resolved against the
query's own timestamp (never a "today" frozen at import, STYLE.md habit 10). Entity
names are only candidates here; the graph retriever matches them against the user's
entity nodes in the store.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

from ..text.entities import extract_entities, normalize_entity_name
from ..text.keywords import keywords
from ..text.language import detect_language
from ..text.patterns import pattern_tokens
from ..text.timeparse import TimeExpression, time_constraint
from ..text.tokenize import query_terms

#: The user asks for the original words (seed 003 W5 "用户显式要求找原文/带引用").
_WANTS_ORIGINAL = re.compile(
    r"原文|原话|原句|出处|引用|一字不差|exact(?:ly)? (?:words|wording|text|quote)|verbatim|word for word|"
    r"\bquote\b|original (?:words|text|message|wording)",
    re.IGNORECASE,
)

#: Speaker labels of the assistant's side of a conversation-shaped query ("Assistant: …", "助手：…").
ASSISTANT_SPEAKERS = frozenset(
    {
        "assistant",
        "ai",
        "bot",
        "chatbot",
        "system",
        "model",
        "gpt",
        "chatgpt",
        "agent",
        "助手",
        "助理",
        "ai助手",
        "机器人",
        "系统",
        "小助手",
    }
)
# "Name: text" — a label of at most three words and 40 characters ("http://…" is no label)
_SPEAKER_LINE = re.compile(r"^\s*((?:[^\s:：]+ ?){1,3}?)\s*[:：](?!//)\s*(\S.*)$")


@dataclass(frozen=True, slots=True)
class QueryAnalysis:
    """What recall knows about one query before touching the store."""

    text: str
    reference: dt.datetime
    language: str
    terms: tuple[str, ...]  # distinct search tokens for BM25
    keywords: tuple[str, ...]  # salient keywords (TF-IDF / jieba)
    entities: tuple[str, ...]  # normalised entity-name candidates
    patterns: tuple[str, ...]  # exact-match tokens: error codes, hex, UUIDs, URLs, paths, code
    time: TimeExpression | None
    wants_original: bool
    variants: tuple[str, ...] = ()  # English inflections of ``terms`` not in ``terms`` (see ``inflections``)

    @property
    def has_patterns(self) -> bool:
        return bool(self.patterns)

    def as_trace(self) -> dict[str, object]:
        return {
            "language": self.language,
            "terms": list(self.terms),
            "keywords": list(self.keywords),
            "entities": list(self.entities),
            "patterns": list(self.patterns),
            "time": None
            if self.time is None
            else {
                "text": self.time.text,
                "start": self.time.start.isoformat(),
                "end": self.time.end.isoformat(),
            },
            "wants_original": self.wants_original,
            "variants": list(self.variants),
            "reference": self.reference.isoformat(),
        }


def analyze_query(text: str, reference: dt.datetime | None = None) -> QueryAnalysis:
    """Analyse ``text`` as of ``reference`` (default: now, UTC)."""
    ref = reference or dt.datetime.now(dt.UTC)
    if ref.tzinfo is None:
        ref = ref.replace(tzinfo=dt.UTC)
    names: dict[str, None] = {}
    for entity in extract_entities(text):
        normalized = normalize_entity_name(entity.name)
        if normalized:
            names[normalized] = None
    kws = tuple(keywords(text))
    for kw in kws:
        normalized = normalize_entity_name(kw)
        if normalized:
            names.setdefault(normalized, None)
    patterns = tuple(dict.fromkeys(t.value for t in pattern_tokens(text)))
    terms = tuple(query_terms(text))
    return QueryAnalysis(
        text=text,
        reference=ref,
        language=str(detect_language(text)),
        terms=terms,
        keywords=kws,
        entities=tuple(names),
        patterns=patterns,
        time=time_constraint(text, ref),
        wants_original=bool(_WANTS_ORIGINAL.search(text)),
        variants=inflections(terms),
    )


_LATIN_WORD = re.compile(r"[a-z]{4,}")
_SIBILANT_END = ("s", "x", "z", "ch", "sh")
_VOWELS = frozenset("aeiou")


def inflections(terms: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """The singular of each English plural search term, where it differs from every term.

    The full-text index keeps words as written (no stemmer: ``text.tokenize`` serves Chinese and
    English alike), so "how many fitness classes…" would not find "a BodyPump class" and "magazine
    subscriptions" would not find "my subscription to Architectural Digest". Questions that count or
    list things ask in the plural; each thing was mentioned in the singular. Recall adds the
    singular to the lexical query instead of re-indexing, by the regular-noun rule: ``-ies`` → ``-y``
    after a consonant, ``-es`` → nothing after s/x/z/ch/sh (and the ``-s``-only form too: "horses" →
    "horse"), ``-s`` → nothing otherwise; lower-case Latin words of at least four letters whose
    ending is not ``-ss``, ``-us`` or ``-is`` (not plurals). A rule may coin a non-word ("lens" →
    "len"); it matches nothing and costs nothing. Only this direction: adding plurals to singular
    terms, tried on the LongMemEval DEV split, brought in more noise than evidence. Chinese has no
    inflection. Pure; the BM25 lists of a recipe with ``inflections`` on search ``terms + variants``."""
    known = set(terms)
    out: dict[str, None] = {}
    for term in terms:
        if not _LATIN_WORD.fullmatch(term) or not term.endswith("s") or term.endswith(("ss", "us", "is")):
            continue
        for form in _singulars(term):
            if form not in known and len(form) >= 3:
                out.setdefault(form, None)
    return tuple(out)


def _singulars(word: str) -> tuple[str, ...]:
    """Singular candidates of a word ending in ``s`` ("babies" → "baby"; "boxes" → "box", "boxe")."""
    if word.endswith("ies") and word[-4] not in _VOWELS:
        return (word[:-3] + "y",)
    if word.endswith("es") and word[:-2].endswith(_SIBILANT_END):
        return (word[:-2], word[:-1])
    return (word[:-1],)


def user_lines(text: str) -> str | None:
    """The lines of a conversation-shaped query that the assistant did not speak, or None.

    A query is conversation-shaped when at least two of its lines start with a speaker label
    (``"Bart: …"``, ``"助手：…"``); a line without a label continues the previous speaker's turn.
    Memories are about the user, and the assistant's replies mostly echo or reassure, so recall
    also searches the user's own lines (seed 003 §5.1 Q + C). None when the query is not
    conversation-shaped or has no assistant line to leave out (the view would be the query itself),
    or when only assistant lines remain."""
    lines = [ln for ln in text.splitlines() if ln.strip()]
    speakers: list[str | None] = []
    current: str | None = None
    labelled = 0
    for line in lines:
        m = _SPEAKER_LINE.match(line)
        if m:
            current = m.group(1).strip().lower()
            labelled += 1
        speakers.append(current)
    if labelled < 2:
        return None
    kept = [ln.strip() for ln, who in zip(lines, speakers, strict=True) if not _is_assistant(who)]
    if not kept or len(kept) == len(lines):
        return None
    return "\n".join(kept)


def _is_assistant(speaker: str | None) -> bool:
    """``"Assistant"``, ``"AI assistant"``, ``"助手"`` (the label or its last word)."""
    return speaker is not None and (
        speaker in ASSISTANT_SPEAKERS or speaker.split()[-1] in ASSISTANT_SPEAKERS
    )
