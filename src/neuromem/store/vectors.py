"""Passing vectors to pgvector as ``halfvec`` text literals (the store's only vector adapter)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..errors import VectorDimensionError


def to_halfvec(vector: Sequence[float] | np.ndarray, dim: int) -> str:
    """Format a vector as a pgvector literal, refusing a wrong dimension or non-finite values."""
    array = np.asarray(vector, dtype=np.float32).reshape(-1)
    if array.shape[0] != dim:
        raise VectorDimensionError(f"vector has {array.shape[0]} dimensions, the store expects {dim}")
    if not np.all(np.isfinite(array)):
        raise VectorDimensionError("vector contains NaN or infinite values")
    return "[" + ",".join(f"{x:.6g}" for x in array.tolist()) + "]"
