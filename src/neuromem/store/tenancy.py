"""Tenants and their users: the same ``user_id`` in two tenants is two people (issue #15, seed 003 §8).

A tenant is an application holding API keys. The service stores a tenant's user under a
scoped *user key*: the ``user_id`` itself for the tenant ``default`` (so the key-less,
in-process SDK and the service's default tenant see the same users), and
``t=<tenant>/<user_id>`` for every other tenant. Tenant names cannot contain ``/`` and the
service refuses external user ids that begin with ``t=``, so no two (tenant, user) pairs
share a key. Row-level security compares rows to this key (``neuromem.store.scope``).
"""

from __future__ import annotations

import re

from ..errors import InvalidTenantError, InvalidUserIdError
from .scope import Scope

DEFAULT_TENANT = "default"
"""The tenant of the in-process SDK; its user keys are the plain user ids."""

_TENANT = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")
_PREFIX = "t="


def check_tenant(name: str) -> str:
    if not isinstance(name, str) or not _TENANT.match(name):
        raise InvalidTenantError(f"tenant {name!r} must match [a-z0-9][a-z0-9_-]{{0,63}}")
    return name


def user_key(tenant: str, user_id: str) -> str:
    """The stored user id of ``user_id`` in ``tenant`` (validated further by the core)."""
    check_tenant(tenant)
    if not isinstance(user_id, str):
        raise InvalidUserIdError("user_id must be a string")
    if user_id.startswith(_PREFIX):
        raise InvalidUserIdError(f"user_id must not begin with {_PREFIX!r} (reserved for tenant scoping)")
    return user_id if tenant == DEFAULT_TENANT else f"{_PREFIX}{tenant}/{user_id}"


def external_user_id(tenant: str, key: str) -> str:
    """Inverse of ``user_key`` for keys of ``tenant``; other strings are returned unchanged."""
    prefix = f"{_PREFIX}{tenant}/"
    return key[len(prefix) :] if tenant != DEFAULT_TENANT and key.startswith(prefix) else key


def scope_for(tenant: str, user_id: str) -> Scope:
    """The database scope of one request: RLS sees only this key's rows."""
    return Scope(tenant, user_key(tenant, user_id))
