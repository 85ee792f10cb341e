"""``memctl worker`` says what it runs (issue 22 item 9): the jobs and their schedules when it
starts, then one line per job run."""

from __future__ import annotations

import os
import selectors
import signal
import subprocess
import sys
import time
from pathlib import Path

from neuromem import Memory, Settings
from neuromem.lifecycle.jobs import JobContext
from neuromem.lifecycle.worker import build_app, defer

ROOT = Path(__file__).resolve().parents[2]


def test_worker_lists_its_jobs_then_reports_each_run(memory: Memory, settings: Settings) -> None:
    app = build_app(
        JobContext(memory.runtime, memory._reflection, memory._ingest), memory.runtime.db.server.url
    )
    with app.open():
        assert defer(app, "consistency_check") is not None  # queued: the worker runs it at once
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT)]),
        "NEUROMEM_DATABASE_URL": settings.store.database_url.get_secret_value(),  # type: ignore[union-attr]
        "NEUROMEM_EMBEDDER": "hashing",
        "NEUROMEM_EMBEDDER__DIM": "64",
        "NEUROMEM_EMBEDDING_DIM": "64",
    }
    proc = subprocess.Popen(
        [sys.executable, "-m", "neuromem.cli.main", "worker"],
        env=env,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    seen: list[str] = []
    try:
        with selectors.DefaultSelector() as sel:
            sel.register(proc.stdout, selectors.EVENT_READ)  # type: ignore[arg-type]
            deadline = time.monotonic() + 90
            while not any("job consistency_check" in line for line in seen) and time.monotonic() < deadline:
                if sel.select(timeout=1) and (line := proc.stdout.readline()):  # type: ignore[union-attr]
                    seen.append(line)
                assert proc.poll() is None, "".join(seen)
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(30)
    text = "".join(seen)
    assert (
        seen[0].startswith("worker: ") and "jobs on their schedules" in seen[0] and "Ctrl-C stops" in seen[0]
    ), text
    assert "  reflection_sweep " in text and "40 * * * *" in text
    assert any("job consistency_check (clock " in line for line in seen), text
