"""Tokenisation for full-text search, Chinese and English alike.

PostgreSQL's ``to_tsvector('simple', …)`` cannot segment Chinese, so the store
indexes :func:`search_text` — our tokens joined by spaces — and queries with
:func:`query_terms` (seed 003: BM25 inverted index first; DESIGN.md "store is
the only module that speaks SQL": this module only prepares text).

Segmentation choice: Han runs are cut with ``jieba.lcut_for_search``. Its output
holds the precise-mode words *and* their dictionary sub-words
("北京大学" → 北京, 大学, 北京大学), so a document about 北京大学 is found by a
query for "北京", for "大学" and for "北京大学" alike; plain ``cut`` would emit only
"北京大学" and miss the shorter queries. The same function tokenises documents
and queries, so both sides always agree.

Latin text: NFKC + case fold; a token is a maximal run of letters and digits.
Possessive ``'s`` is dropped ("Alice's" → alice), other apostrophes are removed
("don't" → dont). Hyphens and underscores separate parts, and the joined form is
added too ("e-mail" → e, mail, email; "err_conn_reset" → err, conn, reset,
errconnreset). Decimal and dotted numbers stay whole ("3.14", "v1.2.3" → 1.2.3). Every
token therefore consists of letters/digits (and inner dots between digits), which
the 'simple' text-search parser keeps intact: no ``: & | ! ( ) ' -`` survive.
"""

from __future__ import annotations

import re
from functools import lru_cache

from neuromem.text._jieba import cut_for_search, cut_precise
from neuromem.text._scripts import CJK_CHARS, nfkc_casefold
from neuromem.text.stopwords import STOPWORDS

_APOSTROPHES = "'\u2019\u02bc"
# A Han run, or a number with inner dots, or a word: letter/digit runs glued by
# apostrophes, hyphens or underscores.
_TOKEN = re.compile(
    rf"(?P<cjk>[{CJK_CHARS}]+)"
    r"|(?<![\w.])v?(?P<num>\d+(?:\.\d+)+)(?![\w.])"
    rf"|(?P<word>[^\W_{CJK_CHARS}]+(?:[{_APOSTROPHES}\-_]+[^\W_{CJK_CHARS}]+)*)"
)
_PARTS = re.compile(r"[\-_]+")
_WORD = re.compile(r"[^\W_]+")
_ALNUM = re.compile(rf"[^\W_{CJK_CHARS}]+")


_PLAIN = re.compile(rf"[^\W_{CJK_CHARS}{_APOSTROPHES}]+")
_POSSESSIVE = re.compile(rf"[{_APOSTROPHES}]s$")
_APOSTROPHE = re.compile(rf"[{_APOSTROPHES}]")


def _word_tokens(word: str) -> list[str]:
    word = _POSSESSIVE.sub("", word)
    word = _APOSTROPHE.sub("", word)
    parts = [p for p in _PARTS.split(word) if p]
    if len(parts) > 1:
        return [*parts, "".join(parts)]
    return parts


@lru_cache(maxsize=8192)
def _raw_tokens(text: str) -> tuple[str, ...]:
    """The tokens of ``text``, stopwords kept; remembered, since recall's rules read the same hits' words for
    every pair they compare, and the next question of a conversation finds most of the same hits."""
    tokens: list[str] = []
    for m in _TOKEN.finditer(nfkc_casefold(text)):
        if m.group("cjk"):
            # only word characters: a Han character newer than this Python's Unicode tables ("𫜹") is none, and
            # the 'simple' parser would split on it
            tokens.extend(t for t in cut_for_search(m.group("cjk")) if _WORD.fullmatch(t))
        elif m.group("num"):
            tokens.append(m.group("num"))
        else:
            word = m.group("word")
            if _PLAIN.fullmatch(word):  # the common case: one run of letters and digits, no apostrophe
                tokens.append(word)
                continue
            for tok in _word_tokens(word):
                # Defensive: keep only the letter/digit runs (never punctuation).
                tokens.extend(_ALNUM.findall(tok))
    return tuple(tokens)


def tokenize(text: str, *, drop_stopwords: bool = True) -> list[str]:
    """Lower-cased search tokens of ``text``, in order, duplicates kept.

    >>> tokenize("我喜欢北京大学的 Coffee!")  # doctest: +SKIP
    ['喜欢', '北京', '大学', '北京大学', 'coffee']
    """
    tokens = _raw_tokens(text)
    if drop_stopwords:
        return [t for t in tokens if t not in STOPWORDS]
    return list(tokens)


def search_text(text: str) -> str:
    """Space-joined tokens for ``to_tsvector('simple', …)``.

    Stopwords are kept out; each token survives the 'simple' parser as one lexeme.
    """
    return " ".join(tokenize(text))


def query_terms(text: str) -> list[str]:
    """Distinct tokens of a query, in first-seen order, for building a tsquery.

    If the query consists only of stopwords ("what is it?"), those are returned
    rather than nothing, so the caller can still search.
    """
    tokens = tokenize(text) or tokenize(text, drop_stopwords=False)
    return list(dict.fromkeys(tokens))


def stands_alone(text: str, at: int) -> bool:
    """The character of ``text`` at ``at`` is a word of its own to jieba's precise cut: the 都 of 孩子都多大了
    ("all of them"), not the one of 首都 or 成都."""
    start = 0
    for word in cut_precise(text):
        if start == at:
            return len(word) == 1
        start += len(word)
        if start > at:
            return False
    return False
