"""Scopes beyond the user over REST and MCP (issue 26 item 2): agent_id / run_id / visibility / team_id
reach the library, bad ids are 400 problems that write nothing, and teams take an admin key."""

from __future__ import annotations

import json

import anyio
import httpx2
from mcp.client import Client
from mcp.client.streamable_http import streamable_http_client

from tests.api.conftest import Service


def _contents(rows: list[dict]) -> set[str]:
    return {r["content"] for r in rows}


def test_rest_routes_take_scopes(service: Service) -> None:
    with service.client("acme:write") as c:
        shared = c.post("/v1/memories", json={"user_id": "sam", "content": "Sam drinks oat milk"})
        own = c.post(
            "/v1/memories",
            json={
                "user_id": "sam",
                "content": "The planner prefers night trains",
                "agent_id": "planner",
                "run_id": "r1",
            },
        )
        other = c.post(
            "/v1/memories",
            json={"user_id": "sam", "content": "The coder indents with tabs", "agent_id": "coder"},
        )
        team = c.post(
            "/v1/memories",
            json={
                "user_id": "sam",
                "content": "The team ships on Fridays",
                "agent_id": "coder",
                "visibility": "team",
                "team_id": "eng",
            },
        )
        assert {r.status_code for r in (shared, own, other, team)} == {201}
        assert own.json()[0]["memory"]["agent_id"] == "planner" and own.json()[0]["memory"]["run_id"] == "r1"
        assert (
            team.json()[0]["memory"]["visibility"] == "team" and team.json()[0]["memory"]["team_id"] == "eng"
        )
        ingested = c.post(
            "/v1/ingest",
            json={
                "user_id": "sam",
                "session_id": "s1",
                "agent_id": "planner",
                "messages": [{"role": "user", "content": "I live in Lyon since 2019"}],
            },
        )
        assert ingested.status_code == 200, ingested.text
        assert all(r["memory"]["agent_id"] == "planner" for r in ingested.json()["results"])

        listed = c.get("/v1/memories", params={"user_id": "sam", "agent_id": "planner"})
        assert listed.status_code == 200
        seen = _contents(listed.json())
        assert {
            "Sam drinks oat milk",
            "The planner prefers night trains",
            "The team ships on Fridays",
        } <= seen
        assert "The coder indents with tabs" not in seen
        assert "The coder indents with tabs" in _contents(
            c.get("/v1/memories", params={"user_id": "sam"}).json()
        )

        hits = c.post(
            "/v1/search", json={"user_id": "sam", "query": "coder indents tabs", "agent_id": "planner"}
        )
        assert hits.status_code == 200
        assert "The coder indents with tabs" not in {h["memory"]["content"] for h in hits.json()["hits"]}
        hits = c.post(
            "/v1/search", json={"user_id": "sam", "query": "coder indents tabs", "agent_id": "coder"}
        )
        assert "The coder indents with tabs" in {h["memory"]["content"] for h in hits.json()["hits"]}
        block = c.post(
            "/v1/recall", json={"user_id": "sam", "query": "tabs or spaces?", "agent_id": "planner"}
        )
        assert block.status_code == 200 and "indents with tabs" not in block.json()["text"]

        forgotten = c.post("/v1/forget", json={"user_id": "sam", "agent_id": "coder"})
        assert forgotten.status_code == 200 and forgotten.json()["target_kind"] == "scope"
        assert forgotten.json()["counts"]["memories"] == 2
        left = _contents(c.get("/v1/memories", params={"user_id": "sam"}).json())
        assert "The coder indents with tabs" not in left and "Sam drinks oat milk" in left


def test_rest_bad_scopes_are_400_and_write_nothing(service: Service) -> None:
    with service.client("acme:write") as c:
        for body in (
            {"agent_id": "bad agent!"},
            {"run_id": ""},
            {"visibility": "team"},
            {"team_id": "eng"},
            {"visibility": "team", "team_id": "x" * 300},
        ):
            r = c.post("/v1/memories", json={"user_id": "val", "content": "never stored", **body})
            assert r.status_code == 400, (body, r.text)
            assert r.json()["type"].endswith("/invalid-scope-error"), r.text
        assert (
            c.post(
                "/v1/memories", json={"user_id": "val", "content": "x", "visibility": "everyone"}
            ).status_code
            == 422
        )
        assert (
            c.post("/v1/search", json={"user_id": "val", "query": "x", "agent_id": "a b"}).status_code == 400
        )
        assert c.get("/v1/memories", params={"user_id": "val", "run_id": "a\u0000b"}).status_code == 400
        assert c.get("/v1/memories", params={"user_id": "val"}).json() == []


def test_rest_teams_need_an_admin_key_and_share_team_rows(service: Service) -> None:
    with service.client("acme:write") as c:
        assert c.put("/v1/teams/ops/members/tia").status_code == 403
        c.post(
            "/v1/memories",
            json={
                "user_id": "uma",
                "content": "The ops rota changes on Mondays",
                "visibility": "team",
                "team_id": "ops",
            },
        )
        c.post("/v1/memories", json={"user_id": "uma", "content": "Uma's private note"})
    with service.client("acme:admin") as c:
        added = c.put("/v1/teams/ops/members/tia")
        assert added.status_code == 200 and added.json() == {
            "team_id": "ops",
            "user_id": "tia",
            "changed": True,
        }
        assert c.put("/v1/teams/ops/members/tia").json()["changed"] is False
        assert c.get("/v1/teams", params={"user_id": "tia"}).json() == ["ops"]
        assert c.put("/v1/teams/bad team!/members/tia").status_code == 400
        shared = c.get("/v1/memories", params={"user_id": "tia", "include_shared": "true"})
        assert shared.status_code == 200 and _contents(shared.json()) == {"The ops rota changes on Mondays"}
        assert shared.json()[0]["user_id"] == "uma"  # the tenant's own user id, not the stored key
        assert c.get("/v1/memories", params={"user_id": "tia"}).json() == []
    # the database shows tia's scope uma's team row, not uma's private one (RLS, as the service role)
    from neuromem.store import scope
    from neuromem.store.tenancy import scope_for

    with scope.bind(scope_for("acme", "tia")), service.memory.runtime.db.transaction() as conn:
        seen = {r["content"] for r in conn.execute("SELECT content FROM memories").fetchall()}
    assert seen == {"The ops rota changes on Mondays"}
    with service.client("acme:admin") as c:
        assert c.delete("/v1/teams/ops/members/tia").json()["changed"] is True
        assert c.get("/v1/teams", params={"user_id": "tia"}).json() == []


def test_mcp_tools_take_scopes(service: Service) -> None:
    headers = {"Authorization": f"Bearer {service.tokens['acme:write']}"}

    def data(result) -> object:  # type: ignore[no-untyped-def]
        assert not result.is_error, result.content
        if result.structured_content is not None:
            return result.structured_content.get("result", result.structured_content)
        return json.loads(result.content[0].text)

    async def main() -> None:
        client = Client(
            streamable_http_client(f"{service.url}/mcp", http_client=httpx2.AsyncClient(headers=headers))
        )
        async with client:
            tools = {t.name: t.input_schema for t in (await client.list_tools()).tools}
            assert {"agent_id", "run_id", "visibility", "team_id"} <= set(tools["remember"]["properties"])
            assert {"agent_id", "run_id"} <= set(tools["recall"]["properties"]) & set(
                tools["list_memories"]["properties"]
            )
            data(
                await client.call_tool(
                    "remember",
                    {"user_id": "vic", "content": "The scout agent likes maps", "agent_id": "scout"},
                )
            )
            data(await client.call_tool("remember", {"user_id": "vic", "content": "Vic likes hiking maps"}))
            mine = data(await client.call_tool("list_memories", {"user_id": "vic", "agent_id": "scout"}))
            theirs = data(await client.call_tool("list_memories", {"user_id": "vic", "agent_id": "guide"}))
            assert {m["content"] for m in mine} == {"The scout agent likes maps", "Vic likes hiking maps"}
            assert {m["content"] for m in theirs} == {"Vic likes hiking maps"}
            hits = data(
                await client.call_tool(
                    "recall", {"user_id": "vic", "query": "scout maps", "mode": "hits", "agent_id": "guide"}
                )
            )
            assert "The scout agent likes maps" not in {h["content"] for h in hits["hits"]}
            bad = await client.call_tool(
                "remember", {"user_id": "vic", "content": "x", "agent_id": "no spaces!"}
            )
            assert bad.is_error and "InvalidScopeError" in bad.content[0].text

    anyio.run(main)
    assert len(service.memory.get_all(user_id="t=acme/vic")) == 2


def test_search_and_recall_include_what_the_team_shares(service: Service) -> None:
    team, private = (
        "Kim's team note: the demo is on Thursday",
        "Kim's private note: the demo on Thursday scares me",
    )
    with service.client("acme:admin") as c:
        assert c.put("/v1/teams/demo/members/lee").status_code == 200
        c.post(
            "/v1/memories", json={"user_id": "kim", "content": team, "visibility": "team", "team_id": "demo"}
        )
        c.post("/v1/memories", json={"user_id": "kim", "content": private})
        c.post(
            "/v1/memories",
            json={
                "user_id": "kim",
                "content": "Kim's public note: demo tickets are free",
                "visibility": "public",
            },
        )
    with service.client("acme:read") as c:
        query = {"user_id": "lee", "query": "demo Thursday", "limit": 20}
        assert c.post("/v1/search", json=query).json()["hits"] == []
        hits = c.post("/v1/search", json={**query, "include_shared": True}).json()["hits"]
        found = {h["memory"]["content"]: h for h in hits}
        assert team in found and "Kim's public note: demo tickets are free" in found and private not in found
        assert found[team]["memory"]["user_id"] == "kim" and found[team]["score"]["extra"]["shared"] == 1.0
        block = c.post(
            "/v1/recall", json={"user_id": "lee", "query": "when is the demo?", "include_shared": True}
        )
        assert block.status_code == 200 and "Kim's team note" in block.json()["text"]
        assert "private" not in block.json()["text"]
        bad = c.post("/v1/search", json={**query, "include_shared": "sometimes"})
        assert bad.status_code == 422 and bad.headers["content-type"] == "application/problem+json"
    with service.client("default:read") as c:  # the same names in another tenant share nothing
        hits = c.post("/v1/search", json={"user_id": "lee", "query": "demo Thursday", "include_shared": True})
        assert hits.json()["hits"] == []

    async def main() -> None:
        headers = {"Authorization": f"Bearer {service.tokens['acme:read']}"}
        async with Client(
            streamable_http_client(f"{service.url}/mcp", http_client=httpx2.AsyncClient(headers=headers))
        ) as client:
            result = await client.call_tool(
                "recall", {"user_id": "lee", "query": "demo Thursday", "mode": "hits", "include_shared": True}
            )
            assert not result.is_error
            contents = {h["content"] for h in result.structured_content["hits"]}
            assert team in contents and private not in contents

    anyio.run(main)
