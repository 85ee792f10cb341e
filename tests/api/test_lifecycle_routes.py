"""/v1/forget, /v1/conflicts and /v1/memories/{id}/feedback over real HTTP (issue 16)."""

from __future__ import annotations

from tests.api.conftest import Service


def test_forget_feedback_and_conflicts_routes(service: Service) -> None:
    with service.client("default:write") as c:
        written = c.post(
            "/v1/memories", json={"user_id": "lc", "content": "I am allergic to zanzibarnuts"}
        ).json()
        mid = written[0]["memory"]["id"]
        bad = c.post("/v1/forget", json={"user_id": "lc", "memory_id": mid, "query": "x"})
        assert bad.status_code == 400 and bad.json()["type"].endswith("/forget-target-error")
        preview = c.post("/v1/forget", json={"user_id": "lc", "query": "zanzibarnuts", "dry_run": True})
        assert preview.status_code == 200 and [r["id"] for r in preview.json()["memories"]] == [mid]
        pinned = c.post(f"/v1/memories/{mid}/feedback", json={"user_id": "lc", "kind": "pin"})
        assert pinned.status_code == 200 and pinned.json()["metadata"]["pinned"] is True
        receipt = c.post("/v1/forget", json={"user_id": "lc", "memory_id": mid})
        assert receipt.status_code == 200, receipt.text
        body = receipt.json()
        assert (
            body["actor"] == "api" and body["counts"]["memories"] == 1 and "zanzibarnuts" not in receipt.text
        )
        assert c.get(f"/v1/memories/{mid}", params={"user_id": "lc"}).status_code == 404
        listed = c.get("/v1/forget/receipts", params={"user_id": "lc"}).json()
        assert [r["id"] for r in listed] == [body["id"]]
        for text, trust in (("I work at Google.", 1.0), ("I work at Apple.", 0.4)):
            c.post(
                "/v1/ingest",
                json={
                    "user_id": "lc",
                    "session_id": text,
                    "metadata": {"source_trust": trust},
                    "messages": [{"role": "user", "content": text}],
                },
            )
        [open_item] = c.get("/v1/conflicts", params={"user_id": "lc"}).json()
        keep = open_item["row"]["new_id"]
        done = c.post(f"/v1/conflicts/{open_item['row']['id']}/resolve", json={"user_id": "lc", "keep": keep})
        assert done.status_code == 200 and done.json()["row"]["status"] == "resolved"
        assert c.get("/v1/conflicts", params={"user_id": "lc"}).json() == []
