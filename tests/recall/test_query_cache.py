"""The bounded LRU of query embeddings and the pipeline's use of it (issue 4 latency)."""

from __future__ import annotations

import numpy as np
import pytest

from neuromem import Memory
from neuromem.recall.query_cache import QueryEmbeddingCache


def test_lru_keeps_the_most_recently_used_and_counts_hits() -> None:
    cache = QueryEmbeddingCache(2)
    cache.put("a", np.ones(2))
    cache.put("b", np.zeros(2))
    assert cache.get("a") is not None  # a is now the most recent
    cache.put("c", np.full(2, 2.0))  # evicts b
    assert cache.get("b") is None
    assert [float(cache.get(k)[0]) for k in ("a", "c")] == [1.0, 2.0]  # type: ignore[index]
    assert (len(cache), cache.hits, cache.misses) == (2, 3, 1)
    with pytest.raises(ValueError):
        cache.get("a")[0] = 5  # type: ignore[index]  # shared vectors are read-only


def test_size_zero_disables_the_cache() -> None:
    cache = QueryEmbeddingCache(0)
    cache.put("a", np.ones(2))
    assert cache.get("a") is None and len(cache) == 0


def test_a_repeated_query_is_embedded_once(memory: Memory) -> None:
    memory.add("Mia plays the cello", user_id="u")
    calls: list[str] = []
    runtime = memory.runtime
    original = runtime.embedder.embed_query

    def counting(text: str) -> np.ndarray:
        calls.append(text)
        return original(text)

    runtime.embedder.embed_query = counting  # type: ignore[method-assign]
    first = memory.search("cello", user_id="u", trace=True)
    second = memory.search("cello", user_id="u", trace=True)
    assert calls == ["cello"]
    assert second.trace["stages"]["query_embedding"] == "cached"
    assert [h.memory.id for h in first] == [h.memory.id for h in second]
    assert "vector" in second[0].score.ranks


def test_the_key_is_the_normalised_text_and_the_hit_rate_is_counted() -> None:
    cache = QueryEmbeddingCache(4)
    assert cache.hit_rate == 0.0
    cache.put("what does  Mia like?\n", np.ones(2))
    assert cache.get(" what does Mia like?") is not None  # whitespace runs and ends do not matter
    assert cache.get("what does Ｍia like?") is not None  # NFKC: a full-width letter is the letter
    assert cache.get("What does Mia like?") is None  # case does: the embedder is cased
    assert (len(cache), cache.hits, cache.misses, round(cache.hit_rate, 3)) == (1, 2, 1, 0.667)


def test_a_re_spaced_question_is_not_embedded_again(memory: Memory) -> None:
    memory.add("Mia plays the cello", user_id="u")
    memory.search("who plays the cello?", user_id="u")
    again = memory.search("who  plays the cello? ", user_id="u", trace=True)
    assert again.trace["stages"]["query_embedding"] == "cached"
