"""What reflection sees of a fact or episode (seed 001 §3.2, §4.2, §8.2).

An :class:`Observation` is a memory row plus the signals both detectors use:
theme keywords, the context (work / personal / social / learning), whether it is
an explicit self-statement (B-grade evidence), its polarity (a negated statement
can contradict a trait), its session, and whether it is emotional (14-day trend
window). Sensitive memories (health, politics, religion) never become
observations at all: :func:`is_sensitive`; nor do the words of another person in
a group chat (``metadata.speaker_is_user`` false: ``ingest.pipeline`` documents the rule).

Rules, in the order they are applied (explicit, so they can be audited):

- **context**: ``metadata["context"]`` when the caller set one of the five
  values; otherwise the first lexicon below with a hit; otherwise ``None``
  (unknown — counted as no context at all).
- **explicit**: category ``preference`` / ``identity`` (seed: explicit preference
  statement → B-grade), or a first-person self-description cue
  ("I am", "I always", "I prefer", "我是", "我喜欢", "我习惯"…).
- **negated**: a negation cue ("not", "never", "no longer", "不喜欢", "不再", "从不"…).
- **session**: ``memory_sources.session_id``, else ``metadata["session_id"]``,
  else the calendar day of the observation.
- **emotional**: ``metadata["emotion"]`` with arousal ≥ 0.5 or |valence| ≥ 0.5.
"""

from __future__ import annotations

import datetime as dt
import re
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..store.vectors import from_halfvec_send
from ..text.keywords import keywords
from ..text.language import detect_language
from ..text.sensitive import sensitive_categories
from ..types import TraitContext

KEYWORDS_PER_MEMORY = 5

_CONTEXT_LEXICON: tuple[tuple[TraitContext, re.Pattern[str]], ...] = tuple(
    (ctx, re.compile(pattern, re.IGNORECASE))
    for ctx, pattern in (
        (
            TraitContext.WORK,
            r"\b(work|working|office|meeting|meetings|boss|colleague|colleagues|manager|project|"
            r"deadline|client|clients|career|job|code|coding|deploy|review|team)\b|工作|上班|会议|"
            r"开会|公司|同事|老板|领导|项目|加班|客户|代码|职业|汇报|需求",
        ),
        (
            TraitContext.LEARNING,
            r"\b(learn|learning|study|studying|course|class|lecture|exam|tutorial|book|"
            r"books|read|reading|documentation|docs)\b|学习|课程|上课|考试|读书|看书|教程|"
            r"文档|练习|复习",
        ),
        (
            TraitContext.SOCIAL,
            r"\b(friend|friends|party|parties|dinner with|gathering|social|date|dating|"
            r"neighbours?|neighbors?)\b|朋友|聚会|聚餐|社交|约会|派对|同学会",
        ),
        (
            TraitContext.PERSONAL,
            r"\b(home|weekend|weekends|family|wife|husband|kids|children|hobby|holiday|"
            r"vacation|cook|cooking|garden|morning|evening|night)\b|家里|在家|周末|家人|"
            r"孩子|老婆|老公|爱好|假期|做饭|早上|晚上|生活",
        ),
    )
)

_EXPLICIT = re.compile(
    r"\b(i am|i'm|i always|i usually|i never|i prefer|i like|i love|i hate|i tend to|i enjoy|i value|"
    r"my habit)\b|我是|我总是|我一向|我喜欢|我爱|我讨厌|我习惯|我偏好|我倾向|我从不|我一般|我通常",
    re.IGNORECASE,
)
_NEGATION = re.compile(
    r"\b(not|never|no longer|don't|doesn't|didn't|won't|can't|stopped|quit|hate|dislike|anymore)\b|"
    r"不喜欢|不爱|不再|从不|再也不|讨厌|戒了|不想|不去|不吃|不喝|不看|不用|没再|停止|放弃",
    re.IGNORECASE,
)
_EXPLICIT_CATEGORIES = frozenset({"preference", "identity"})


@dataclass(frozen=True, slots=True)
class Observation:
    """One fact or episode as reflection sees it."""

    id: uuid.UUID
    content: str
    memory_type: str
    observed_at: dt.datetime
    importance: float
    keywords: tuple[str, ...]
    context: str | None
    explicit: bool
    negated: bool
    session: str
    emotional: bool
    language: str
    vector: np.ndarray | None = None


def is_sensitive(content: str, metadata: Mapping[str, Any]) -> bool:
    """Seed 001 §8.2: a memory tagged (or, untagged, detected as) health/politics/religion is never evidence."""
    tag = metadata.get("sensitive")
    if tag is not None:
        return bool(tag)
    return bool(sensitive_categories(content))


def infer_context(content: str, metadata: Mapping[str, Any]) -> str | None:
    given = metadata.get("context")
    if isinstance(given, str) and given in {c.value for c in TraitContext} - {"contextual", "general"}:
        return given
    for ctx, pattern in _CONTEXT_LEXICON:
        if pattern.search(content):
            return ctx.value
    return None


def is_explicit(content: str, category: str | None) -> bool:
    return (category or "") in _EXPLICIT_CATEGORIES or bool(_EXPLICIT.search(content))


def is_negated(content: str) -> bool:
    return bool(_NEGATION.search(content))


def _emotional(metadata: Mapping[str, Any]) -> bool:
    emotion = metadata.get("emotion")
    if not isinstance(emotion, Mapping):
        return False
    try:
        return float(emotion.get("arousal", 0)) >= 0.5 or abs(float(emotion.get("valence", 0))) >= 0.5
    except (TypeError, ValueError):
        return False


def parse_vector(data: bytes | None) -> np.ndarray | None:
    """A stored vector (``halfvec_send(embedding)``) → unit-length float32 array (None when absent
    or zero)."""
    v = from_halfvec_send(data)
    if v is None:
        return None
    norm = float(np.linalg.norm(v))
    return v / norm if norm > 0 else None


def from_row(row: Mapping[str, Any]) -> Observation | None:
    """Build an observation from a ``store.traits`` scan row; None for sensitive memories and for
    another person's words in a group chat (``metadata.speaker_is_user`` false, set by ingest)."""
    metadata = row.get("metadata") or {}
    content = row["content"]
    if is_sensitive(content, metadata) or metadata.get("speaker_is_user") is False:
        return None
    observed = row["observed_at"]
    session = row.get("session_id") or metadata.get("session_id") or observed.date().isoformat()
    language = row.get("language") or str(detect_language(content))
    return Observation(
        id=row["id"],
        content=content,
        memory_type=row["memory_type"],
        observed_at=observed,
        importance=float(row.get("importance", 0.5)),
        keywords=tuple(keywords(content, k=KEYWORDS_PER_MEMORY)),
        context=infer_context(content, metadata),
        explicit=is_explicit(content, row.get("category")),
        negated=is_negated(content),
        session=str(session),
        emotional=_emotional(metadata),
        language=str(language),
        vector=parse_vector(row.get("embedding")),
    )
