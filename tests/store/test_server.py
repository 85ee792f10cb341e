"""The embedded server: initialised on first use, reused by a later process, stopped cleanly."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from neuromem import DatabaseUnavailableError, Memory, Settings
from neuromem.store.server import stop_embedded

SCRIPT = """
import sys
from pathlib import Path
from neuromem import Memory, Settings
s = Settings(store={"data_dir": Path(sys.argv[1]), "embedding_dim": 64}, embedder={"provider": "hashing", "dim": 64})
with Memory(s) as m:
    if sys.argv[2] == "write":
        m.add("the embedded server keeps this across processes", user_id="p")
    print(len(m.get_all(user_id="p")))
"""


def test_embedded_server_persists_across_processes(tmp_path: Path) -> None:
    data_dir = tmp_path / "pgdata"
    first = subprocess.run([sys.executable, "-c", SCRIPT, str(data_dir), "write"], capture_output=True, text=True,
                           timeout=120)
    assert first.returncode == 0, first.stderr
    assert first.stdout.strip() == "1"
    assert (data_dir / "PG_VERSION").exists()
    second = subprocess.run([sys.executable, "-c", SCRIPT, str(data_dir), "read"], capture_output=True, text=True,
                            timeout=120)
    assert second.returncode == 0, second.stderr
    assert second.stdout.strip() == "1"
    assert not (data_dir / "postmaster.pid").exists()  # the last process stopped it cleanly
    assert stop_embedded(data_dir) is False


def test_unreachable_url_is_a_clear_error() -> None:
    settings = Settings(store={"database_url": "postgresql://nobody@127.0.0.1:1/none", "connect_timeout_s": 2},
                        embedder={"provider": "hashing", "dim": 384})
    with pytest.raises(DatabaseUnavailableError, match=r"cannot reach PostgreSQL at postgresql://nobody@127\.0\.0\.1:1"):
        Memory(settings)
