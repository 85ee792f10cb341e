"""Keys and tenants over HTTP: no key → 401, wrong scope → 403, another tenant's id → 404."""

from __future__ import annotations

import hashlib

import pytest

from neuromem.errors import AuthenticationError, InvalidInputError, InvalidTenantError
from neuromem.service.api.keys import KeyStore
from tests.api.conftest import Service


def test_no_key_bad_key_revoked_key(service: Service) -> None:
    with service.client(None) as c:
        r = c.post("/v1/search", json={"user_id": "a", "query": "x"})
        assert r.status_code == 401 and r.headers["content-type"] == "application/problem+json"
    with service.client("nmk_" + "0" * 32 + "_" + "A" * 43) as c:
        assert c.get("/v1/memories", params={"user_id": "a"}).status_code == 401
    with service.client("not-a-key") as c:
        assert c.get("/v1/memories", params={"user_id": "a"}).status_code == 401
    key, token = service.keys.create("default", "read", name="to revoke")
    with service.client(token) as c:
        assert c.get("/v1/memories", params={"user_id": "a"}).status_code == 200
        service.keys.revoke(key.id)
        assert c.get("/v1/memories", params={"user_id": "a"}).status_code == 401


def test_scopes(service: Service) -> None:
    with service.client("default:read") as c:
        r = c.post("/v1/memories", json={"user_id": "s", "content": "read keys cannot write"})
        assert r.status_code == 403 and r.json()["type"].endswith("/permission-denied-error")
        assert c.get("/v1/jobs").status_code == 403
        assert c.post("/v1/search", json={"user_id": "s", "query": "x"}).status_code == 200
    with service.client("default:write") as c:
        assert c.get("/v1/jobs").status_code == 403
        assert c.post("/v1/memories", json={"user_id": "s", "content": "write keys can"}).status_code == 201


def test_tenants_are_isolated(service: Service) -> None:
    with service.client("default:write") as c:
        mine = c.post(
            "/v1/memories", json={"user_id": "alice", "content": "Alice of default likes jazz"}
        ).json()
    mid = mine[0]["memory"]["id"]
    with service.client("acme:write") as c:
        # the same user_id in another tenant is another person
        assert c.get(f"/v1/memories/{mid}", params={"user_id": "alice"}).status_code == 404
        assert c.get(f"/v1/memories/{mid}/history", params={"user_id": "alice"}).status_code in (200, 404)
        assert c.delete(f"/v1/memories/{mid}", params={"user_id": "alice"}).status_code == 404
        assert c.patch(f"/v1/memories/{mid}", json={"user_id": "alice", "content": "x"}).status_code == 404
        hits = c.post("/v1/search", json={"user_id": "alice", "query": "jazz"}).json()["hits"]
        assert all("default" not in h["memory"]["content"] for h in hits)
        theirs = c.post(
            "/v1/memories", json={"user_id": "alice", "content": "Alice of acme likes opera"}
        ).json()
        assert theirs[0]["memory"]["user_id"] == "alice"  # shown as the tenant's own user id
        listed = c.get("/v1/memories", params={"user_id": "alice"}).json()
        assert [m["content"] for m in listed] == ["Alice of acme likes opera"]
    with service.client("default:read") as c:
        assert c.get(f"/v1/memories/{mid}", params={"user_id": "alice"}).status_code == 200
        assert (
            c.get(f"/v1/memories/{theirs[0]['memory']['id']}", params={"user_id": "alice"}).status_code == 404
        )
    stored = service.memory.get_all(user_id="t=acme/alice")
    assert [m.content for m in stored] == ["Alice of acme likes opera"]


def test_key_bound_to_one_user(service: Service) -> None:
    with service.client("acme:bound") as c:
        assert c.post("/v1/memories", json={"user_id": "alice", "content": "bound ok"}).status_code == 201
        r = c.post("/v1/memories", json={"user_id": "bob", "content": "not mine"})
        assert r.status_code == 403


def test_key_store_rules(service: Service) -> None:
    keys: KeyStore = service.keys
    with pytest.raises(InvalidTenantError):
        keys.create("Bad Tenant", "read")
    with pytest.raises(InvalidInputError):
        keys.create("acme", "superuser")
    with pytest.raises(AuthenticationError):
        keys.authenticate("nmk_short")
    key, token = keys.create("acme", "admin", name="listed")
    assert key.id in {k.id for k in keys.list("acme")}
    assert token not in repr(keys.list())
    with service.memory.runtime.db.connection() as conn:
        stored = conn.execute("SELECT secret_sha256 FROM api_keys WHERE id = %s", (key.id,)).fetchone()
    secret = token.split("_", 2)[2]  # nmk_<id>_<secret>; the secret may hold "_" itself
    assert len(secret) == 43 and secret.encode() not in bytes(stored["secret_sha256"])
    assert bytes(stored["secret_sha256"]) == hashlib.sha256(secret.encode()).digest()
    keys.revoke(key.id)
    assert key.id not in {k.id for k in keys.list("acme")}
    assert key.id in {k.id for k in keys.list("acme", include_revoked=True)}


def test_request_timeout_is_a_504_problem(service: Service) -> None:
    import asyncio
    import time

    from neuromem.errors import RequestTimeoutError
    from neuromem.service.api.context import ServiceContext
    from neuromem.service.api.keys import KeyScope, Principal

    slow = ServiceContext(service.memory, service.settings.with_updates(service={"request_timeout_s": 0.05}))
    who = Principal(service.keys.list("default")[0].id, "default", KeyScope.READ, None)
    with pytest.raises(RequestTimeoutError) as caught:
        asyncio.run(slow.call(who, "slow", lambda uid: time.sleep(0.5)))
    assert caught.value.http_status == 504
