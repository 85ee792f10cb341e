"""Databases on the test cluster (``NEUROMEM_TEST_CLUSTER_URL``, started by ``make test-cluster``).

A Citus database spans every node, so the single node's trick — clone a migrated template per
test — does not apply (a template copies the coordinator's metadata, not the workers' shards).
Instead each test process keeps a pool of migrated, distributed databases per embedding dimension
and empties one's tables before handing it to the next test: the same clean state, in a fraction of
the time a new distributed database takes. A test that needs an empty database gets a new one.

A pooled database is leased to the pytest scope that asked for it (``lease_scope``, entered by
autouse fixtures in tests/conftest.py) and goes back to the pool only when that scope ends: a
module's service keeps its database while the module's tests ask for databases of their own
(handing it out again would empty it under the live service — its API keys too).
"""

from __future__ import annotations

import contextlib
import itertools
import os
from collections.abc import Iterator
from urllib.parse import urlsplit

import psycopg

from neuromem import Settings
from neuromem.store import migrate

CLUSTER_URL_ENV = "NEUROMEM_TEST_CLUSTER_URL"
# the schema's version, the data's dimension, the scope-signing key (migration 0017)
_KEEP = ("neuromem_migrations", "neuromem_meta", "neuromem_scope_key")
_TABLES = """
    SELECT c.relname FROM pg_class c
    WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p') AND NOT c.relispartition
      AND NOT (c.relname = ANY(%s))
      AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = c.oid AND d.deptype = 'e')"""
_REFERENCES = """SELECT conrelid::regclass::text, confrelid::regclass::text FROM pg_constraint
    WHERE contype = 'f' AND connamespace = 'public'::regnamespace AND conparentid = 0"""
_counter = itertools.count()
_free: dict[int, list[tuple[str, str]]] = {}  # dimension → pooled (URL, schema fingerprint) not leased
_leases: list[list[tuple[int, str, str]]] = []  # open scopes, innermost last: (dimension, URL, fingerprint)
_SCHEMA_FINGERPRINT = """SELECT md5(string_agg(c.relname || '.' || a.attname, ',' ORDER BY c.relname, a.attnum))
    FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
    WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p', 'v', 'm')"""
_created: list[str] = []


def cluster_url() -> str | None:
    return os.environ.get(CLUSTER_URL_ENV) or None


def coordinator_port(url: str) -> int:
    return urlsplit(url).port or 5432


def empty_database(url: str) -> str:
    """A new database on every node, Citus set up in it, nothing else; returns its URL."""
    from deploy.citus import cluster  # the repository's cluster script, needed only in cluster runs

    name = f"c_{os.getpid()}_{next(_counter)}"
    _created.append(name)
    return cluster.create_database(coordinator_port(url), name)


def drop_created(url: str) -> None:
    """At the end of the session: drop this process's databases (each holds a background worker per node)."""
    from deploy.citus import cluster

    while _created:
        cluster.drop_database(coordinator_port(url), _created.pop())
    _free.clear()


@contextlib.contextmanager
def lease_scope() -> Iterator[None]:
    """The databases ``migrated_database`` hands out inside this block return to the pool at its end."""
    leased: list[tuple[int, str, str]] = []
    _leases.append(leased)
    try:
        yield
    finally:
        _leases.remove(leased)
        for dim, db_url, fingerprint in leased:
            _free.setdefault(dim, []).append((db_url, fingerprint))


def migrated_database(url: str, settings: Settings) -> str:
    """A migrated database of ``settings``' dimension that no open scope holds, emptied of every row —
    or a new one when none is free or a test changed the free one's schema (the outage tests rename
    tables and columns)."""
    dim = settings.store.embedding_dim
    pool = _free.setdefault(dim, [])
    while pool:
        db_url, fingerprint = pool.pop()
        if _fingerprint(db_url) == fingerprint:
            truncate_all(db_url)
            return _lease(dim, db_url, fingerprint)
    from deploy.citus import cluster

    db_url = empty_database(url)
    # the migration grants to the service role, which Citus then writes on every node
    with cluster.role_writes(coordinator_port(url)), psycopg.connect(db_url, autocommit=True) as conn:
        migrate.migrate(conn, settings)
    return _lease(dim, db_url, _fingerprint(db_url))


def _lease(dim: int, db_url: str, fingerprint: str) -> str:
    if _leases:  # outside every scope (a script), the database is simply never pooled again
        _leases[-1].append((dim, db_url, fingerprint))
    return db_url


def _fingerprint(db_url: str) -> str:
    with psycopg.connect(db_url) as conn:
        row = conn.execute(_SCHEMA_FINGERPRINT).fetchone()
    return str(row[0]) if row else ""


def truncate_all(db_url: str) -> None:
    """Delete every row (but the schema's version and dimension) in one transaction: on a cluster
    DELETE of nearly empty shards is several times faster than TRUNCATE, which swaps every shard's
    files. Referencing tables go first."""
    with psycopg.connect(db_url, autocommit=True) as conn, conn.transaction():
        conn.execute("SET LOCAL lock_timeout = '20s'")
        tables = [r[0] for r in conn.execute(_TABLES, (list(_KEEP),)).fetchall()]
        edges = conn.execute(_REFERENCES).fetchall()
        for table in _children_first(tables, edges):
            conn.execute(f'DELETE FROM "{table}"')
        # a test may record a future schema version (tests/store/test_migrations.py does)
        conn.execute("DELETE FROM neuromem_migrations WHERE version > %s", (migrate.latest_version(),))


def _children_first(tables: list[str], edges: list[tuple[str, str]]) -> list[str]:
    ordered: list[str] = []
    pending = set(tables)
    while pending:
        ready = sorted(t for t in pending if not any(p == t and c in pending and c != t for c, p in edges))
        ready = ready or sorted(pending)  # a cycle: let the database say so
        ordered.extend(ready)
        pending -= set(ready)
    return ordered
