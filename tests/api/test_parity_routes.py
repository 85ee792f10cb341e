"""REST parity with the SDK (issue 26 item 4) through a live ``memctl serve`` and httpx: export and import,
markdown sync, procedures, consolidation, document upload and status, webhooks. Bad input is a 4xx
problem that writes nothing."""

from __future__ import annotations

import datetime as dt
import json
import time

from tests.api.conftest import Service

PROBLEM = "application/problem+json"


def _contents(rows: list[dict]) -> set[str]:
    return {r["content"] for r in rows}


def test_export_then_import_restores_the_user(service: Service) -> None:
    with service.client("acme:admin") as c:
        for text in ("Pia plays the cello", "Pia lives in Ghent"):
            assert c.post("/v1/memories", json={"user_id": "pia", "content": text}).status_code == 201
        exported = c.get("/v1/export", params={"user_id": "pia"})
        assert exported.status_code == 200 and exported.headers["content-type"] == "application/x-ndjson"
        header = json.loads(exported.text.splitlines()[0])
        assert header["tables"]["memories"] == 2
        readable = c.get("/v1/export", params={"user_id": "pia", "format": "markdown"})
        assert (
            readable.headers["content-type"].startswith("text/markdown")
            and "Pia plays the cello" in readable.text
        )
        assert c.get("/v1/export", params={"user_id": "pia", "format": "xml"}).status_code == 422

        service.memory.reset(user_id="t=acme/pia")  # the user is gone; the file brings it back
        assert c.get("/v1/memories", params={"user_id": "pia"}).json() == []
        ndjson = {"content-type": "application/x-ndjson"}
        other = c.post("/v1/import", params={"user_id": "quinn"}, content=exported.text, headers=ndjson)
        assert other.status_code == 400 and other.headers["content-type"] == PROBLEM  # another user's file
        assert c.get("/v1/memories", params={"user_id": "quinn"}).json() == []
        bad = c.post("/v1/import", params={"user_id": "pia"}, content="not an export", headers=ndjson)
        assert bad.status_code == 400 and bad.headers["content-type"] == PROBLEM
        wrong_type = c.post(
            "/v1/import",
            params={"user_id": "pia"},
            content=exported.text,
            headers={"content-type": "text/csv"},
        )
        assert wrong_type.status_code == 400
        imported = c.post("/v1/import", params={"user_id": "pia"}, content=exported.text, headers=ndjson)
        assert imported.status_code == 200, imported.text
        assert imported.json()["inserted"]["memories"] == 2 and imported.json()["user_id"] == "pia"
        assert _contents(c.get("/v1/memories", params={"user_id": "pia"}).json()) == {
            "Pia plays the cello",
            "Pia lives in Ghent",
        }
        again = c.post("/v1/import", params={"user_id": "pia"}, content=exported.text, headers=ndjson)
        assert again.json()["inserted"]["memories"] == 0  # idempotent
    with service.client("acme:write") as c:  # a file restores team memberships too: an admin key
        denied = c.post(
            "/v1/import",
            params={"user_id": "pia"},
            content=exported.text,
            headers={"content-type": "application/x-ndjson"},
        )
        assert denied.status_code == 403


def test_markdown_sync_round_trip(service: Service) -> None:
    with service.client("acme:write") as c:
        c.post("/v1/memories", json={"user_id": "mo", "content": "Mo works at a bakery"})
        first = c.post("/v1/markdown/sync", json={"user_id": "mo"})
        assert first.status_code == 200, first.text
        assert first.json()["added"] == 0 and "Mo works at a bakery" in first.json()["files"]["memory.md"]
        page = first.json()["files"]["memory.md"].replace(
            "## Known facts\n", "## Known facts\n- Mo rides a tandem\n"
        )
        synced = c.post("/v1/markdown/sync", json={"user_id": "mo", "files": {"memory.md": page}})
        assert synced.status_code == 200 and synced.json()["added"] == 1
        assert "Mo rides a tandem" in _contents(c.get("/v1/memories", params={"user_id": "mo"}).json())
        assert "<!-- nm:" in synced.json()["files"]["memory.md"].split("Mo rides a tandem")[1].splitlines()[0]
        # another user's sync keeps its own files
        assert (
            "Mo rides"
            not in c.post("/v1/markdown/sync", json={"user_id": "nia"}).json()["files"]["memory.md"]
        )
        bad = c.post("/v1/markdown/sync", json={"user_id": "mo", "files": {"notes.md": "x"}})
        assert bad.status_code == 422 and bad.headers["content-type"] == PROBLEM
        assert c.post("/v1/markdown/sync", json={"user_id": "mo", "language": "fr"}).status_code == 422


def test_procedures_are_recorded_and_listed(service: Service) -> None:
    body = {
        "user_id": "ro",
        "name": "Deploy the API",
        "steps": ["run tests", "build image", "push"],
        "preconditions": ["tests green"],
        "outcome": "new version live",
    }
    with service.client("acme:write") as c:
        first = c.post("/v1/procedures", json=body)
        assert first.status_code == 201 and first.json()["operation"] == "add"
        second = c.post("/v1/procedures", json=body)
        assert second.json()["operation"] == "update"
        [listed] = c.get("/v1/procedures", params={"user_id": "ro"}).json()
        assert listed["name"] == "Deploy the API" and listed["successes"] == 2
        assert (
            listed["steps"] == ["run tests", "build image", "push"]
            and listed["outcome"] == "new version live"
        )
        assert c.post("/v1/procedures", json={**body, "steps": []}).status_code == 422
        assert c.post("/v1/procedures", json={**body, "steps": ["  "]}).status_code == 400
        assert (
            len(c.get("/v1/procedures", params={"user_id": "ro"}).json()) == 1
        )  # nothing written by bad input
    with service.client("acme:read") as c:
        assert c.post("/v1/procedures", json=body).status_code == 403


def test_consolidation_per_user(service: Service) -> None:
    with service.client("acme:write") as c:
        for text in ("Ola hikes in the Alps", "Ola hikes in the Dolomites", "Ola hikes every summer"):
            c.post("/v1/memories", json={"user_id": "ola", "content": text})
        dry = c.post("/v1/consolidate", json={"user_id": "ola", "dry_run": True})
        assert dry.status_code == 200, dry.text
        report = dry.json()
        assert report["dry_run"] is True and set(report) >= {"compress", "concepts", "archive"}
        assert report["concepts"]["user_id"] == "ola" and report["compress"]["dry_run"] is True
        only = c.post("/v1/consolidate", json={"user_id": "ola", "steps": ["archive"]}).json()
        assert only["compress"] is None and only["archive"]["user_id"] == "ola"
        for unknown in ("defrag", "promote"):  # the tier step was dropped with the tiers (issue 27 item 3)
            assert c.post("/v1/consolidate", json={"user_id": "ola", "steps": [unknown]}).status_code == 422
        missing = c.post("/v1/memories/0190a3c4-0000-7000-8000-000000000000/restore", json={"user_id": "ola"})
        assert missing.status_code == 404 and missing.headers["content-type"] == PROBLEM
        # archive a faded memory 400 days on, then bring it back
        stale = c.post(
            "/v1/memories",
            json={"user_id": "ola", "content": "Ola once owned a blue bicycle", "importance": 0.2},
        ).json()[0]["memory"]["id"]
        later = (dt.datetime.now(dt.UTC) + dt.timedelta(days=400)).isoformat()
        archived = c.post(
            "/v1/consolidate", json={"user_id": "ola", "steps": ["archive"], "now": later}
        ).json()
        assert stale in {i["id"] for i in archived["archive"]["items"]}
        assert stale not in {m["id"] for m in c.get("/v1/memories", params={"user_id": "ola"}).json()}
        restored = c.post(f"/v1/memories/{stale}/restore", json={"user_id": "ola"})
        assert restored.status_code == 200 and restored.json()["archived_at"] is None
        assert stale in {m["id"] for m in c.get("/v1/memories", params={"user_id": "ola"}).json()}


def test_document_upload_and_status(service: Service) -> None:
    html = b"<html><body><h1>Lease</h1><p>The rent of the flat is 900 euros a month.</p></body></html>"
    with service.client("acme:write") as c:
        up = c.post(
            "/v1/documents/upload",
            params={"user_id": "lu", "file_name": "lease.html"},
            content=html,
            headers={"content-type": "text/html"},
        )
        assert up.status_code == 201, up.text
        document = up.json()
        assert document["file_name"] == "lease.html" and document["chunk_count"] >= 1
        deadline = time.monotonic() + 30
        while (state := c.get(f"/v1/documents/{document['id']}/status", params={"user_id": "lu"}).json())[
            "state"
        ] != "ready":
            assert time.monotonic() < deadline, state
            time.sleep(0.05)
        assert state["chunks"] == document["chunk_count"] and state["progress"] == 1.0
        hits = c.post("/v1/search", json={"user_id": "lu", "query": "rent of the flat"}).json()["hits"]
        assert any("900 euros" in h["memory"]["content"] for h in hits)
        empty = c.post("/v1/documents/upload", params={"user_id": "lu", "file_name": "x.txt"}, content=b"")
        assert empty.status_code == 400
        assert c.post("/v1/documents/upload", params={"user_id": "lu"}, content=html).status_code == 422
        assert len(c.get("/v1/documents", params={"user_id": "lu"}).json()) == 1
        assert c.get(f"/v1/documents/{document['id']}/status", params={"user_id": "other"}).status_code == 404


def test_webhooks_are_an_admins_of_its_own_tenant(service: Service) -> None:
    with service.client("acme:admin") as c:
        added = c.post("/v1/webhooks", json={"url": "http://127.0.0.1:9/hook", "events": ["memory.added"]})
        assert added.status_code == 201, added.text
        hook = added.json()
        assert (
            hook["tenant"] == "acme"
            and hook["secret"].startswith("whsec_")
            and hook["events"] == ["memory.added"]
        )
        listed = c.get("/v1/webhooks").json()
        assert [h["id"] for h in listed] == [hook["id"]] and listed[0]["secret"] is None
        assert c.post("/v1/webhooks", json={"url": "ftp://x.example/hook"}).status_code == 400
        assert (
            c.post("/v1/webhooks", json={"url": "http://127.0.0.1:9/h", "events": ["nope"]}).status_code
            == 400
        )
        assert len(c.get("/v1/webhooks").json()) == 1  # bad input registered nothing
    with service.client("default:admin") as c:  # another tenant neither sees nor removes it
        assert hook["id"] not in {h["id"] for h in c.get("/v1/webhooks").json()}
        assert c.delete(f"/v1/webhooks/{hook['id']}").status_code == 404
    with service.client("acme:write") as c:
        assert c.get("/v1/webhooks").status_code == 403
    with service.client("acme:admin") as c:
        removed = c.delete(f"/v1/webhooks/{hook['id']}")
        assert removed.status_code == 200 and removed.json()["removed_at"] is not None
        assert c.get("/v1/webhooks").json() == []
        assert len(c.get("/v1/webhooks", params={"include_removed": "true"}).json()) == 1
