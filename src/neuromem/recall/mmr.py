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
    rel = dict(zip(ids, min_max(list(relevance)), strict=True))
    unit: dict[uuid.UUID, np.ndarray] = {}
    for id_ in ids:
        v = vectors.get(id_)
        if v is not None:
            norm = float(np.linalg.norm(v))
            if norm > 0:
                unit[id_] = np.asarray(v, dtype=np.float32) / norm
    remaining = list(ids)
    chosen: list[uuid.UUID] = []
    max_sim = dict.fromkeys(ids, 0.0)
    while remaining and len(chosen) < n:
        best = max(remaining, key=lambda d: lam * rel[d] - (1 - lam) * max_sim[d])
        chosen.append(best)
        remaining.remove(best)
        vb = unit.get(best)
        if vb is not None:
            for d in remaining:
                vd = unit.get(d)
                if vd is not None:
                    max_sim[d] = max(max_sim[d], float(vd @ vb))
    return chosen
