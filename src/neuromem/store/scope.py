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
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import psycopg

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


APPLY_SCOPE = """SELECT set_config('neuromem.tenant', %s, true), set_config('neuromem.user_id', %s, true),
                          set_config('neuromem.scope_proof', %s, true)"""
#: the scope with its agent and run (migration 0022): the agent's and run's settings, then ``APPLY_SCOPE``'s
APPLY_AGENT_SCOPE = APPLY_SCOPE.replace(
    "SELECT ", "SELECT set_config('neuromem.agent_id', %s, true), set_config('neuromem.run_id', %s, true), ", 1)
READ_SCOPE_KEY = "SELECT key FROM neuromem_scope_key"


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
    conn.execute(APPLY_AGENT_SCOPE, (scope.agent_id or "", scope.run_id or "", scope.tenant, scope.user_key,
                                     proof(key, scope, conn.info.backend_pid)))
