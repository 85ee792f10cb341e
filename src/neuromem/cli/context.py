"""What every command shares: settings from the environment, one Memory, typed errors → messages."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from typing import Any, TypeVar

import click

from ..config import Settings
from ..errors import NeuromemError

F = TypeVar("F", bound=Callable[..., Any])

user_option = click.option("--user-id", "-u", required=True, help="Whose memory.")
"""The one ``--user-id / -u`` option every per-user command takes."""


def load_settings() -> Settings:
    """Settings are read once, here, at the edge (STYLE.md habit 14)."""
    return Settings.from_env()


def open_memory():  # type: ignore[no-untyped-def]
    from ..memory import Memory

    return Memory(load_settings())


def friendly_errors(func: F) -> F:
    """Turn neuromem's typed errors into one readable line and exit code 2 (1 for server trouble)."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except NeuromemError as exc:
            click.secho(f"error: {type(exc).__name__}: {exc}", fg="red", err=True)
            sys.exit(2 if exc.http_status < 500 else 1)

    return wrapper  # type: ignore[return-value]
