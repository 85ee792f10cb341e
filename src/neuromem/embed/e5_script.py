"""The encoder layers of ``e5_torch.TorchForward`` for one text, compiled by TorchScript.

A query is embedded on a worker thread while recall's own thread reads the lexical lists
(``recall.pipeline``). Run op by op from Python, the pass takes the interpreter lock about 300
times, and each time another thread holds it, the pass waits up to the switch interval (5 ms): with
the other thread busy in Python, a 4 ms pass took 1.4 s; beside recall, a third longer. A
TorchScript function runs the whole graph with the lock released: the same pass beside a thread
busy in Python took about 30 ms, alone the same 4 ms, and its vectors are the eager pass's bit for
bit (tested). Only the oneDNN and plain float projections are compiled (the int8 ones, fbgemm's packed
parameters, stay eager: see ``e5_torch``).

This module imports torch at the top and is imported by ``e5_torch`` only when an engine is built;
the functions are compiled then (``compiled()``, once per process; TorchScript reads their source,
so no ``from __future__ import annotations`` here).
"""

import functools
import warnings
from typing import Any, List, Optional, Union  # noqa: UP035 - TorchScript's own type names

import torch
import torch.nn.functional as F
from torch import Tensor


def _project(x: Tensor, w: Tensor, b: Tensor, packed: bool, gelu: bool, dtype: torch.dtype) -> Tensor:
    """``x @ W.T + b`` (GELU when asked): oneDNN's prepacked product, or ``F.linear``."""
    x = x.to(dtype)
    if packed:
        no_scalars = torch.jit.annotate(List[Optional[Union[int, float, complex]]], [])  # noqa: UP006,UP007,UP045
        if gelu:
            return torch.ops.mkldnn._linear_pointwise(x, w, b, "gelu", no_scalars, "none")
        return torch.ops.mkldnn._linear_pointwise(x, w, b, "none", no_scalars, "")
    y = F.linear(x, w, b)
    return F.gelu(y) if gelu else y


def encoder(
    x: Tensor,
    padding: Tensor,
    tensors: List[Tensor],  # noqa: UP006
    packed: List[bool],  # noqa: UP006
    heads: int,
    scale: float,
    eps: float,
    dtype: torch.dtype,
) -> Tensor:
    """The rows of one text (``x``: its embedded tokens, bucket rows masked by ``padding``) through the
    embedding layer norm (``tensors[0:2]``) and every layer: 12 tensors each (weight and bias of the qkv
    projection, of the attention output, the attention norm's two, the FFN input's, the FFN output's, the
    output norm's) and 4 ``packed`` flags (the projections, in that order). TorchScript reads no module
    constant: the counts are written here."""
    dim = x.shape[1]
    x = F.layer_norm(x, [dim], tensors[0], tensors[1], eps)
    for layer in range((len(tensors) - 2) // 12):
        t = 2 + 12 * layer
        p = 4 * layer
        qkv = _project(x, tensors[t], tensors[t + 1], packed[p], False, dtype).float()
        q3 = qkv.view(1, -1, 3, heads, dim // heads).permute(2, 0, 3, 1, 4)
        q, k, v = q3[0], q3[1], q3[2]
        scores = torch.softmax(torch.matmul(q, k.transpose(-1, -2)) * scale + padding, dim=-1)
        ctx = torch.matmul(scores, v).transpose(1, 2).reshape(-1, dim)
        attended = _project(ctx, tensors[t + 2], tensors[t + 3], packed[p + 1], False, dtype).float()
        x = F.layer_norm(attended + x, [dim], tensors[t + 4], tensors[t + 5], eps)
        mid = _project(x, tensors[t + 6], tensors[t + 7], packed[p + 2], True, dtype)
        out = _project(mid, tensors[t + 8], tensors[t + 9], packed[p + 3], False, dtype).float()
        x = F.layer_norm(out + x, [dim], tensors[t + 10], tensors[t + 11], eps)
    return x


@functools.cache
def compiled() -> Any:
    """``encoder`` compiled by TorchScript (once per process, ~0.1 s). torch ≥ 2.10 calls TorchScript
    deprecated in favour of ``torch.compile``, which needs a C++ compiler at run time and whose graphs
    return to Python between kernels: not for an embedder that must run offline on any machine."""
    with warnings.catch_warnings():
        warnings.filterwarnings(
            "ignore", message=r"`torch\.jit\.script` is deprecated", category=DeprecationWarning
        )
        return torch.jit.script(encoder)


__all__ = ["compiled", "encoder"]
