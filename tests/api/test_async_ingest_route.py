"""``POST /v1/ingest?async=true`` → 202 with a job, ``GET /v1/jobs/{id}`` → its progress and result (issue 27 item 2)."""

from __future__ import annotations

import time

from tests.api.conftest import Service

TURNS = [
    {
        "role": "user",
        "content": f"I adopted a cat named Miso number {i}",
        "timestamp": f"2026-02-0{i + 1}T09:00:00Z",
    }
    for i in range(4)
]


def test_async_ingest_returns_202_and_the_job_reports_its_result(service: Service) -> None:
    with service.client("default:write") as c:
        r = c.post(
            "/v1/ingest",
            params={"async": "true"},
            json={"user_id": "aj", "session_id": "s", "messages": TURNS},
        )
        assert r.status_code == 202, r.text
        job = r.json()
        assert job["status"] == "queued" and job["session_id"] == "s"
        deadline = time.monotonic() + 60
        while (state := c.get(f"/v1/jobs/{job['id']}", params={"user_id": "aj"}).json())["status"] not in (
            "done",
            "failed",
        ):
            assert time.monotonic() < deadline, state
            time.sleep(0.05)
        assert state["status"] == "done" and state["result"]["turns"] == 4 and state["result"]["memory_ids"]
        listed = c.get("/v1/memories", params={"user_id": "aj"}).json()
        assert {m["id"] for m in listed} >= set(state["result"]["memory_ids"])
        # bad input: 4xx at once, nothing queued
        bad = c.post("/v1/ingest", params={"async": "true"}, json={"user_id": "aj", "messages": []})
        assert bad.status_code in (400, 422)
        assert c.get(f"/v1/jobs/{job['id']}", params={"user_id": "other"}).status_code == 404
        assert c.get("/v1/jobs/not-a-uuid", params={"user_id": "aj"}).status_code == 422
    with service.client("acme:read") as other_tenant:  # another tenant's same user id sees nothing
        assert other_tenant.get(f"/v1/jobs/{job['id']}", params={"user_id": "aj"}).status_code == 404


def test_async_ingest_carries_the_scope(service: Service) -> None:
    turns = [{"role": "user", "content": "I keep a bonsai tree on my desk"}]
    with service.client("acme:write") as c:
        r = c.post(
            "/v1/ingest",
            params={"async": "true"},
            json={"user_id": "sc", "agent_id": "gardener", "run_id": "r1", "messages": turns},
        )
        assert r.status_code == 202, r.text
        deadline = time.monotonic() + 60
        while (state := c.get(f"/v1/jobs/{r.json()['id']}", params={"user_id": "sc"}).json())[
            "status"
        ] != "done":
            assert time.monotonic() < deadline and state["status"] != "failed", state
            time.sleep(0.05)
        ids = set(state["result"]["memory_ids"])
        rows = [c.get(f"/v1/memories/{i}", params={"user_id": "sc"}).json() for i in ids]
        assert ids and {(m["agent_id"], m["run_id"]) for m in rows} == {("gardener", "r1")}
        other_agent = {
            m["id"] for m in c.get("/v1/memories", params={"user_id": "sc", "agent_id": "coder"}).json()
        }
        assert not ids & other_agent
        bad = c.post(
            "/v1/ingest",
            params={"async": "true"},
            json={"user_id": "sc", "visibility": "team", "messages": turns},
        )
        assert bad.status_code == 400 and bad.headers["content-type"] == "application/problem+json"
