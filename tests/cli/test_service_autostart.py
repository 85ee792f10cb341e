"""The first command leaves a warm service behind (issue 22 item 2): on the embedded store, a
command that found no service starts ``memctl serve --auto`` as it ends; the next command runs on
it; it stops by itself after ``service.idle_shutdown_s`` without a request, or with
``memctl server stop``, and leaves no key behind in ``keys list --all`` (item 10)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from neuromem.cli.remote import find_remote

ROOT = Path(__file__).resolve().parents[2]
IDLE_S = 15  # long enough that a loaded machine still sees the service before it stops


@pytest.fixture
def home() -> Iterator[Path]:
    parent = Path(tempfile.mkdtemp(prefix="neuromem-autostart-"))
    parent.chmod(0o755)  # the embedded server's system user must reach its data directory (root runs)
    yield parent
    env = environment(parent)
    subprocess.run(
        [sys.executable, "-m", "neuromem.cli.main", "server", "stop"],
        env=env,
        capture_output=True,
        timeout=120,
    )
    shutil.rmtree(parent, ignore_errors=True)


def environment(parent: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("NEUROMEM_")}
    return {
        **env,
        "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT)]),
        "NEUROMEM_DATA_DIR": str(parent / "pgdata"),
        "NEUROMEM_EMBEDDER": "hashing",
        "NEUROMEM_EMBEDDER__DIM": "64",
        "NEUROMEM_EMBEDDING_DIM": "64",
        "NEUROMEM_SERVICE__AUTO_START": "true",
        "NEUROMEM_SERVICE__IDLE_SHUTDOWN_S": str(IDLE_S),
    }


def memctl(parent: Path, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "neuromem.cli.main", *args],
        env=environment(parent),
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def wait_for(predicate, seconds: float, what: str) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + seconds
    while not predicate():
        assert time.monotonic() < deadline, what
        time.sleep(0.2)


def served(parent: Path) -> bool:
    return find_remote(parent / "pgdata", external_database=False, environ={}) is not None


@pytest.mark.slow
def test_a_command_leaves_a_service_that_the_next_uses_and_that_stops_when_idle(home: Path) -> None:
    assert memctl(home, "add", "-u", "ann", "Ann plays the cello").startswith("ADD: ")
    wait_for(lambda: served(home), 120, f"no service started: {(home / 'serve.log').read_text()[-3000:]}")
    assert memctl(home, "add", "-u", "ann", "Ann lives in Porto").startswith("ADD: ")
    log = [json.loads(line) for line in (home / "serve.log").read_text().splitlines() if line.startswith("{")]
    assert any(e.get("logger") == "neuromem.service.api.access" and e.get("status") == 201 for e in log), log[
        -5:
    ]
    assert "neuromem ready in " in (home / "serve.log").read_text()  # the banner line

    wait_for(lambda: not (home / "serve.json").exists(), IDLE_S + 30, "the service did not stop when idle")
    assert memctl(home, "keys", "list", "--all").strip() == "no keys"  # its key is deleted, not revoked

    assert "Ann lives in Porto" in memctl(home, "list", "-u", "ann")  # in-process again, and a new service
    wait_for(lambda: served(home), 120, "no second service started")
    assert "stopped the neuromem service commands had started" in memctl(home, "server", "stop")
    assert not (home / "serve.json").exists()
