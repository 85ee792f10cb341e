"""A bounded LRU of query embeddings (issue 4 latency: a repeated query skips the embedder).

Agents ask the same things again ("what does the user like?"); the query vector of a
text never changes for one embedder, so the pipeline keeps the last
``RecallSettings.query_embedding_cache`` vectors. Thread-safe; ``size`` 0 disables it.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

import numpy as np


class QueryEmbeddingCache:
    """Least-recently-used map ``text → vector`` holding at most ``size`` entries."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[str, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get(self, text: str) -> np.ndarray | None:
        with self._lock:
            vector = self._items.get(text)
            if vector is None:
                self.misses += 1
                return None
            self._items.move_to_end(text)
            self.hits += 1
            return vector

    def put(self, text: str, vector: np.ndarray) -> None:
        if self.size <= 0:
            return
        vector = np.asarray(vector)
        vector.setflags(write=False)  # shared between recalls: nobody may change it in place
        with self._lock:
            self._items[text] = vector
            self._items.move_to_end(text)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def __len__(self) -> int:
        return len(self._items)


__all__ = ["QueryEmbeddingCache"]
