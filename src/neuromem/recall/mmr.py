"""Maximal marginal relevance (seed 003 §5.2 stage B, §15 "MMR 多样性阈值 0.7"). Pure.

``next = argmax_d  λ·rel(d) − (1 − λ)·max_{s ∈ selected} cos(d, s)`` with relevance
min-max normalised over the pool. Items without a vector count as dissimilar to
everything, so a missing embedding never hides a memory.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence

import numpy as np

from .fusion import min_max


def mmr_order(
    ids: Sequence[uuid.UUID],
    relevance: Sequence[float],
    vectors: Mapping[uuid.UUID, np.ndarray],
    *,
    lam: float,
    limit: int | None = None,
) -> list[uuid.UUID]:
    """Re-order ``ids`` (best-first by ``relevance``) for diversity; returns ``limit`` ids (default all)."""
    n = len(ids) if limit is None else min(limit, len(ids))
    if n == 0:
        return []
    rel = np.asarray(min_max(list(relevance)), dtype=np.float64)
    dim = next((len(v) for v in vectors.values()), 0)
    unit = np.zeros((len(ids), dim), dtype=np.float32)
    for row, id_ in enumerate(ids):
        v = vectors.get(id_)
        if v is not None:
            norm = float(np.linalg.norm(v))
            if norm > 0:
                unit[row] = np.asarray(v, dtype=np.float32) / norm
    sim = unit @ unit.T if dim else np.zeros((len(ids), len(ids)), dtype=np.float32)
    max_sim = np.zeros(len(ids), dtype=np.float64)
    taken = np.zeros(len(ids), dtype=bool)
    chosen: list[int] = []
    for _ in range(n):
        gain = lam * rel - (1 - lam) * max_sim
        gain[taken] = -np.inf
        best = int(np.argmax(gain))  # first index wins ties: the input order
        chosen.append(best)
        taken[best] = True
        max_sim = np.maximum(max_sim, sim[best])
    return [ids[i] for i in chosen]
