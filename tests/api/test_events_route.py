"""``GET /v1/events`` over real HTTP (issue 26 item 5): a tenant's user sees their own feed, with cursors."""

from __future__ import annotations

from tests.api.conftest import Service
from tests.feed import settle


def test_events_route(service: Service) -> None:
    with service.client("acme:write") as c:
        added = c.post(
            "/v1/memories", json={"user_id": "evr", "content": "Ines sails a dinghy called Petrel"}
        ).json()
        mid = added[0]["memory"]["id"]
        settle(service.memory)  # the feed shows an event once every older transaction ended
        page = c.get("/v1/events", params={"user_id": "evr"})
        assert page.status_code == 200, page.text
        [event] = page.json()["events"]
        assert (event["kind"], event["memory_id"], event["user_id"]) == ("memory.added", mid, "evr")
        assert c.delete(f"/v1/memories/{mid}", params={"user_id": "evr"}).status_code == 200
        settle(service.memory)
        later = c.get("/v1/events", params={"user_id": "evr", "after": page.json()["next"]}).json()
        assert [e["kind"] for e in later["events"]] == ["memory.deleted"]
        only = c.get("/v1/events", params={"user_id": "evr", "kind": "memory.added"}).json()["events"]
        assert [e["kind"] for e in only] == ["memory.added"]
        bad = c.get("/v1/events", params={"user_id": "evr", "after": "x.y"})
        assert bad.status_code == 400 and bad.json()["type"].endswith("/invalid-input-error")
        assert c.get("/v1/events", params={"user_id": "evr", "kind": "nope"}).status_code == 422
    with service.client("default:read") as c:  # the same user id in another tenant is someone else
        assert c.get("/v1/events", params={"user_id": "evr"}).json()["events"] == []
