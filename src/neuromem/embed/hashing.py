"""A deterministic, dependency-free embedder for tests and tiny deployments (STYLE habit 13).

Feature hashing of words, word bigrams, character trigrams of words and — for
Chinese, Japanese and Korean, which have no spaces — character unigrams and
bigrams. Each feature lands in one of ``dim`` buckets with a sign, both taken
from a keyed BLAKE2b digest (stable across processes, unlike ``hash``). Texts
that share words or characters get a higher cosine; there is no semantics
beyond that.
"""

from __future__ import annotations

import hashlib
import itertools
import re
import unicodedata
from collections.abc import Iterator, Sequence
from functools import lru_cache

import numpy as np

from ..errors import ConfigError
from .base import Embedder, EmbedKind, finish_vectors, validate_texts

_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
_TOKEN = re.compile(rf"[{_CJK}]+|(?:(?![{_CJK}])[^\W_])+")
_CJK_START = re.compile(rf"[{_CJK}]")

_WORD = 1.0
_WORD_BIGRAM = 0.5
_CHAR_TRIGRAM = 0.3
_CJK_UNIGRAM = 0.4
_CJK_BIGRAM = 1.0


class HashingEmbedder(Embedder):
    """Signed feature hashing into ``dim`` buckets; the same text always gives the same vector.

    >>> from neuromem.embed import HashingEmbedder
    >>> e = HashingEmbedder(dim=256)
    >>> v = e.embed_passages(["I like green tea", "I like tea", "the train is late"])
    >>> bool(v[0] @ v[1] > v[0] @ v[2])
    True
    >>> bool(e.embed_query("我喜欢喝茶") @ e.embed_query("我喜欢喝绿茶") > 0.5)
    True

    ``kind`` is ignored: the model is symmetric.
    """

    def __init__(self, dim: int = 256) -> None:
        if dim < 8:
            raise ConfigError(f"HashingEmbedder dim must be at least 8, got {dim}")
        self.dim = dim
        self.name = f"hashing-v1-{dim}"

    def embed_batch(self, texts: Sequence[str], *, kind: EmbedKind) -> np.ndarray:
        items = validate_texts(texts)
        out = np.zeros((len(items), self.dim), dtype=np.float32)
        for row, text in enumerate(items):
            for feature, weight in _features(text):
                bucket, sign = _slot(feature, self.dim)
                out[row, bucket] += sign * weight
            if not out[row].any():  # e.g. only punctuation, or features that cancelled out
                bucket, sign = _slot("raw:" + text, self.dim)
                out[row, bucket] = sign
        return finish_vectors(out, count=len(items), dim=self.dim, source=self.name)


def _features(text: str) -> Iterator[tuple[str, float]]:
    normalized = unicodedata.normalize("NFKC", text).lower()
    words: list[str] = []
    for token in _TOKEN.findall(normalized):
        if _CJK_START.match(token):
            yield from ((f"c:{ch}", _CJK_UNIGRAM) for ch in token)
            yield from ((f"b:{token[i : i + 2]}", _CJK_BIGRAM) for i in range(len(token) - 1))
            words.append(token)
            continue
        words.append(token)
        yield f"w:{token}", _WORD
        padded = f"<{token}>"
        if len(padded) > 4:
            yield from ((f"t:{padded[i : i + 3]}", _CHAR_TRIGRAM) for i in range(len(padded) - 2))
    for first, second in itertools.pairwise(words):
        yield f"p:{first} {second}", _WORD_BIGRAM


@lru_cache(maxsize=65536)
def _slot(feature: str, dim: int) -> tuple[int, float]:
    digest = hashlib.blake2b(feature.encode("utf-8"), digest_size=8, person=b"neuromem-hash").digest()
    value = int.from_bytes(digest, "little")
    return (value >> 1) % dim, (1.0 if value & 1 else -1.0)
