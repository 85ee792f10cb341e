"""The connection pool and transactions: the store's single door to PostgreSQL."""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager

import psycopg
from psycopg import sql
from psycopg.rows import DictRow, dict_row
from psycopg_pool import ConnectionPool, PoolTimeout

from ..config import Settings, mask_url, scrub
from ..errors import DatabaseUnavailableError, StoreError
from . import migrate, scope
from .db_errors import map_db_error
from .server import ServerInfo, resolve_server, service_url

# session settings of every pooled connection (``Database.open``); SET takes no parameters
SET_EF_SEARCH = sql.SQL("SET hnsw.ef_search = {}")
SET_ITERATIVE_SCAN = "SET hnsw.iterative_scan = relaxed_order"
SET_JIT_OFF = "SET jit = off"

log = logging.getLogger(__name__)

Conn = psycopg.Connection[DictRow]
"""A pooled connection: rows come back as dicts (``dict_row``)."""


class Database:
    """A pool of connections to one neuromem database, migrated on open.

    >>> db = Database.open(Settings())          # doctest: +SKIP
    >>> with db.transaction() as conn: ...      # doctest: +SKIP
    """

    def __init__(self, settings: Settings, server: ServerInfo, pool: ConnectionPool[Conn]) -> None:
        self.settings = settings
        self.server = server
        self.pool = pool
        self.dim = settings.store.embedding_dim
        self._service: ConnectionPool[Conn] | None = None
        self._service_lock = threading.Lock()
        self._scope_key: bytes | None = None

    @classmethod
    def open(cls, settings: Settings, *, run_migrations: bool = True) -> Database:
        server = resolve_server(settings.store)
        _check_reachable(server.url, settings)
        if run_migrations:
            with translated_errors(), psycopg.connect(server.url, autocommit=True) as conn:
                migrate.migrate(conn, settings)
        return cls(settings, server, _open_pool(server.url, settings, server, name="neuromem"))

    def service_pool(self) -> ConnectionPool[Conn]:
        """The pool of the service role's logins (``scope.SERVICE_ROLE``), opened on first use."""
        with self._service_lock:
            if self._service is None:
                url = service_url(self.server.url, self.settings.store.service_database_url)
                try:
                    self._service = _open_pool(url, self.settings, self.server, name="neuromem-service")
                except DatabaseUnavailableError as exc:
                    raise DatabaseUnavailableError(
                        f"the service role {scope.SERVICE_ROLE} cannot log in ({exc}); set "
                        "NEUROMEM_STORE__SERVICE_DATABASE_URL to its login (docs/operations.md)"
                    ) from exc
            return self._service

    def scope_key(self) -> bytes:
        """The secret that signs request scopes (migration 0017), read once as the owner."""
        if self._scope_key is None:
            with translated_errors(), self.pool.connection() as conn:
                row = conn.execute(scope.READ_SCOPE_KEY).fetchone()
            if row is None:
                raise StoreError("neuromem_scope_key is empty: the database was not migrated by neuromem")
            self._scope_key = bytes(row["key"])
        return self._scope_key

    def _pool_of_scope(self) -> ConnectionPool[Conn]:
        return self.pool if scope.current() is None else self.service_pool()

    @contextmanager
    def transaction(self) -> Iterator[Conn]:
        """A connection inside one transaction: commit on success, roll back on error.
        Database failures leave as typed neuromem errors (``db_errors.map_db_error``)."""
        pool = self._pool_of_scope()  # a service request: the service role's login, its user signed
        with translated_errors(), pool.connection() as conn, conn.transaction():
            if pool is not self.pool:
                scope.apply(conn, self.scope_key())
            yield conn

    @contextmanager
    def connection(self) -> Iterator[Conn]:
        """A connection in autocommit-like use (each statement its own transaction).

        Under a service request's scope the block is one transaction instead, on the service
        role's login, so that its signed user holds for every statement (``neuromem.store.scope``).
        """
        pool = self._pool_of_scope()
        with translated_errors(), pool.connection() as conn:
            if pool is not self.pool:
                scope.apply(conn, self.scope_key())
            yield conn

    def close(self) -> None:
        if self._service is not None:
            self._service.close()
        self.pool.close()


@contextmanager
def translated_errors() -> Iterator[None]:
    """Re-raise psycopg and pool errors of the block as neuromem's typed errors."""
    try:
        yield
    except Exception as exc:
        mapped = map_db_error(exc)
        if mapped is None or mapped is exc:
            raise
        raise mapped from exc


def _open_pool(url: str, settings: Settings, server: ServerInfo, *, name: str) -> ConnectionPool[Conn]:
    ef_search = settings.store.hnsw_ef_search

    def configure(conn: Conn) -> None:
        # iterative scans: per-user filters never silently return fewer rows (pgvector 0.8)
        conn.execute(SET_EF_SEARCH.format(sql.Literal(int(ef_search))))
        conn.execute(SET_ITERATIVE_SCAN)
        # JIT compiles a query whose estimated cost passes jit_above_cost: for the short
        # statements of recall that is pure overhead (BM25 over 100k rows of one user:
        # 140 → 122 ms p50, 219 → 183 ms p95 with it off)
        conn.execute(SET_JIT_OFF)
        conn.commit()

    pool: ConnectionPool[Conn] = ConnectionPool(
        url,
        min_size=settings.store.pool_min_size,
        max_size=settings.store.pool_max_size,
        kwargs={"row_factory": dict_row},
        configure=configure,
        connection_class=server.connection_class(),  # the embedded server is revived if it died
        check=ConnectionPool.check_connection if server.embedded else None,
        open=False,
        timeout=settings.store.connect_timeout_s,
        name=name,
    )
    try:
        pool.open(wait=True, timeout=settings.store.connect_timeout_s)
    except PoolTimeout as exc:
        pool.close()
        raise DatabaseUnavailableError(f"no connection to {mask_url(url)}: {scrub(str(exc), url)}") from exc
    return pool


def _check_reachable(url: str, settings: Settings) -> None:
    try:
        with psycopg.connect(url, connect_timeout=int(settings.store.connect_timeout_s)):
            pass
    except psycopg.OperationalError as exc:
        raise DatabaseUnavailableError(
            f"cannot reach PostgreSQL at {mask_url(url)}: {scrub(str(exc), url).strip()}"
        ) from exc

