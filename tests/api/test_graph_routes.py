"""``GET /v1/memories/{id}/related`` over real HTTP (issue 26 item 4)."""

from __future__ import annotations

import uuid

from tests.api.conftest import Service


def test_related_route(service: Service) -> None:
    with service.client("acme:write") as c:
        r = c.post(
            "/v1/ingest",
            json={
                "user_id": "gr",
                "session_id": "s1",
                "messages": [
                    {
                        "role": "user",
                        "content": "I moved to Berlin last May and I work at Initech as a data engineer.",
                    }
                ],
            },
        )
        assert r.status_code == 200, r.text
        facts = [
            m
            for m in c.get("/v1/memories", params={"user_id": "gr"}).json()
            if "Berlin" in m["content"] and m["memory_type"] == "fact"
        ]
        mid = facts[0]["id"]
        found = c.get(f"/v1/memories/{mid}/related", params={"user_id": "gr"})
        assert found.status_code == 200, found.text
        body = found.json()
        assert body["memory"]["id"] == mid and body["memory"]["user_id"] == "gr"  # the tenant's own id
        assert {
            "edge_type": "MENTIONS",
            "kind": "node",
            "name": "Berlin",
            "direction": "out",
        }.items() <= next(n for n in body["neighbours"] if n["name"] == "Berlin").items()
        assert body["kinds"]["MENTIONS"] >= 1
        assert c.get(f"/v1/memories/{uuid.uuid4()}/related", params={"user_id": "gr"}).status_code == 404
        assert c.get(f"/v1/memories/{mid}/related", params={"user_id": "gr", "limit": 0}).status_code == 422
    with service.client("default:read") as c:  # another tenant does not see it
        assert c.get(f"/v1/memories/{mid}/related", params={"user_id": "gr"}).status_code == 404
