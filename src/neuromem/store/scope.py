"""The request scope: which tenant's user a service request acts for, enforced by PostgreSQL.

The service binds a scope around each request (``bind``); every transaction the store
opens while it is bound runs on a connection that logged in as ``neuromem_service`` (no
superuser, no BYPASSRLS: ``store.db.Database`` keeps a second pool for it) and starts by
setting the scoped user in ``neuromem.user_id`` with a proof (``set_config(..., true)``), so
the row-level security policies decide which rows exist — a query that forgets its
``user_id = %s`` predicate still sees only that user's rows (issue #15, seed 003 §8).

The policies (migration 0017) do not trust ``neuromem.user_id`` alone: they read it through
``neuromem_scoped_user()``, which returns it only when ``neuromem.scope_proof`` is
sha256(key ‖ tenant ␟ user ␟ backend pid ‖ key) for the owner-only key of
``neuromem_scope_key``. SQL running inside a request (``RESET ROLE``, ``set_config``) can change
the settings but cannot sign another user (issue 23 item 6; docs/architecture.md, "Threat
model"). The settings end with the transaction. Unbound code (the in-process SDK,
migrations, cross-user maintenance such as refreshing ``mv_trait_decayed``) runs as the owner.

The scope is a ``contextvars.ContextVar``: it follows ``asyncio.to_thread`` and
``contextvars.copy_context().run``, not plain threads, so background workers stay unscoped.
"""

from __future__ import annotations

import contextvars
import hashlib
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import psycopg
import psycopg.rows
from psycopg import sql

SERVICE_ROLE = "neuromem_service"
"""The role of migrations 0009 and 0017: LOGIN, no BYPASSRLS, owns nothing; every user-owned table
has a policy for it. The service's scoped transactions log in as it."""


@dataclass(frozen=True, slots=True)
class Scope:
    """One request's identity in the database: the tenant, the stored (tenant-scoped) user id and,
    narrowing what the user's rows show (migration 0022), the agent and the run it acts for."""

    tenant: str
    user_key: str
    agent_id: str | None = None
    run_id: str | None = None


_current: contextvars.ContextVar[Scope | None] = contextvars.ContextVar("neuromem_scope", default=None)


def current() -> Scope | None:
    return _current.get()


@contextmanager
def bind(scope: Scope) -> Iterator[Scope]:
    """Run the block's database work as ``SERVICE_ROLE`` restricted to ``scope.user_key``."""
    token = _current.set(scope)
    try:
        yield scope
    finally:
        _current.reset(token)


@contextmanager
def suspended() -> Iterator[None]:
    """Cross-user maintenance inside a scoped call (e.g. refreshing a materialized view): run as owner."""
    token = _current.set(None)
    try:
        yield
    finally:
        _current.reset(token)


# SET LOCAL rather than set_config(..., true): on a Citus cluster the coordinator passes a transaction's
# SET LOCAL commands on to the workers (citus.propagate_set_commands), where the policies run; on a single
# node the citus.* setting is an inert placeholder. The agent and run are signed too (migration 0022;
# empty: none). One round trip, the propagation setting first: a service request opens a few scoped
# transactions
APPLY_SCOPE = sql.SQL(
    "SET LOCAL citus.propagate_set_commands = 'local'; "
    "SET LOCAL neuromem.agent_id = {agent}; SET LOCAL neuromem.run_id = {run}; "
    "SET LOCAL neuromem.tenant = {tenant}; SET LOCAL neuromem.user_id = {user}; SET LOCAL neuromem.scope_proof = {proof}"
)
READ_SCOPE_KEY = "SELECT key FROM neuromem_scope_key"
# the session a proof is bound to: the backend pid, or on a Citus cluster the coordinator session's global
# pid, which the workers' backends serving it report too (store.distributed redefines the check to match)
HAS_CITUS_SESSIONS = "SELECT to_regprocedure('pg_catalog.citus_backend_gpid()') IS NOT NULL AS citus"
CITUS_SESSION = "SELECT citus_backend_gpid() AS gpid"


def proof(key: bytes, scope: Scope, backend_pid: int) -> str:
    """The signature ``neuromem_scoped_user()`` (migration 0017) checks: it binds the scope to the
    backend it was made for, so a proof seen elsewhere works on no other connection. It signs the
    agent and the run too (migration 0022; an empty one: none)."""
    fields = (scope.tenant, scope.user_key, scope.agent_id or "", scope.run_id or "", str(backend_pid))
    message = "\x1f".join(fields).encode()
    return hashlib.sha256(key + message + key).hexdigest()


def apply(conn: psycopg.Connection[Any], key: bytes) -> None:
    """At the start of a transaction of the service role: the scope's user, signed, for this transaction only."""
    scope = _current.get()
    if scope is None:
        return
    set_signed(
        conn,
        scope.tenant,
        scope.user_key,
        proof(key, scope, session_id(conn)),
        agent_id=scope.agent_id or "",
        run_id=scope.run_id or "",
    )


def set_signed(
    conn: psycopg.Connection[Any],
    tenant: str,
    user_key: str,
    signed: str,
    *,
    agent_id: str = "",
    run_id: str = "",
) -> None:
    """The settings the policies read, for this transaction (and, on Citus, its workers)."""
    conn.execute(
        APPLY_SCOPE.format(
            agent=sql.Literal(agent_id),
            run=sql.Literal(run_id),
            tenant=sql.Literal(tenant),
            user=sql.Literal(user_key),
            proof=sql.Literal(signed),
        )
    )


_sessions: weakref.WeakKeyDictionary[psycopg.Connection[Any], int] = weakref.WeakKeyDictionary()


def session_id(conn: psycopg.Connection[Any]) -> int:
    """The id ``neuromem_scoped_user()`` binds a proof to, read once per connection."""
    known = _sessions.get(conn)
    if known is None:
        with conn.cursor(row_factory=psycopg.rows.tuple_row) as cur:
            row = cur.execute(HAS_CITUS_SESSIONS).fetchone()
            on_citus = bool(row and row[0])
            gpid = cur.execute(CITUS_SESSION).fetchone() if on_citus else None
        known = int(gpid[0]) if gpid else conn.info.backend_pid
        _sessions[conn] = known
    return known
