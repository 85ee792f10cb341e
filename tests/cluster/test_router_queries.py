"""Every hot-path statement is a single-task router query on the cluster (issue 24 item 3).

The run — add, ingest, search, recall_prompt, get_all, history, forget of one user, and the REST
routes — is captured statement by statement (``tests.cluster.routing``: each one EXPLAINed on its
own connection before it runs); every statement that reaches a distributed table must plan as one
task. The cross-user statements of the jobs and sweeps are listed below, by name, and allowed.
"""

from __future__ import annotations

import httpx
import pytest

from neuromem import Memory
from neuromem.service.api.keys import KeyStore
from neuromem.service.api.serve import ServiceServer
from neuromem.store import conversations, memories
from tests.cluster.routing import Capture, capture, normalized
from tests.conftest import base_settings, fresh_database

pytestmark = pytest.mark.cluster

# cross-user by design: the backfill picks whose rows to embed next (then claims that user's rows
# with a routed statement), and counts the whole backlog
CROSS_USER = {
    normalized(q)
    for q in (
        memories.PENDING_EMBEDDING_USERS,
        memories.COUNT_PENDING_EMBEDDINGS,
        conversations.PENDING_TURN_VECTOR_USERS,
        conversations.COUNT_PENDING_TURN_VECTORS,
    )
}

TURNS = [
    {"role": "user", "content": "I moved to Berlin last May and I work at Initech as a data engineer."},
    {"role": "assistant", "content": "Nice! How do you like Berlin?"},
    {"role": "user", "content": "I love it. I prefer cycling to work and I drink green tea every morning."},
]


def _sdk_hot_path(m: Memory, user: str) -> None:
    written = m.add("Alice keeps bees on her rooftop in Kreuzberg", user_id=user)
    mid = written[0].memory.id
    m.ingest(TURNS, user_id=user, session_id="s1")
    assert m.search("bees rooftop", user_id=user)
    assert m.recall_prompt("Where do I live and what do I drink?", user_id=user).text
    assert m.get_all(user_id=user)
    assert m.history(mid, user_id=user)
    m.forget(memory_id=mid, user_id=user)
    m.forget(everything=True, user_id=user)


def _rest_hot_path(url: str, token: str, user: str) -> None:
    with httpx.Client(base_url=url, headers={"Authorization": f"Bearer {token}"}, timeout=60) as c:
        r = c.post("/v1/memories", json={"user_id": user, "content": "Bob plays the cello on Sundays"})
        assert r.status_code == 201, r.text
        mid = r.json()[0]["memory"]["id"]
        assert (
            c.post("/v1/ingest", json={"user_id": user, "session_id": "s2", "messages": TURNS}).status_code
            == 200
        )
        assert c.get(f"/v1/memories/{mid}", params={"user_id": user}).status_code == 200
        assert c.get("/v1/memories", params={"user_id": user}).json()
        assert c.get(f"/v1/memories/{mid}/history", params={"user_id": user}).json()
        assert c.post("/v1/search", json={"user_id": user, "query": "cello"}).json()["hits"]
        assert c.post("/v1/recall", json={"user_id": user, "query": "what do I play?"}).status_code == 200
        assert c.get("/v1/traits", params={"user_id": user}).status_code == 200
        r = c.post("/v1/forget", json={"user_id": user, "memory_id": mid})
        assert r.status_code == 200, r.text


def _report(cap: Capture) -> list[str]:
    return [f"{s.task_counts} {s.query[:300]}" for s in cap.multi_shard() if s.query not in CROSS_USER]


def _settings(pg_server: str):  # type: ignore[no-untyped-def]
    return base_settings(
        store={"database_url": fresh_database(pg_server)}, traits={"reflect_on_ingest": False}
    )


def _check(cap: Capture) -> None:
    distributed = [s for s in cap.statements if s.distributed]
    assert len(distributed) >= 20, "the capture saw the run's statements"
    assert cap.failures == []
    assert _report(cap) == [], "\n".join(_report(cap))


def test_every_sdk_hot_path_statement_is_routed_to_one_shard(pg_server: str) -> None:
    with Memory(_settings(pg_server)) as m:
        m.add("Someone else entirely", user_id="other-user")  # a second user, so one shard is a choice
        with capture() as sdk:
            _sdk_hot_path(m, "alice")
    _check(sdk)


def test_every_rest_route_statement_is_routed_to_one_shard(pg_server: str) -> None:
    settings = _settings(pg_server)
    with Memory(settings) as m:
        m.add("Someone else entirely", user_id="other-user")
        token = KeyStore(m.runtime.db).create("default", "admin", name="router test")[1]
        with ServiceServer(m, settings) as url, capture() as rest:
            _rest_hot_path(url, token, "bob")
    _check(rest)
