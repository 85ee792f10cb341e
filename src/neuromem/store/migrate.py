"""Versioned, idempotent migrations (STYLE.md habit 8).

Migrations are the ordered ``migrations/NNNN_name.sql`` files; ``schema.sql`` is the
same schema written from scratch, and a test proves both give the same catalog.
Placeholders are filled when a file runs: ``@EMBEDDING_DIM@`` from settings, the decay
rates of 0003's first trait view (replaced in 0013 by rates read at query time) from settings,
``@QUEUE_SCHEMA@`` with the schema of the installed procrastinate (the job queue). Applied versions are recorded in ``neuromem_migrations``;
``neuromem_meta`` keeps the embedding dimension the data was written with.
"""

from __future__ import annotations

import functools
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from typing import Any, TypeVar

import psycopg
from psycopg.rows import tuple_row

from ..config import Settings
from ..errors import EmbeddingDimensionError, ExtensionError, SchemaVersionError, StoreError
from . import distributed

MIN_SERVER_VERSION = 160000
MIN_PGVECTOR = (0, 7, 0)
_FILE = re.compile(r"^(\d{4})_(\w+)\.sql$")
_LOCK_KEY = 0x6E65_7572  # pg_advisory_xact_lock key: "neur"
LOCK_MIGRATIONS = "SELECT pg_advisory_xact_lock(%s)"
T = TypeVar("T")
# Citus writes the roles a database's objects need on every node when it distributes them or grants on
# them (ALTER ROLE even when nothing changes), and so does citus_add_node: two such writes of one role
# on one node at once fail ("tuple concurrently updated"; the coordinator may only say "failure on
# connection marked as essential"). Another database of the cluster being migrated or a node being
# added causes it, so a migration or the layout, each one transaction, is tried again a few times.
ROLE_RACE_ATTEMPTS = 4
ROLE_RACE_PAUSE_S = 0.5
_CONCURRENT_ROLE_WRITE = ("tuple concurrently updated", "failure on connection marked as essential")
RECORD_MIGRATION = "INSERT INTO neuromem_migrations (version, name) VALUES (%s, %s)"


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    name: str
    sql: str


def migrations() -> list[Migration]:
    """Every migration shipped with this version, in order."""
    found = []
    for entry in resources.files("neuromem.store.migrations").iterdir():
        match = _FILE.match(entry.name)
        if match:
            found.append(Migration(int(match.group(1)), match.group(2), entry.read_text("utf-8")))
    return sorted(found, key=lambda m: m.version)


def latest_version() -> int:
    return migrations()[-1].version


def render(sql: str, settings: Settings, *, queue: bool = True) -> str:
    """Fill the placeholders of a migration file; ``queue=False`` leaves out the queue's schema
    (the re-embed command replays files whose other statements it needs)."""
    t = settings.traits
    values = {
        "EMBEDDING_DIM": str(settings.store.embedding_dim),
        "LAMBDA_BEHAVIOR": repr(t.lambda_behavior),
        "LAMBDA_PREFERENCE": repr(t.lambda_preference),
        "LAMBDA_CORE": repr(t.lambda_core),
        "LAMBDA_DEFAULT": repr(t.lambda_default),
        "SPACING": repr(t.spacing_factor),
        "QUEUE_SCHEMA": queue_schema() if queue else "",
    }
    return re.sub(r"@([A-Z_]+)@", lambda m: values[m.group(1)], sql)


def queue_schema() -> str:
    """The tables, types and functions of the procrastinate job queue (``lifecycle.worker``)."""
    from procrastinate.schema import SchemaManager

    return str(SchemaManager.get_schema())


def schema_from_scratch_sql(settings: Settings) -> str:
    text = resources.files("neuromem.store").joinpath("schema.sql").read_text("utf-8")
    return render(text, settings)


AVAILABLE_PGVECTOR = "SELECT default_version FROM pg_available_extensions WHERE name = 'vector'"
INSTALLED_PGVECTOR = "SELECT extversion FROM pg_extension WHERE extname = 'vector'"


def check_server(conn: psycopg.Connection) -> None:
    """Refuse servers that are too old or lack pgvector, with a message that says what to do."""
    available = _scalar(conn, AVAILABLE_PGVECTOR)
    installed = _scalar(conn, INSTALLED_PGVECTOR)
    require_capable_server(
        conn.info.server_version,
        available=None if available is None else str(available),
        installed=None if installed is None else str(installed),
    )


_UPGRADE_HINT = "run ALTER EXTENSION vector UPDATE after upgrading the package"


def require_capable_server(server_version: int, *, available: str | None, installed: str | None) -> None:
    """The rule behind ``check_server``: PostgreSQL >= 16 and pgvector >= 0.7 (halfvec)."""
    if server_version < MIN_SERVER_VERSION:
        raise StoreError(f"PostgreSQL {server_version // 10000} is too old: neuromem needs PostgreSQL >= 16")
    if available is None and installed is None:
        raise ExtensionError(
            "the pgvector extension is not available on this server: install pgvector >= 0.7 "
            "(https://github.com/pgvector/pgvector) or use the embedded default (unset NEUROMEM_DATABASE_URL)"
        )
    have = installed or available or "0"
    if _version_tuple(have) < MIN_PGVECTOR:
        raise ExtensionError(
            f"pgvector {have} is too old: neuromem needs pgvector >= 0.7 (halfvec); {_UPGRADE_HINT}"
        )


def _version_tuple(text: str) -> tuple[int, ...]:
    return tuple(int(p) for p in re.findall(r"\d+", text)[:3])


def migrate(conn: psycopg.Connection, settings: Settings, *, target: int | None = None) -> list[int]:
    """Apply every pending migration, each in its own transaction. Returns the versions applied.

    Safe to call from several processes at once: an advisory lock serialises them.
    """
    check_server(conn)
    applied: list[int] = []
    goal = latest_version() if target is None else target
    for migration in migrations():
        if migration.version > goal:
            break
        if _retrying_role_races(conn, functools.partial(_apply, conn, migration, settings)):
            applied.append(migration.version)
    with conn.transaction():
        conn.execute(LOCK_MIGRATIONS, (_LOCK_KEY,))
        check_schema(conn, settings)
    lay_out_for_cluster(conn)
    return applied


def lay_out_for_cluster(conn: psycopg.Connection) -> distributed.Layout | None:
    """On a Citus coordinator (the ``citus`` extension is installed), distribute the schema
    (``store.distributed``); on a single node, nothing. Idempotent, like the migrations."""
    if not distributed.has_citus(conn):
        return None
    return _retrying_role_races(conn, lambda: distributed.lay_out(conn))


def _apply(conn: psycopg.Connection, migration: Migration, settings: Settings) -> bool:
    """Apply one migration unless it already ran (inside the caller's transaction); True if it ran."""
    _bootstrap(conn)
    if migration.version <= current_version(conn):
        return False
    script = render(migration.sql, settings)
    conn.execute(script)
    conn.execute(RECORD_MIGRATION, (migration.version, migration.name))
    return True


def _retrying_role_races(conn: psycopg.Connection, step: Callable[[], T]) -> T:
    """``step`` in one transaction holding the migrations' lock; tried again when it lost a race of
    role writes on a Citus cluster (``_CONCURRENT_ROLE_WRITE``), which cannot happen on one node."""
    for attempt in range(1, ROLE_RACE_ATTEMPTS + 1):
        try:
            with conn.transaction():
                conn.execute(LOCK_MIGRATIONS, (_LOCK_KEY,))
                return step()
        except psycopg.errors.InternalError_ as exc:
            if attempt == ROLE_RACE_ATTEMPTS or not any(s in str(exc) for s in _CONCURRENT_ROLE_WRITE):
                raise
            time.sleep(ROLE_RACE_PAUSE_S * attempt)
    raise AssertionError("unreachable: the last attempt returns or raises")


def create_from_scratch(conn: psycopg.Connection, settings: Settings) -> None:
    """Create the whole schema from ``schema.sql`` (used by tests and fresh installs alike)."""
    check_server(conn)
    with conn.transaction():
        _bootstrap(conn)
        script = schema_from_scratch_sql(settings)
        conn.execute(script)
        for migration in migrations():
            conn.execute(RECORD_MIGRATION, (migration.version, migration.name))
        check_schema(conn, settings)
    lay_out_for_cluster(conn)


CREATE_VECTOR_EXTENSION = "CREATE EXTENSION IF NOT EXISTS vector"
# the tables of the migrations themselves: which versions ran, and the embedding dimension of the data
CREATE_BOOKKEEPING = """
        CREATE TABLE IF NOT EXISTS neuromem_migrations (
            version    INTEGER PRIMARY KEY,
            name       TEXT NOT NULL,
            applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
        );
        CREATE TABLE IF NOT EXISTS neuromem_meta (
            key   TEXT PRIMARY KEY,
            value TEXT NOT NULL
        );
        """


def _bootstrap(conn: psycopg.Connection) -> None:
    conn.execute(CREATE_VECTOR_EXTENSION)
    conn.execute(CREATE_BOOKKEEPING)


def _scalar(conn: psycopg.Connection[Any], query: str, params: tuple[Any, ...] = ()) -> Any:
    """First column of the first row (or None), whatever row factory the connection uses."""
    with conn.cursor(row_factory=tuple_row) as cur:
        row = cur.execute(query, params).fetchone()  # type: ignore[arg-type]
    return None if row is None else row[0]


CURRENT_VERSION = "SELECT coalesce(max(version), 0) FROM neuromem_migrations"
RECORDED_VERSIONS = "SELECT version FROM neuromem_migrations"
STORED_DIM = "SELECT value FROM neuromem_meta WHERE key = 'embedding_dim'"
RECORD_FIRST_DIM = "INSERT INTO neuromem_meta (key, value) VALUES ('embedding_dim', %s)"


def _column(conn: psycopg.Connection[Any], query: str) -> list[Any]:
    """The first column of every row, whatever row factory the connection uses."""
    with conn.cursor(row_factory=tuple_row) as cur:
        return [row[0] for row in cur.execute(query).fetchall()]  # type: ignore[arg-type]


def current_version(conn: psycopg.Connection[Any]) -> int:
    return int(_scalar(conn, CURRENT_VERSION) or 0)


def check_schema(conn: psycopg.Connection, settings: Settings) -> None:
    """Refuse a database written by a newer neuromem, or with another embedding dimension."""
    version = current_version(conn)
    if version > latest_version():
        raise SchemaVersionError(
            f"the database schema is version {version}, newer than this neuromem understands "
            f"({latest_version()}): upgrade neuromem (pip install -U neuromem)"
        )
    recorded = {int(v) for v in _column(conn, RECORDED_VERSIONS)}
    skipped = [m.version for m in migrations() if m.version < version and m.version not in recorded]
    if skipped:  # migrations run in order: one older than the newest applied would never run now
        where = settings.store.data_dir if settings.store.database_url is None else "the configured database"
        raise SchemaVersionError(
            f"the database schema is version {version} but misses migration(s) {skipped}: a development "
            f"build of neuromem made it with its migrations in another order, and they cannot run out of "
            f"order. Start a new database (move {where} aside, or set NEUROMEM_STORE__DATA_DIR)"
        )
    stored_text = _scalar(conn, STORED_DIM)
    wanted = settings.store.embedding_dim
    if stored_text is None:
        conn.execute(RECORD_FIRST_DIM, (str(wanted),))
        return
    stored = int(stored_text)  # type: ignore[call-overload]
    if stored != wanted:
        raise EmbeddingDimensionError(
            f"the database holds {stored}-d embeddings but the configured dimension is {wanted}. "
            f"Either configure NEUROMEM_EMBEDDING_DIM={stored}, or re-embed every memory with "
            f"`memctl reembed --dim {wanted}`"
        )
