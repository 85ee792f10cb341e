"""Keyword extraction for memories and queries (seed 003: 提取关键词).

- Chinese: jieba's TF-IDF (``jieba.analyse``) with its bundled IDF table — fully
  offline — over the Han runs, minus our stopwords.
- English (and other Latin text): content words (not stopwords, at least 3
  characters, not pure numbers) scored by frequency × a length bonus
  ``min(len, 10) / 10``, which prefers "postgresql" over "use".

Both score lists are scaled to a maximum of 1 and merged; ties keep first
occurrence order, so the result is deterministic.
"""

from __future__ import annotations

from collections import Counter

from neuromem.text._jieba import tfidf_extractor
from neuromem.text._scripts import CJK_RUN
from neuromem.text.stopwords import STOPWORDS
from neuromem.text.tokenize import tokenize


def _chinese_scores(text: str) -> dict[str, float]:
    han = "，".join(m.group() for m in CJK_RUN.finditer(text))
    if not han:
        return {}
    pairs = tfidf_extractor().extract_tags(han, topK=50, withWeight=True)
    scores = {word: float(weight) for word, weight in pairs if word not in STOPWORDS and len(word) > 1}
    return _scaled(scores)


def _latin_scores(text: str) -> dict[str, float]:
    words = [t for t in tokenize(CJK_RUN.sub(" ", text)) if len(t) >= 3 and not t.replace(".", "").isdigit()]
    counts = Counter(words)
    return _scaled({w: n * min(len(w), 10) / 10 for w, n in counts.items()})


def _scaled(scores: dict[str, float]) -> dict[str, float]:
    top = max(scores.values(), default=0.0)
    return {w: s / top for w, s in scores.items()} if top > 0 else {}


def keywords(text: str, k: int = 8) -> list[str]:
    """Up to ``k`` keywords of ``text``, best first, lower-cased."""
    if k <= 0:
        return []
    scores = {**_latin_scores(text), **_chinese_scores(text)}
    lowered = text.casefold()
    order = sorted(scores, key=lambda w: (-round(scores[w], 9), lowered.find(w) % (len(lowered) + 1)))
    return order[:k]
