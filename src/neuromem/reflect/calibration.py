"""How similar an embedder finds unrelated texts: the floor its cosines start from.

Embedders differ in how they spread cosine similarity: the hashing embedder gives unrelated
texts about 0, multilingual-e5-small about 0.74 (it is anisotropic: every vector leans the
same way). A fixed threshold such as ``traits.link_min_similarity`` 0.55 therefore links
nothing spurious under one and *everything* under the other — the offline detector attached
every memory of the demo to its one running trait. The detector compares similarities on the
embedder's own scale instead, ``(cos − floor) / (1 − floor)``, where ``floor`` is the mean
cosine between the unrelated sentences below (both languages), embedded once per process
and embedder, the first time reflection needs it.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence

import numpy as np

log = logging.getLogger(__name__)

UNRELATED = (
    "The train to the airport leaves at seven.",
    "我喜欢在周末做饭。",
    "Quarterly revenue grew by four percent.",
    "The cat sleeps on the windowsill.",
    "他在大学学习化学。",
    "Please water the tomatoes twice a week.",
    "The museum closes early on Mondays.",
    "我的手机屏幕碎了。",
)


def mean_pairwise_cosine(vectors: np.ndarray) -> float:
    """Mean cosine over distinct pairs of ``vectors`` (rows normalised here)."""
    v = np.asarray(vectors, dtype=np.float64)
    v = v / np.maximum(np.linalg.norm(v, axis=1, keepdims=True), 1e-12)
    n = len(v)
    if n < 2:
        return 0.0
    sims = v @ v.T
    return float((sims.sum() - np.trace(sims)) / (n * n - n))


def rescaled(cosine: float, floor: float) -> float:
    """``cosine`` on the embedder's own scale: 0 at the similarity of unrelated text, 1 at identity."""
    return (cosine - floor) / (1.0 - floor) if floor < 1.0 else 0.0


class SimilarityFloor:
    """The unrelated-text cosine of one embedder, measured once, lazily; 0 when it cannot be measured
    (no embedder, async embedding, or the embedder failed: the fixed threshold applies as it is)."""

    def __init__(self, embed: Callable[[Sequence[str]], np.ndarray | None] | None) -> None:
        self._embed = embed
        self._value: float | None = None
        self._lock = threading.Lock()

    @property
    def value(self) -> float:
        with self._lock:
            if self._value is None:
                vectors = self._embed(list(UNRELATED)) if self._embed is not None else None
                if vectors is None:
                    return 0.0  # not measured: try again next time
                self._value = max(0.0, min(mean_pairwise_cosine(vectors), 0.99))
                log.info("embedding similarity floor (unrelated texts): %.3f", self._value)
            return self._value


__all__ = ["UNRELATED", "SimilarityFloor", "mean_pairwise_cosine", "rescaled"]
