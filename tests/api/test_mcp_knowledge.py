"""The MCP tools beyond remember / recall (issue 26 item 4) through the official ``mcp`` SDK client over
streamable HTTP in a live service: procedures, conflicts, a trait's evidence chain, the graph, documents,
consolidation, export and markdown sync. Each tool acts for the key's tenant only; bad input is a tool
error that writes nothing."""

from __future__ import annotations

import anyio

from tests.api.conftest import Service
from tests.api.test_mcp import _data, _http
from tests.reflect.helpers import day, say

KNOWLEDGE_TOOLS = {
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


def test_procedures_conflicts_and_the_graph(service: Service) -> None:
    async def main() -> None:
        async with _http(service, "acme:write") as client:
            tools = {t.name: t for t in (await client.list_tools()).tools}
            assert set(tools) >= KNOWLEDGE_TOOLS
            assert all(len(tools[n].description or "") > 40 for n in KNOWLEDGE_TOOLS)
            steps = ["run tests", "build image", "push"]
            first = _data(
                await client.call_tool(
                    "record_procedure",
                    {
                        "user_id": "kai",
                        "name": "Deploy the API",
                        "steps": steps,
                        "outcome": "new version live",
                    },
                )
            )
            assert first["successes"] == 1 and first["steps"] == steps
            _data(
                await client.call_tool(
                    "record_procedure", {"user_id": "kai", "name": "deploy the api", "steps": steps}
                )
            )
            [known] = _data(await client.call_tool("procedures", {"user_id": "kai"}))
            assert known["name"] == "Deploy the API" and known["successes"] == 2
            assert (
                await client.call_tool("record_procedure", {"user_id": "kai", "name": "x", "steps": [" "]})
            ).is_error
            assert len(_data(await client.call_tool("procedures", {"user_id": "kai"}))) == 1

            for text, trust in (("I work at Google.", 1.0), ("I work at Apple.", 0.4)):  # an open conflict
                service.memory.ingest(
                    [{"role": "user", "content": text}],
                    user_id="t=acme/kai",
                    session_id=text,
                    metadata={"source_trust": trust},
                )
            [item] = _data(await client.call_tool("conflicts", {"user_id": "kai"}))
            assert item["status"] == "open" and {item["old"]["content"], item["new"]["content"]} >= {
                "I work at Apple."
            }
            bad = await client.call_tool(
                "resolve_conflict", {"user_id": "kai", "conflict_id": item["id"], "keep": "x"}
            )
            assert bad.is_error and "not a memory id" in bad.content[0].text
            done = _data(
                await client.call_tool(
                    "resolve_conflict",
                    {"user_id": "kai", "conflict_id": item["id"], "keep": item["new"]["id"]},
                )
            )
            assert done["status"] == "resolved" and done["winner_id"] == item["new"]["id"]
            assert _data(await client.call_tool("conflicts", {"user_id": "kai"})) == []

            learned = _data(
                await client.call_tool(
                    "remember",
                    {
                        "user_id": "kai",
                        "session_id": "g",
                        "messages": [
                            {
                                "role": "user",
                                "content": "I moved to Berlin last May and I work at Initech as a data engineer.",
                            }
                        ],
                    },
                )
            )
            berlin = next(w for w in learned["written"] if "Berlin" in w["content"])
            graph = _data(await client.call_tool("related", {"user_id": "kai", "memory_id": berlin["id"]}))
            assert graph["memory"]["id"] == berlin["id"] and graph["kinds"]["MENTIONS"] >= 1
            assert any(n["name"] == "Berlin" and n["edge_type"] == "MENTIONS" for n in graph["neighbours"])
        async with _http(service, "default:write") as client:  # another tenant's kai has none of it
            assert _data(await client.call_tool("procedures", {"user_id": "kai"})) == []
            missing = await client.call_tool("related", {"user_id": "kai", "memory_id": berlin["id"]})
            assert missing.is_error and "NotFound" in missing.content[0].text

    anyio.run(main)


def test_a_traits_evidence_chain(service: Service) -> None:
    user = "t=acme/tia"
    say(service.memory, user, day(0), ["I went jogging in the park this morning"], session="s1")
    say(service.memory, user, day(1), ["Another jogging session along the river today"], session="s2")
    say(service.memory, user, day(2), ["jogging again before breakfast, felt great"], session="s3")
    assert service.memory.reflect(user_id=user, now=day(2.5)).created == 1

    async def main() -> None:
        async with _http(service, "acme:read") as client:
            [listed] = _data(await client.call_tool("traits", {"user_id": "tia"}))
            detail = _data(await client.call_tool("trait", {"user_id": "tia", "trait_id": listed["id"]}))
            assert detail["id"] == listed["id"] and "jogging" in detail["content"]
            assert len(detail["supporting"]) == 3 and all(
                "jogging" in e["content"] for e in detail["supporting"]
            )
            assert detail["contradicting"] == [] and detail["stage"] == "emerging"
            assert (await client.call_tool("trait", {"user_id": "tia", "trait_id": "nope"})).is_error
            assert (
                await client.call_tool("trait", {"user_id": "someone", "trait_id": listed["id"]})
            ).is_error

    anyio.run(main)


def test_documents_consolidation_export_and_markdown(service: Service) -> None:
    async def main() -> None:
        async with _http(service, "acme:write") as client:
            doc = _data(
                await client.call_tool(
                    "add_document",
                    {
                        "user_id": "lena",
                        "file_name": "notes.md",
                        "text": "# Trip\nThe ferry to Hvar leaves at 9.",
                    },
                )
            )
            assert doc["file_name"] == "notes.md" and doc["chunk_count"] >= 1
            with anyio.fail_after(30):
                while (
                    state := _data(
                        await client.call_tool("document_status", {"user_id": "lena", "file_id": doc["id"]})
                    )
                )["state"] != "ready":
                    await anyio.sleep(0.05)
            assert state["chunks"] == doc["chunk_count"]
            hits = _data(
                await client.call_tool("recall", {"user_id": "lena", "query": "ferry Hvar", "mode": "hits"})
            )
            assert any("ferry to Hvar" in h["content"] for h in hits["hits"])
            assert (
                await client.call_tool("add_document", {"user_id": "lena", "file_name": "x", "text": ""})
            ).is_error

            _data(
                await client.call_tool("remember", {"user_id": "lena", "content": "Lena collects postcards"})
            )
            report = _data(await client.call_tool("consolidate_memory", {"user_id": "lena", "dry_run": True}))
            assert report["dry_run"] is True and report["concepts"]["user_id"] == "lena"
            only = _data(
                await client.call_tool("consolidate_memory", {"user_id": "lena", "steps": ["archive"]})
            )
            assert only["compress"] is None and only["archive"]["user_id"] == "lena"
            assert (
                await client.call_tool("consolidate_memory", {"user_id": "lena", "steps": ["defrag"]})
            ).is_error

            exported = _data(await client.call_tool("export_memory", {"user_id": "lena"}))
            assert exported["format"] == "markdown" and "Lena collects postcards" in exported["text"]
            as_json = _data(await client.call_tool("export_memory", {"user_id": "lena", "format": "json"}))
            assert '"tables"' in as_json["text"]

            files = _data(await client.call_tool("sync_markdown", {"user_id": "lena"}))["files"]
            assert "Lena collects postcards" in files["memory.md"]
            edited = files["memory.md"].replace(
                "## Known facts\n", "## Known facts\n- Lena sails on Sundays\n"
            )
            synced = _data(
                await client.call_tool("sync_markdown", {"user_id": "lena", "files": {"memory.md": edited}})
            )
            assert synced["added"] == 1
            listed = _data(await client.call_tool("list_memories", {"user_id": "lena"}))
            assert "Lena sails on Sundays" in {m["content"] for m in listed}
        async with _http(service, "acme:read") as client:  # writes need a write key
            denied = await client.call_tool(
                "record_procedure", {"user_id": "lena", "name": "n", "steps": ["s"]}
            )
            assert denied.is_error and "scope" in denied.content[0].text

    anyio.run(main)
