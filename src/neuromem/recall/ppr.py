"""Personalized PageRank over a small weighted subgraph (seed 003 §5.2 stage C). Pure.

``p ← (1 − d)·s + d · Wᵀ p`` by power iteration, where ``W`` is the row-normalised
weighted adjacency (edges are walked both ways) and ``s`` the normalised seed
weights. Dangling mass returns to the seeds, so the scores sum to 1.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from typing import TypeVar

import numpy as np

N = TypeVar("N", bound=Hashable)


def personalized_pagerank(
    edges: Iterable[tuple[N, N, float]],
    seeds: Mapping[N, float],
    *,
    damping: float = 0.85,
    iterations: int = 30,
    tolerance: float = 1e-9,
) -> dict[N, float]:
    """Scores of every node reachable in the subgraph; empty seeds → empty result."""
    total_seed = sum(w for w in seeds.values() if w > 0)
    if total_seed <= 0:
        return {}
    index: dict[N, int] = {}
    for seed, w in seeds.items():
        if w > 0:
            index.setdefault(seed, len(index))
    src: list[int] = []
    dst: list[int] = []
    wts: list[float] = []
    for a, b, w in edges:
        if w <= 0 or a == b:
            continue
        i, j = index.setdefault(a, len(index)), index.setdefault(b, len(index))
        src += [i, j]  # walked both ways
        dst += [j, i]
        wts += [w, w]
    n = len(index)
    s = np.zeros(n)
    for node, w in seeds.items():
        if w > 0:
            s[index[node]] = w / total_seed
    src_a, dst_a, w_a = np.asarray(src, dtype=np.int64), np.asarray(dst, dtype=np.int64), np.asarray(wts)
    strength = np.bincount(src_a, weights=w_a, minlength=n)
    dangling = strength == 0
    share = np.divide(w_a, strength[src_a], out=np.zeros_like(w_a), where=strength[src_a] > 0)
    p = s.copy()
    for _ in range(iterations):
        nxt = (1 - damping) * s + damping * np.bincount(dst_a, weights=p[src_a] * share, minlength=n)
        nxt += damping * p[dangling].sum() * s  # dangling mass returns to the seeds
        delta = float(np.abs(nxt - p).sum())
        p = nxt
        if delta < tolerance:
            break
    return {node: float(p[i]) for node, i in index.items()}
