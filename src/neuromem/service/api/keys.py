"""API keys of the service (issue #15): created once, stored hashed, scoped, revocable.

A key reads ``nmk_<32 hex id>_<43-char secret>``. Only the SHA-256 of the secret is
stored (the secret is 256 random bits, so a fast hash is enough: there is nothing to
brute-force), compared in constant time. Each key belongs to a tenant, has a scope —
``read`` < ``write`` < ``admin`` — and may be bound to one ``user_id``.
``memctl keys create|list|revoke`` manage them; the key table is the owner's alone
(migration 0009 revokes it from the service role).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import re
import secrets
import uuid
from dataclasses import dataclass
from enum import IntEnum

from ...core import Clock, utc_now
from ...errors import AuthenticationError, InvalidInputError, NotFoundError
from ...ids import uuid7
from ...store import api_keys
from ...store.db import Database
from ...store.tenancy import check_tenant, user_key

_TOUCH_EVERY = dt.timedelta(minutes=1)  # last_used_at is refreshed at most this often
_KEY = re.compile(r"^nmk_([0-9a-f]{32})_([A-Za-z0-9_\-]{43})$")


class KeyScope(IntEnum):
    """What a key may do; a higher scope includes the lower ones."""

    READ = 1
    WRITE = 2
    ADMIN = 3

    @classmethod
    def parse(cls, name: str) -> KeyScope:
        try:
            return cls[name.strip().upper()]
        except (KeyError, AttributeError):
            raise InvalidInputError(f"scope {name!r} must be read, write or admin") from None

    @property
    def label(self) -> str:
        return self.name.lower()


@dataclass(frozen=True, slots=True)
class ApiKey:
    """A stored key as ``memctl keys list`` shows it (never the secret)."""

    id: uuid.UUID
    tenant: str
    name: str
    scope: KeyScope
    bound_user: str | None
    created_at: dt.datetime
    last_used_at: dt.datetime | None
    revoked_at: dt.datetime | None


@dataclass(frozen=True, slots=True)
class Principal:
    """Who is calling: the key's tenant, scope and bound user (if any)."""

    key_id: uuid.UUID
    tenant: str
    scope: KeyScope
    bound_user: str | None


def _digest(secret: str) -> bytes:
    return hashlib.sha256(secret.encode("ascii")).digest()


class KeyStore:
    """Create, list, revoke and check keys in the ``api_keys`` table (runs as the table owner)."""

    def __init__(self, db: Database, *, clock: Clock = utc_now) -> None:
        self.db = db
        self.clock = clock  # the runtime's (``Memory.runtime.now``): when a key is revoked

    def create(
        self, tenant: str, scope: str | KeyScope, *, name: str = "", user_id: str | None = None
    ) -> tuple[ApiKey, str]:
        """A new key and its token — the only time the token exists outside the caller."""
        check_tenant(tenant)
        level = scope if isinstance(scope, KeyScope) else KeyScope.parse(scope)
        if user_id is not None:
            user_key(tenant, user_id)  # the same rules as the requests that will use it
        if len(name) > 255:
            raise InvalidInputError("a key name has at most 255 characters")
        key_id, secret = uuid7(), secrets.token_urlsafe(32)
        with self.db.transaction() as conn:
            row = api_keys.insert(
                conn,
                key_id,
                tenant=tenant,
                name=name,
                scope=level.label,
                bound_user=user_id,
                secret_sha256=_digest(secret),
            )
        return _key(row), f"nmk_{key_id.hex}_{secret}"

    def list(self, tenant: str | None = None, *, include_revoked: bool = False) -> list[ApiKey]:
        with self.db.connection() as conn:
            rows = api_keys.list_keys(conn, tenant, include_revoked=include_revoked)
        return [_key(r) for r in rows]

    def revoke(self, key_id: str | uuid.UUID) -> ApiKey:
        try:
            text = str(key_id)
            kid = (
                key_id
                if isinstance(key_id, uuid.UUID)
                else uuid.UUID(text[4:36] if text.startswith("nmk_") else text)
            )
        except ValueError:
            raise InvalidInputError(f"{key_id!r} is not a key id") from None
        with self.db.transaction() as conn:
            row = api_keys.revoke(conn, kid, self.clock())
        if row is None:
            raise NotFoundError(f"no API key {kid}")
        return _key(row)

    def delete_named(self, tenant: str, name: str) -> int:
        """Remove (not revoke) every key of ``tenant`` called ``name``: for keys a process makes for
        itself and throws away, which would otherwise pile up in ``memctl keys list --all``."""
        with self.db.transaction() as conn:
            return api_keys.delete_named(conn, tenant, name)

    def authenticate(self, token: str) -> Principal:
        """The principal of a presented token, or ``AuthenticationError`` (one message for every failure)."""
        match = _KEY.match(token or "")
        if match is None:
            raise AuthenticationError("missing or malformed API key (Authorization: Bearer nmk_…)")
        kid = uuid.UUID(match.group(1))
        with self.db.connection() as conn:
            row = api_keys.active(conn, kid)
            if row is None or not hmac.compare_digest(bytes(row["secret_sha256"]), _digest(match.group(2))):
                raise AuthenticationError("unknown or revoked API key")
            last = row["last_used_at"]
            if last is None or dt.datetime.now(dt.UTC) - last > _TOUCH_EVERY:
                api_keys.touch(conn, kid)
        return Principal(row["id"], row["tenant"], KeyScope.parse(row["scope"]), row["bound_user"])


def _key(row: dict) -> ApiKey:
    return ApiKey(
        id=row["id"],
        tenant=row["tenant"],
        name=row["name"],
        scope=KeyScope.parse(row["scope"]),
        bound_user=row["bound_user"],
        created_at=row["created_at"],
        last_used_at=row["last_used_at"],
        revoked_at=row["revoked_at"],
    )
