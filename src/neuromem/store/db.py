"""The connection pool and transactions: the store's single door to PostgreSQL."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
from psycopg import sql
from psycopg.rows import DictRow, dict_row
from psycopg_pool import ConnectionPool, PoolTimeout

from .. import deadlines
from ..config import Settings, mask_url, scrub
from ..errors import DatabaseUnavailableError, StoreError
from . import migrate, scope
from .db_errors import map_db_error
from .server import ServerInfo, resolve_server, service_url

# session settings of every pooled connection (``Database.open``); SET takes no parameters
SET_EF_SEARCH = sql.SQL("SET hnsw.ef_search = {}")
SET_ITERATIVE_SCAN = "SET hnsw.iterative_scan = relaxed_order"
SET_JIT_OFF = "SET jit = off"
SET_STATEMENT_LIMITS = (
    "SELECT set_config('statement_timeout', %s, false), set_config('lock_timeout', %s, false)"
)
WAIT_INTERVAL_S = 0.1  # psycopg's own: how often a wait wakes up to notice Ctrl-C

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
        with translated_errors(), pool.connection(timeout=self._checkout_timeout()) as conn:
            self._limit_statements(conn)
            with conn.transaction():
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
        with translated_errors(), pool.connection(timeout=self._checkout_timeout()) as conn:
            self._limit_statements(conn)
            if pool is not self.pool:
                scope.apply(conn, self.scope_key())
            yield conn

    def _checkout_timeout(self) -> float:
        """How long to wait for a pooled connection: the pool's timeout, cut to the call's deadline."""
        left = deadlines.database_left()
        timeout = self.settings.store.connect_timeout_s
        if left is None:
            return timeout
        if left <= 0:
            raise deadline_passed()
        return min(timeout, left)

    def _limit_statements(self, conn: Conn) -> None:
        """``statement_timeout`` and ``lock_timeout`` of the session = the deadline of the call
        (``store.deadline_s``; ``store.bulk_deadline_s`` outside a public call, ``memory.BULK_CALLS``), so the
        server stops a statement the caller has given up on. Set, and committed, only when the connection's
        last call had another deadline: most checkouts cost no round trip."""
        call = deadlines.current()
        ms = max(1, int((self.settings.store.bulk_deadline_s if call is None else call.database_s) * 1000))
        if getattr(conn, "statement_limit_ms", None) == ms:
            return
        conn.execute(SET_STATEMENT_LIMITS, (str(ms), str(ms)))
        conn.commit()
        conn.statement_limit_ms = ms  # type: ignore[attr-defined]  # a DeadlineConnection's attribute

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


def connection_limits(settings: Settings) -> dict[str, int]:
    """libpq options of every pooled connection: a connect timeout within the deadline, and TCP
    keepalives that notice a dead server (or network) after about two thirds of it."""
    deadline = settings.store.deadline_s
    return {
        "connect_timeout": max(2, int(min(settings.store.connect_timeout_s, deadline))),
        "keepalives": 1,
        "keepalives_idle": max(1, int(deadline / 3)),
        "keepalives_interval": max(1, int(deadline / 9)),
        "keepalives_count": 3,
    }


def deadline_passed() -> DatabaseUnavailableError:
    """The error of a call whose database work passed its deadline (or a background wait its own)."""
    call = deadlines.current()
    within = (
        "its deadline (store.bulk_deadline_s)"
        if call is None
        else f"the call's deadline ({call.database_s:g} s, store.deadline_s)"
    )
    return DatabaseUnavailableError(
        f"the database did not answer within {within}; it may be frozen or overloaded"
    )


def deadline_class(base: type[psycopg.Connection[Any]], background_s: float) -> type[psycopg.Connection[Any]]:
    """``base`` whose every wait for the server ends at the current public call's database deadline
    (``background_s`` per wait outside one). A wait cut short leaves the connection in an unknown
    state: it is closed (the pool drops it) and the call gets ``DatabaseUnavailableError`` — a
    frozen server cannot enforce its own ``statement_timeout``."""

    class DeadlineConnection(base):  # type: ignore[valid-type,misc]
        statement_limit_ms: int | None = (
            None  # the session's statement_timeout (``Database._limit_statements``)
        )

        def wait(self, gen: Any, interval: float = WAIT_INTERVAL_S, timeout: float | None = None) -> Any:
            left = deadlines.database_left()
            limit = background_s if left is None else left
            if timeout is not None:
                limit = min(limit, timeout)
            if limit <= 0:
                self.pgconn.finish()
                raise deadline_passed()
            end = time.monotonic() + limit
            try:
                return super().wait(gen, interval, limit)
            except psycopg.OperationalError:
                if timeout is None and time.monotonic() >= end:  # our limit, not the caller's timeout
                    self.pgconn.finish()
                    raise deadline_passed() from None
                raise

    return DeadlineConnection


#: Runs of one statement on one connection before psycopg prepares it (see ``_open_pool``)
PREPARE_AFTER_RUNS = 1


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
        # a statement is prepared on its second run, not its sixth (psycopg's default): the pool hands its
        # connections out in turn, so with five runs each a service's first ~40 requests planned every statement
        # again (about 10 ms more recall each, bench.proxy); not on the first, which tells psycopg whether the
        # text holds several statements (those are never prepared)
        conn.prepare_threshold = PREPARE_AFTER_RUNS
        # the id a scope's proof is bound to, read now: a scoped transaction then starts with no query, so it
        # can still choose its isolation (an export's snapshot, store.portable)
        scope.session_id(conn)
        conn.commit()

    pool: ConnectionPool[Conn] = ConnectionPool(
        url,
        min_size=settings.store.pool_min_size,
        max_size=settings.store.pool_max_size,
        kwargs={"row_factory": dict_row, **connection_limits(settings)},
        configure=configure,
        # the embedded server is revived if it died; every wait is cut to the call's deadline
        connection_class=deadline_class(server.connection_class(), settings.store.bulk_deadline_s),
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
