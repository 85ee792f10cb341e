"""Maximal marginal relevance (seed 003 §5.2 stage B, §15 "MMR 多样性阈值 0.7"). Pure.

``next = argmax_d  λ·rel(d) − (1 − λ)·max_{s ∈ selected} cos(d, s)`` with relevance
min-max normalised over the pool. Items without a vector count as dissimilar to
everything, so a missing embedding never hides a memory.
"""

from __future__ import annotations

import heapq
import uuid
from collections.abc import Mapping, Sequence

import numpy as np

from .. import blas
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
            unit[row] = v
    norms = np.linalg.norm(unit, axis=1)
    unit /= np.where(norms > 0, norms, 1.0)[:, None]
    max_sim = np.zeros(len(ids), dtype=np.float64)
    taken = np.zeros(len(ids), dtype=bool)
    chosen: list[int] = []
    with blas.single_threaded():  # tiny products: BLAS threads would cost ~50× the product itself
        for _ in range(n):
            gain = lam * rel - (1 - lam) * max_sim
            gain[taken] = -np.inf
            best = int(np.argmax(gain))  # first index wins ties: the input order
            chosen.append(best)
            taken[best] = True
            if dim:
                max_sim = np.maximum(max_sim, unit @ unit[best])
    return [ids[i] for i in chosen]


def session_spread(
    ids: Sequence[uuid.UUID],
    scores: Sequence[float],
    sessions: Mapping[uuid.UUID, str],
    *,
    decay: float,
) -> list[tuple[uuid.UUID, float]]:
    """Re-order ``ids`` so that one conversation session does not fill the top on its own.

    Greedy: the next item is the one with the best ``score · decay^n``, where ``n`` counts the
    items already picked from its session (``sessions``; an id without a session is a session of
    its own, never penalised). Returns ``(id, discounted score)`` in the new order. This is MMR
    (seed 003 §5.2 stage B) with "came from the same session" as the similarity: a question whose
    evidence is spread over several sessions ("how many fitness classes…") otherwise sees its top k
    taken by the several on-topic turns of the single best session. ``decay`` 1 keeps the order;
    ties keep the input order. Scores must be non-negative (they are, after fusion)."""
    if not 0 < decay <= 1:
        raise ValueError("decay must be in (0, 1]")
    # within one session the order never changes (the same factor applies to all its items), so the
    # greedy pick is among each session's best remaining item: a heap of (−discounted score, position)
    queues: dict[object, list[int]] = {}  # an id without a session is a session of its own
    for i, id_ in enumerate(ids):
        queues.setdefault(sessions.get(id_, id_), []).append(i)
    for queue in queues.values():
        queue.sort(key=lambda i: (-scores[i], i))
    heads = [(-scores[q[0]], q[0], key, 0) for key, q in queues.items()]
    heapq.heapify(heads)
    out: list[tuple[uuid.UUID, float]] = []
    while heads:
        neg, i, key, taken = heapq.heappop(heads)
        out.append((ids[i], -neg))
        queue = queues[key]
        queue.pop(0)
        if queue:
            heapq.heappush(heads, (-scores[queue[0]] * decay ** (taken + 1), queue[0], key, taken + 1))
    return out
