"""The embedded server: initialised on first use, reused by a later process, stopped cleanly."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from neuromem import Memory, Settings
from neuromem.errors import DatabaseUnavailableError
from neuromem.store.server import stop_embedded

SCRIPT = """
import sys
from pathlib import Path
from neuromem import Memory, Settings
s = Settings(store={"data_dir": Path(sys.argv[1]), "embedding_dim": 64, "shared_buffers_mb": int(sys.argv[3]),
                    "idle_shutdown_s": float(sys.argv[4])},
             embedder={"provider": "hashing", "dim": 64})
with Memory(s) as m:
    if sys.argv[2] == "write":
        m.add("the embedded server keeps this across processes", user_id="p")
    with m.runtime.db.connection() as conn:
        buffers = conn.execute("SHOW shared_buffers").fetchone()["shared_buffers"]
    print(len(m.get_all(user_id="p")), buffers)
"""


def test_embedded_server_persists_across_processes(tmp_path: Path) -> None:
    """Also: a new data directory starts with the configured shared_buffers (one restart);
    an existing one gets a changed value at its next start, not by a restart under its users."""
    data_dir = tmp_path / "pgdata"

    def run(mode: str, buffers_mb: int) -> str:  # idle_shutdown_s 0: the last process stops the server
        done = subprocess.run(
            [sys.executable, "-c", SCRIPT, str(data_dir), mode, str(buffers_mb), "0"],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        return done.stdout.strip()

    assert run("write", 144) == "1 144MB"
    assert (data_dir / "PG_VERSION").exists()
    assert run("read", 160) == "1 144MB"  # stored for the next start
    assert not (data_dir / "postmaster.pid").exists()  # the last process stopped it cleanly
    assert run("read", 160) == "1 160MB"
    assert stop_embedded(data_dir) is None


def test_unreachable_url_is_a_clear_error() -> None:
    settings = Settings(
        store={"database_url": "postgresql://nobody@127.0.0.1:1/none", "connect_timeout_s": 2},
        embedder={"provider": "hashing", "dim": 384},
    )
    with pytest.raises(
        DatabaseUnavailableError, match=r"cannot reach PostgreSQL at postgresql://nobody@127\.0\.0\.1:1"
    ):
        Memory(settings)
