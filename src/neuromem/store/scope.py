"""The request scope: which tenant's user a service request acts for, enforced by PostgreSQL.

The service binds a scope around each request (``bind``); every transaction the store
opens while it is bound starts with ``SET LOCAL ROLE neuromem_service`` and the scoped
user in ``neuromem.user_id`` (``SET LOCAL``), so the row-level security
policies of migration 0009 decide which rows exist — a query that forgets its
``user_id = %s`` predicate still sees only that user's rows (issue #15, seed 003 §8).
Both settings end with the transaction. Unbound code (the in-process SDK, migrations,
cross-user maintenance such as refreshing ``mv_trait_decayed``) runs as the owner.

The scope is a ``contextvars.ContextVar``: it follows ``asyncio.to_thread`` and
``contextvars.copy_context().run``, not plain threads, so background workers stay unscoped.
"""

from __future__ import annotations

import contextvars
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import psycopg
from psycopg import sql

SERVICE_ROLE = "neuromem_service"
SET_SERVICE_ROLE = sql.SQL("SET LOCAL ROLE {}").format(sql.Identifier(SERVICE_ROLE))
"""The role of migration 0009: no BYPASSRLS, owns nothing; every user-owned table has a policy for it."""


@dataclass(frozen=True, slots=True)
class Scope:
    """One request's identity in the database: the tenant and the stored (tenant-scoped) user id."""

    tenant: str
    user_key: str


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
# node the citus.* setting is an inert placeholder
PROPAGATE_SETTINGS = "SET LOCAL citus.propagate_set_commands = 'local'"
APPLY_SCOPE = sql.SQL("SET LOCAL neuromem.tenant = {tenant}; SET LOCAL neuromem.user_id = {user}")


def apply(conn: psycopg.Connection[Any]) -> None:
    """At the start of a transaction: take the scope's role and user for this transaction only."""
    scope = _current.get()
    if scope is None:
        return
    conn.execute(SET_SERVICE_ROLE)
    conn.execute(PROPAGATE_SETTINGS)
    conn.execute(APPLY_SCOPE.format(tenant=sql.Literal(scope.tenant), user=sql.Literal(scope.user_key)))
