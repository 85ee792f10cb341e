"""Running the service: uvicorn with graceful shutdown, and the ``serve.json`` handshake file.

``serve.json`` (mode 0600, next to the embedded data directory) tells local tools — the
``memctl`` client commands — where the service listens and which key to use:
``{"url": "http://127.0.0.1:PORT", "pid": N, "token": "nmk_…"}``. The token is an admin
key of the ``default`` tenant created for this run and deleted when the service stops (a
crashed run's key is deleted by the next); the file is written once the embedder is warm
and removed on exit. It is written only when the database is the embedded one (a shared
external database has operators who create keys with ``memctl keys create``).

A service started by a command (``memctl serve --auto``, issue 22 item 2) listens on any free
port and stops after ``service.idle_shutdown_s`` seconds without a request; ``serve.lock``
beside ``serve.json`` keeps one service per data directory.
"""

from __future__ import annotations

import fcntl
import gc
import json
import os
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext, suppress
from pathlib import Path
from typing import Any

import uvicorn

from ...config import Settings
from ...env_names import service_files
from ...errors import ConflictError
from ...memory import Memory
from ...store.tenancy import DEFAULT_TENANT
from .app import create_app
from .keys import KeyScope, KeyStore

HANDSHAKE_KEY = "memctl serve (local handshake)"


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
    return service_files(settings.store.data_dir).info


def lock_file(settings: Settings) -> Path:
    return service_files(settings.store.data_dir).lock


def uvicorn_config(
    app: Any, settings: Settings, *, port: int | None = None, log_config: bool = False
) -> uvicorn.Config:
    s = settings.service
    return uvicorn.Config(
        app,
        host=s.host,
        port=s.port if port is None else port,
        lifespan="on",
        access_log=False,
        timeout_graceful_shutdown=s.graceful_shutdown_s,  # type: ignore[arg-type]  # a float timeout works
        timeout_keep_alive=5,
        server_header=False,
        log_config=None if not log_config else uvicorn.config.LOGGING_CONFIG,
    )


def listening_socket(config: uvicorn.Config) -> socket.socket:
    """The service's bound socket, with ``TCP_NODELAY`` on (Linux hands it down to every accepted
    connection). uvicorn given a socket of its own leaves Nagle's algorithm on: a keep-alive client
    then waits for its delayed ACK — about 40 ms — before the body of every response after the first."""
    sock = config.bind_socket()
    if sock.family in (socket.AF_INET, socket.AF_INET6):
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return sock


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
def handshake(
    memory: Memory, settings: Settings, url: str, *, enabled: bool | None = None
) -> Iterator[Path | None]:
    """Write ``serve.json`` with a fresh local admin key for the run; delete the key and the file afterwards.

    ``enabled`` defaults to "the database is the embedded one"."""
    if not (memory.runtime.db.server.embedded if enabled is None else enabled):
        yield None
        return
    keys = KeyStore(memory.runtime.db)
    keys.delete_named(DEFAULT_TENANT, HANDSHAKE_KEY)  # a crashed run's key: one service per data directory
    key, token = keys.create(DEFAULT_TENANT, KeyScope.ADMIN, name=HANDSHAKE_KEY)
    path = serve_file(settings)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        json.dump({"url": url, "pid": os.getpid(), "token": token}, f)
    os.chmod(path, 0o600)
    try:
        yield path
    finally:
        path.unlink(missing_ok=True)
        keys.delete_named(DEFAULT_TENANT, key.name)


class ServiceBusy(ConflictError):
    """Another service already runs for this data directory."""


@contextmanager
def single_service(settings: Settings, *, auto: bool) -> Iterator[None]:
    """Hold ``serve.lock`` for the run: one service per embedded data directory. An explicit
    ``memctl serve`` asks a service a command started (``auto``) to stop and takes its place."""
    path = lock_file(settings)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                holder = _lock_holder(path)
                if auto or not holder.get("auto") or time.monotonic() > deadline:
                    raise ServiceBusy(
                        f"a neuromem service already runs for {settings.store.data_dir} "
                        f"(pid {holder.get('pid', '?')})"
                    ) from None
                _terminate(int(holder.get("pid", 0)))
                time.sleep(0.2)
        os.ftruncate(fd, 0)
        os.write(fd, json.dumps({"pid": os.getpid(), "auto": auto}).encode())
        yield
    finally:
        os.close(fd)  # releases the lock


def _lock_holder(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _terminate(pid: int) -> None:
    if pid > 0 and pid != os.getpid():
        with suppress(OSError):
            os.kill(pid, 15)


class IdleWatch:
    """ASGI wrapper that counts requests and stops ``server`` after ``idle_s`` without one."""

    def __init__(self, app: Any, idle_s: float | None) -> None:
        self.app, self.idle_s = app, idle_s
        self.in_flight, self.last = 0, time.monotonic()

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        self.in_flight += 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.in_flight -= 1
            self.last = time.monotonic()

    def watch(self, server: uvicorn.Server) -> None:
        if self.idle_s is None:
            return
        idle_s, self.last = self.idle_s, time.monotonic()

        def run() -> None:
            while not server.should_exit:
                time.sleep(min(1.0, idle_s / 4))
                if self.in_flight == 0 and time.monotonic() - self.last > idle_s:
                    server.should_exit = True

        threading.Thread(target=run, name="neuromem-idle-watch", daemon=True).start()


def banner(url: str, app: Any, seconds: float, idle_s: float | None) -> str:
    """The one line ``memctl serve`` prints once it is ready."""
    parts = [f"{name} {url}{path}" for name, path in app.state.pages.items()]
    idle = f"; stops after {idle_s:g} s idle" if idle_s is not None else ""
    return f"neuromem ready in {seconds:.1f} s: " + " · ".join(parts) + idle


def serve(settings: Settings, *, auto: bool = False, echo: Callable[[str], None] | None = None) -> None:
    """``memctl serve``: the app on ``service.host:port`` until SIGINT/SIGTERM (graceful). The embedder
    is loaded and warmed before ``/readyz`` says ready and ``serve.json`` is written; then one banner
    line with the URLs. ``auto`` (a service a command started): any free port of 127.0.0.1, and it stops after
    ``service.idle_shutdown_s`` seconds without a request."""
    from . import logs

    started = time.monotonic()
    say = echo or (lambda line: print(line, flush=True))
    if auto:  # for this machine's commands only
        settings = settings.with_updates(service={"host": "127.0.0.1", "port": 0})
    idle_s = settings.service.idle_shutdown_s if auto else None
    logs.configure(settings.service.log_json)
    embedded = not settings.store.database_url
    with single_service(settings, auto=auto) if embedded else nullcontext(), Memory(settings) as memory:
        # requests log in as neuromem_service (issue 23 item 6): a login it refuses stops the start here,
        # with the setting to fix named, rather than failing the first request
        memory.runtime.db.service_pool()
        app = create_app(memory, settings)
        watch = IdleWatch(app, idle_s)
        server = GracefulServer(uvicorn_config(watch, settings))
        config = server.config
        if not config.loaded:
            config.load()
        sockets = [listening_socket(config)]
        port = sockets[0].getsockname()[1]
        host = "127.0.0.1" if settings.service.host in ("0.0.0.0", "::", "") else settings.service.host
        url = f"http://{host}:{port}"
        publication = _Publication(memory, settings, url)

        def when_ready() -> None:
            app.state.ready.wait()
            freeze_startup_heap()
            if publication.publish():
                say(banner(url, app, time.monotonic() - started, idle_s))
                watch.watch(server)  # the idle clock starts once the service is ready

        threading.Thread(target=when_ready, name="neuromem-ready", daemon=True).start()
        try:
            server.run(sockets=sockets)
        finally:
            publication.close()


def freeze_startup_heap() -> None:
    """Exempt what a started service holds for good — modules, the model, pools — from the cyclic
    garbage collector (``gc.freeze``). Left in the collected heap, those ~270,000 objects made each full
    collection take 130–155 ms, a stall of whichever request was running (about one in 340
    ``recall_prompt`` calls); frozen, a full collection takes about 1 ms. ``memctl serve`` only: a library
    does not change its host's collector."""
    gc.collect()
    gc.freeze()


class _Publication:
    """``handshake`` entered from the ready thread and left by the main one, whichever comes first."""

    def __init__(self, memory: Memory, settings: Settings, url: str) -> None:
        self._context = handshake(memory, settings, url)
        self._lock = threading.Lock()
        self._entered = self._closed = False

    def publish(self) -> bool:
        with self._lock:
            if self._closed:
                return False
            self._context.__enter__()
            self._entered = True
            return True

    def close(self) -> None:
        with self._lock:
            self._closed = True
            if self._entered:
                self._context.__exit__(None, None, None)
