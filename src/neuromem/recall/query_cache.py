"""A bounded LRU of query embeddings (issue 4 latency; issue 25 "Speed": a recurring question skips the embedder).

Agents ask the same things again ("what does the user like?"); the query vector of a
text never changes for one embedder, so the pipeline keeps the last
``RecallSettings.query_embedding_cache`` vectors, keyed by the normalised text
(:func:`normalise`: Unicode NFKC, runs of whitespace as one space, no leading or trailing
space — what the embedder's tokenizer ignores anyway), so "what does Mia like? " and
"what  does Mia like?" share one vector. Thread-safe; ``size`` 0 disables it. ``hits`` and
``misses`` count the look-ups (``bench.latency`` reports the hit rate of an agent loop).
"""

from __future__ import annotations

import threading
import unicodedata
from collections import OrderedDict

import numpy as np


def normalise(text: str) -> str:
    """The cache key of a query: NFKC, whitespace runs as one space, stripped."""
    return " ".join(unicodedata.normalize("NFKC", text).split())


class QueryEmbeddingCache:
    """Least-recently-used map ``normalised text → vector`` holding at most ``size`` entries."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[str, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get(self, text: str) -> np.ndarray | None:
        key = normalise(text)
        with self._lock:
            vector = self._items.get(key)
            if vector is None:
                self.misses += 1
                return None
            self._items.move_to_end(key)
            self.hits += 1
            return vector

    def put(self, text: str, vector: np.ndarray) -> None:
        if self.size <= 0:
            return
        key = normalise(text)
        vector = np.asarray(vector)
        vector.setflags(write=False)  # shared between recalls: nobody may change it in place
        with self._lock:
            self._items[key] = vector
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()

    @property
    def hit_rate(self) -> float:
        """Hits over look-ups since the cache was made (0.0 before the first)."""
        with self._lock:
            looked = self.hits + self.misses
            return self.hits / looked if looked else 0.0

    def __len__(self) -> int:
        return len(self._items)


__all__ = ["QueryEmbeddingCache", "normalise"]
