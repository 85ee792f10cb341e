"""Running the service: uvicorn with graceful shutdown, and the ``serve.json`` handshake file.

``serve.json`` (mode 0600, next to the embedded data directory) tells local tools — the
``memctl`` client commands — where the service listens and which key to use:
``{"url": "http://127.0.0.1:PORT", "pid": N, "token": "nmk_…"}``. The token is an admin
key of the ``default`` tenant created for this run and revoked when the service stops;
the file is removed on exit. It is written only when the database is the embedded one
(a shared external database has operators who create keys with ``memctl keys create``).
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import uvicorn

from ..config import Settings
from ..memory import Memory
from .app import create_app
from .keys import KeyScope, KeyStore
from .tenancy import DEFAULT_TENANT


class GracefulServer(uvicorn.Server):
    """uvicorn that returns after a graceful shutdown on SIGINT/SIGTERM instead of re-raising the
    signal, so that ``serve`` can remove serve.json, revoke its key and close the pool."""

    @contextmanager
    def capture_signals(self) -> Iterator[None]:
        with super().capture_signals():
            try:
                yield
            finally:
                self._captured_signals.clear()


def serve_file(settings: Settings) -> Path:
    return Path(settings.store.data_dir).expanduser().parent / "serve.json"


def uvicorn_config(app: Any, settings: Settings, *, port: int | None = None, log_config: bool = False) -> uvicorn.Config:
    s = settings.service
    return uvicorn.Config(
        app, host=s.host, port=s.port if port is None else port, lifespan="on", access_log=False,
        timeout_graceful_shutdown=s.graceful_shutdown_s, timeout_keep_alive=5, server_header=False,  # type: ignore[arg-type]  # a float timeout works
        log_config=None if not log_config else uvicorn.config.LOGGING_CONFIG,
    )  # fmt: skip


class ServiceServer:
    """uvicorn in a background thread (tests, benchmarks): ``with ServiceServer(memory) as url: ...``."""

    def __init__(self, memory: Memory, settings: Settings | None = None, **app_options: object) -> None:
        self.settings = settings or memory.settings
        self.app = create_app(memory, self.settings, **app_options)  # type: ignore[arg-type]
        self.server = uvicorn.Server(uvicorn_config(self.app, self.settings, port=0))
        self.server.install_signal_handlers = lambda: None  # type: ignore[attr-defined]
        self._thread = threading.Thread(target=self.server.run, name="neuromem-service", daemon=True)

    def __enter__(self) -> str:
        self._thread.start()
        while not self.server.started:
            if not self._thread.is_alive():
                raise RuntimeError("the service failed to start")
            self._thread.join(0.02)
        port = self.server.servers[0].sockets[0].getsockname()[1]
        return f"http://{self.settings.service.host}:{port}"

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self._thread.join(30)


@contextmanager
def handshake(memory: Memory, settings: Settings, url: str, *, enabled: bool | None = None) -> Iterator[Path | None]:
    """Write ``serve.json`` with a fresh local admin key for the run; revoke and remove it afterwards.

    ``enabled`` defaults to "the database is the embedded one"."""
    if not (memory._core.db.server.embedded if enabled is None else enabled):
        yield None
        return
    keys = KeyStore(memory._core.db)
    key, token = keys.create(DEFAULT_TENANT, KeyScope.ADMIN, name="memctl serve (local handshake)")
    path = serve_file(settings)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        json.dump({"url": url, "pid": os.getpid(), "token": token}, f)
    os.chmod(path, 0o600)
    try:
        yield path
    finally:
        path.unlink(missing_ok=True)
        keys.revoke(key.id)


def serve(settings: Settings) -> None:
    """``memctl serve``: the app on ``service.host:port`` until SIGINT/SIGTERM (graceful)."""
    from . import logs

    logs.configure(settings.service.log_json)
    with Memory(settings) as memory:
        # requests log in as neuromem_service (issue 23 item 6): a login it refuses stops the start here,
        # with the setting to fix named, rather than failing the first request
        memory._core.db.service_pool()
        app = create_app(memory, settings)
        server = GracefulServer(uvicorn_config(app, settings))
        config = server.config
        if not config.loaded:
            config.load()
        sockets = [config.bind_socket()]
        port = sockets[0].getsockname()[1]
        host = "127.0.0.1" if settings.service.host in ("0.0.0.0", "::", "") else settings.service.host
        with handshake(memory, settings, f"http://{host}:{port}"):
            server.run(sockets=sockets)
