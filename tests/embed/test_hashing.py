from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from neuromem.embed import HashingEmbedder
from neuromem.errors import ConfigError, EmptyContentError, InvalidInputError


def test_deterministic_across_instances() -> None:
    a = HashingEmbedder(dim=128).embed_passages(["hello world", "你好世界"])
    b = HashingEmbedder(dim=128).embed_passages(["hello world", "你好世界"])
    assert np.array_equal(a, b)
    assert a.dtype == np.float32


def test_rows_are_unit_length() -> None:
    v = HashingEmbedder().embed_passages(["a", "tea and coffee", "我喜欢喝茶", "!!!", " "])
    assert v.shape == (5, 256)
    np.testing.assert_allclose(np.linalg.norm(v, axis=1), 1.0, rtol=1e-5)


@given(st.text(min_size=1, max_size=200))
@settings(max_examples=100, deadline=None)
def test_any_non_empty_text_gives_a_unit_vector(text: str) -> None:
    v = HashingEmbedder(dim=64).embed_query(text)
    assert v.shape == (64,)
    assert abs(float(np.linalg.norm(v)) - 1.0) < 1e-4


def test_similar_texts_score_higher() -> None:
    e = HashingEmbedder()
    q = e.embed_query("I like green tea in the morning")
    p = e.embed_passages(["I like green tea", "the train is late again", "quarterly revenue report"])
    scores = p @ q
    assert scores[0] > scores[1]
    assert scores[0] > scores[2]


def test_chinese_uses_character_bigrams() -> None:
    e = HashingEmbedder()
    q = e.embed_query("我喜欢喝绿茶")
    p = e.embed_passages(["我喜欢喝茶", "火车又晚点了"])
    assert p[0] @ q > 0.4
    assert p[0] @ q > p[1] @ q


def test_mixed_script_text() -> None:
    e = HashingEmbedder()
    q = e.embed_query("用Python写代码")
    p = e.embed_passages(["我用 Python 写代码", "I cook dinner"])
    assert p[0] @ q > p[1] @ q


def test_empty_input_list_and_batching() -> None:
    e = HashingEmbedder(dim=32)
    assert e.embed_passages([]).shape == (0, 32)
    texts = [f"text number {i}" for i in range(10)]
    assert np.array_equal(e.embed_passages(texts, batch_size=3), e.embed_passages(texts))


def test_invalid_inputs() -> None:
    e = HashingEmbedder()
    with pytest.raises(EmptyContentError):
        e.embed_passages(["ok", ""])
    with pytest.raises(InvalidInputError):
        e.embed_passages("not a list")
    with pytest.raises(InvalidInputError):
        e.embed_passages(["ok", 3])  # type: ignore[list-item]
    with pytest.raises(ConfigError):
        HashingEmbedder(dim=2)
