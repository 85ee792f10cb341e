"""The embedded server outlives a command (idle watchdog), is revived when it dies under a live
process, ignores dead processes' handles, and ``memctl server stop`` tells what it did (issue 12)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest
from click.testing import CliRunner

from neuromem import Memory, Settings
from neuromem.admin import stop_embedded_server
from neuromem.cli.main import cli
from neuromem.store.server import prune_dead_handles, running_pid
from neuromem.store.watchdog import ensure_watchdog, poll_interval, stop_watchdog, watchdog_pid

SCRIPT = """
import sys
from pathlib import Path
from neuromem import Memory, Settings
s = Settings(store={"data_dir": Path(sys.argv[1]), "embedding_dim": 64, "idle_shutdown_s": float(sys.argv[2]),
                    "shared_buffers_mb": 128}, embedder={"provider": "hashing", "dim": 64})
with Memory(s) as m:
    m.add("kept while the server idles", user_id="w")
"""


@pytest.fixture(scope="module")
def data_dir() -> Iterator[Path]:
    """One data directory for the module (initdb is the slow part); each test leaves it stopped."""
    parent = Path(tempfile.mkdtemp(prefix="neuromem-test-life-"))
    parent.chmod(0o755)  # the server's system user must enter it when tests run as root
    path = parent / "pgdata"
    yield path
    stop_embedded_server(Settings(store={"data_dir": path}))
    subprocess.run(["rm", "-rf", str(parent)], check=False)


def settings_for(data_dir: Path, idle_s: float) -> Settings:
    return Settings(
        store={
            "data_dir": data_dir,
            "embedding_dim": 64,
            "idle_shutdown_s": idle_s,
            "shared_buffers_mb": 128,
        },
        embedder={"provider": "hashing", "dim": 64},
    )


def _alive(process: psutil.Process) -> bool:
    try:
        return process.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def wait_for(condition, timeout: float) -> bool:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.2)
    return condition()


def test_server_stays_up_after_the_command_then_stops_when_idle(data_dir: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(data_dir), "600"], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert running_pid(data_dir) is not None, "the server stopped with the process that used it"
    first = watchdog_pid(data_dir)
    assert first is not None
    # a second command reuses both the server and the watchdog
    assert ensure_watchdog(data_dir, 600) == first
    # a short idle time (a new watchdog) stops the server once nobody is connected
    assert stop_watchdog(data_dir) == first
    assert wait_for(lambda: watchdog_pid(data_dir) is None, 5)
    ensure_watchdog(data_dir, 1)
    assert wait_for(lambda: running_pid(data_dir) is None, 1 + 3 * poll_interval(1) + 10)
    assert wait_for(lambda: watchdog_pid(data_dir) is None, 5)
    # nothing runs now, and `memctl server stop` says so instead of claiming a stop
    result = CliRunner().invoke(cli, ["server", "stop"], env={"NEUROMEM_DATA_DIR": str(data_dir)})
    assert result.exit_code == 0 and result.output.startswith("no embedded PostgreSQL was running")


def test_killed_server_is_revived_in_process_and_stop_reports_the_pid(data_dir: Path) -> None:
    settings = settings_for(data_dir, 600)
    with Memory(settings) as m:
        m.add("written before the crash", user_id="r")
        victim = running_pid(data_dir)
        assert victim is not None
        backends = psutil.Process(victim).children()
        os.kill(victim, signal.SIGKILL)
        assert wait_for(lambda: running_pid(data_dir) is None, 10)
        # the pooled connections' backends outlive their postmaster for a moment: a connection that
        # passes the pool's check and then loses its backend fails that one call (a typed
        # DatabaseUnavailableError); this test is about the revival, so it waits for them to go
        assert wait_for(lambda: not any(_alive(b) for b in backends), 10)
        m.add("written after the crash", user_id="r")  # the pool reconnects; the server is started again
        assert sorted(r.content for r in m.get_all(user_id="r")) == [
            "written after the crash",
            "written before the crash",
        ]
        revived = running_pid(data_dir)
        assert revived is not None and revived != victim
    result = CliRunner().invoke(cli, ["server", "stop"], env={"NEUROMEM_DATA_DIR": str(data_dir)})
    assert result.exit_code == 0
    assert result.output.strip() == f"stopped the embedded PostgreSQL in {data_dir.resolve()} (pid {revived})"
    assert running_pid(data_dir) is None and watchdog_pid(data_dir) is None


def test_dead_pids_are_pruned_from_the_handle_list(tmp_path: Path) -> None:
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    handles = tmp_path / ".handle_pids.json"
    handles.write_text(json.dumps([os.getpid(), dead.pid]))
    assert prune_dead_handles(tmp_path) == [dead.pid]
    assert json.loads(handles.read_text()) == [os.getpid()]
    assert prune_dead_handles(tmp_path) == []


def test_server_stop_with_an_external_database_stops_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NEUROMEM_DATABASE_URL", "postgresql://nobody@127.0.0.1:1/none")
    result = CliRunner().invoke(cli, ["server", "stop"])
    assert result.exit_code == 0 and result.output.startswith("nothing stopped: NEUROMEM_DATABASE_URL")
