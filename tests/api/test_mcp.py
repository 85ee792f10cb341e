"""The MCP server through the official SDK's own client, over the real protocol:
streamable HTTP inside the running service, and stdio from ``memctl mcp``."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import anyio
import httpx2
import psycopg
from mcp.client import Client
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client

from tests.api.conftest import Service

ROOT = Path(__file__).resolve().parents[2]
TOOLS = {
    "remember",
    "recall",
    "forget",
    "list_memories",
    "traits",
    "record_procedure",
    "procedures",
    "conflicts",
    "resolve_conflict",
    "trait",
    "related",
    "add_document",
    "document_status",
    "consolidate_memory",
    "export_memory",
    "sync_markdown",
}


def _http(service: Service, token: str) -> Client:
    headers = {"Authorization": f"Bearer {service.tokens.get(token, token)}"}
    return Client(
        streamable_http_client(f"{service.url}/mcp", http_client=httpx2.AsyncClient(headers=headers))
    )


def _data(result) -> object:  # type: ignore[no-untyped-def]
    assert not result.is_error, result.content
    if result.structured_content is not None:
        return result.structured_content.get("result", result.structured_content)
    return json.loads(result.content[0].text)


def test_tools_over_streamable_http(service: Service) -> None:
    async def main() -> None:
        async with _http(service, "acme:write") as client:
            tools = {t.name: t for t in (await client.list_tools()).tools}
            assert set(tools) == TOOLS
            remember = tools["remember"].input_schema
            assert remember["properties"]["user_id"]["type"] == "string" and "user_id" in remember["required"]
            assert tools["recall"].input_schema["properties"]["mode"]["enum"] == ["prompt", "hits"]
            assert all(t.description and len(t.description) > 40 for t in tools.values())

            stored = _data(
                await client.call_tool(
                    "remember",
                    {"user_id": "mia", "content": "Mia is allergic to peanuts", "category": "identity"},
                )
            )
            assert stored["operations"] == {"add": 1}
            turns = [{"role": "user", "content": "I just started learning the violin and I live in Porto."}]
            learned = _data(await client.call_tool("remember", {"user_id": "mia", "messages": turns}))
            assert learned["written"]

            prompt = _data(
                await client.call_tool(
                    "recall", {"user_id": "mia", "query": "peanuts allergy", "token_budget": 200}
                )
            )
            assert "peanuts" in prompt["text"] and prompt["hits"]
            hits = _data(
                await client.call_tool("recall", {"user_id": "mia", "query": "peanuts", "mode": "hits"})
            )
            assert hits["text"] == "" and hits["hits"][0]["content"] == "Mia is allergic to peanuts"

            listed = _data(await client.call_tool("list_memories", {"user_id": "mia"}))
            assert "Mia is allergic to peanuts" in [m["content"] for m in listed]
            assert isinstance(_data(await client.call_tool("traits", {"user_id": "mia"})), list)

            forgotten = _data(
                await client.call_tool("forget", {"user_id": "mia", "memory_id": stored["written"][0]["id"]})
            )
            assert forgotten["counts"]["memories"] >= 1 and len(forgotten["digest"]) == 64
            listed = _data(await client.call_tool("list_memories", {"user_id": "mia"}))
            assert "Mia is allergic to peanuts" not in [m["content"] for m in listed]

            bad = await client.call_tool("remember", {"user_id": "mia"})
            assert bad.is_error
        # tenant isolation holds through MCP too: acme's mia is not default's mia
        assert service.memory.get_all(user_id="mia") == []
        assert service.memory.get_all(user_id="t=acme/mia")

        async with _http(service, "acme:read") as client:
            denied = await client.call_tool(
                "remember", {"user_id": "mia", "content": "read keys cannot write"}
            )
            assert denied.is_error and "scope" in denied.content[0].text

    anyio.run(main)


def test_mcp_forget_is_a_hard_forget_with_a_receipt(service: Service) -> None:
    """Issue 23 item 5: the tool named forget leaves no row holding the words (it was a soft delete)."""
    words = "Mia's locker code is 8841-zebra"

    async def main() -> None:
        async with _http(service, "acme:write") as client:
            stored = _data(await client.call_tool("remember", {"user_id": "noor", "content": words}))
            memory_id = stored["written"][0]["id"]
            forgotten = _data(await client.call_tool("forget", {"user_id": "noor", "memory_id": memory_id}))
            assert forgotten["counts"]["memories"] == 1
            receipts = service.memory.forget_receipts(user_id="t=acme/noor")
            assert [str(r.id) for r in receipts] == [forgotten["receipt_id"]]
            assert receipts[0].proves(memory_id) and receipts[0].actor == "mcp"

    anyio.run(main)
    with psycopg.connect(service.memory.runtime.db.server.url) as conn:
        kept = conn.execute("SELECT count(*) FROM memories WHERE content LIKE '%8841-zebra%'").fetchone()
        history = conn.execute(
            "SELECT count(*) FROM memory_history WHERE new_content LIKE '%8841-zebra%' "
            "OR old_content LIKE '%8841-zebra%'"
        ).fetchone()
    assert kept == (0,) and history == (0,)


def test_http_mcp_needs_a_key(service: Service) -> None:
    with service.client(None) as c:
        r = c.post(
            "/mcp",
            json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
            headers={"accept": "application/json, text/event-stream"},
        )
    assert r.status_code == 401 and r.headers["www-authenticate"] == "Bearer"


def test_tools_over_stdio(service: Service) -> None:
    env = {
        "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT)]),
        "NEUROMEM_DATABASE_URL": service.settings.store.database_url.get_secret_value(),
        "NEUROMEM_EMBEDDER": "hashing",
        "NEUROMEM_EMBEDDER__DIM": str(service.settings.store.embedding_dim),
        "NEUROMEM_EMBEDDING_DIM": str(service.settings.store.embedding_dim),
        "NEUROMEM_TRAITS__REFLECT_ON_INGEST": "false",
    }
    params = StdioServerParameters(
        command=sys.executable, env=env, args=["-c", "from neuromem.cli.main import main; main()", "mcp"]
    )

    async def main() -> None:
        async with Client(params) as client:  # the SDK spawns `memctl mcp` and speaks JSON-RPC on its stdio
            assert {t.name for t in (await client.list_tools()).tools} == TOOLS
            _data(
                await client.call_tool("remember", {"user_id": "stdio", "content": "Noor sails on weekends"})
            )
            hits = _data(
                await client.call_tool("recall", {"user_id": "stdio", "query": "sails", "mode": "hits"})
            )
            assert hits["hits"][0]["content"] == "Noor sails on weekends"

    anyio.run(main)
    assert [m.content for m in service.memory.get_all(user_id="stdio")] == ["Noor sails on weekends"]
