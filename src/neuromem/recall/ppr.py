"""Personalized PageRank over a small weighted subgraph (seed 003 §5.2 stage C). Pure.

``p ← (1 − d)·s + d · Wᵀ p`` by power iteration, where ``W`` is the row-normalised
weighted adjacency (edges are walked both ways) and ``s`` the normalised seed
weights. Dangling mass returns to the seeds, so the scores sum to 1.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from typing import TypeVar

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
    s = {n: w / total_seed for n, w in seeds.items() if w > 0}
    out: dict[N, dict[N, float]] = {}
    for a, b, w in edges:
        if w <= 0 or a == b:
            continue
        out.setdefault(a, {})[b] = out.get(a, {}).get(b, 0.0) + w
        out.setdefault(b, {})[a] = out.get(b, {}).get(a, 0.0) + w
    nodes = set(out) | set(s)
    strength = {n: sum(nbrs.values()) for n, nbrs in out.items()}
    p = dict.fromkeys(nodes, 0.0)
    p.update(s)
    for _ in range(iterations):
        nxt = {n: (1 - damping) * s.get(n, 0.0) for n in nodes}
        dangling = 0.0
        for n, mass in p.items():
            if mass == 0.0:
                continue
            nbrs = out.get(n)
            if not nbrs:
                dangling += mass
                continue
            share = damping * mass / strength[n]
            for m, w in nbrs.items():
                nxt[m] += share * w
        if dangling:
            for n, w in s.items():
                nxt[n] += damping * dangling * w
        delta = sum(abs(nxt[n] - p[n]) for n in nodes)
        p = nxt
        if delta < tolerance:
            break
    return p
