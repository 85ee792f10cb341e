"""Vectors to and from pgvector's ``halfvec`` (the store's only vector adapter).

Written as text literals (a bound parameter, so that HNSW can use it); read in pgvector's
binary form, ``halfvec_send(embedding)``: producing and parsing the text form costs 15×
more (40 vectors of 384 dimensions: 7.8 against 0.5 ms).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from ..errors import VectorDimensionError

#: Literals remembered by the vector's bytes: one search formats its query vector for every list that
#: reads vectors (memories, turns, a second hop), ~0.3 ms each at 384 dimensions
LITERALS_KEPT = 256


def to_halfvec(vector: Sequence[float] | np.ndarray, dim: int) -> str:
    """Format a vector as a pgvector literal, refusing a wrong dimension or non-finite values."""
    array = np.asarray(vector, dtype=np.float32).reshape(-1)
    if array.shape[0] != dim:
        raise VectorDimensionError(f"vector has {array.shape[0]} dimensions, the store expects {dim}")
    if not np.all(np.isfinite(array)):
        raise VectorDimensionError("vector contains NaN or infinite values")
    return _literal(array.tobytes())


@lru_cache(maxsize=LITERALS_KEPT)
def _literal(data: bytes) -> str:
    return "[" + ",".join(f"{x:.6g}" for x in np.frombuffer(data, dtype=np.float32).tolist()) + "]"


def from_halfvec_send(data: bytes | None) -> np.ndarray | None:
    """The float32 vector of ``halfvec_send(embedding)`` — uint16 dimension, uint16 unused, then
    big-endian float16s — or None for a row without one."""
    if data is None:
        return None
    return np.frombuffer(data, dtype=">f2", offset=4).astype(np.float32)
