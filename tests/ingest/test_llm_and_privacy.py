"""LLM extractor and decisions through the fake OpenAI-compatible server; PII modes; documents; resume."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import ClassVar

import psycopg
import pytest
from click.testing import CliRunner
from psycopg.rows import dict_row

from neuromem import Memory
from neuromem.cli.main import cli
from neuromem.errors import DocumentNotFoundError, PIIRejectedError
from neuromem.types import MemoryType, Operation
from tests.fakes.openai_server import FakeError

T0 = dt.datetime(2024, 3, 13, 10, 0, tzinfo=dt.UTC)
TURN = {"role": "user", "content": "我上周三去了上海出差，见了老同学。", "timestamp": T0}
GOOD = json.dumps(
    {
        "memories": [
            {
                "turn": 1,
                "quote": "我上周三去了上海出差",
                "content": "用户上周三去上海出差",
                "type": "episodic",
                "importance": 0.6,
                "entities": [{"name": "上海", "type": "place"}],
                "keywords": ["出差"],
                "time_expression": "上周三",
                "topic": "出差",
            }
        ],
        "small_talk_turns": [],
    },
    ensure_ascii=False,
)


class Router:
    """Scripted replies per task, chosen by the prompt (other callers, e.g. background reflection,
    get the fake's default reply and cannot consume ours)."""

    MARKERS: ClassVar[dict[str, str]] = {
        "extract": "You extract long-term memories",
        "decide": "You maintain an assistant's long-term memory",
    }

    def __init__(self, fake) -> None:  # type: ignore[no-untyped-def]
        self.extract: list = []
        self.decide: list = []
        self.seen: list[dict] = []
        fake.default_chat = self

    def __call__(self, request: dict):  # type: ignore[no-untyped-def]
        system = request["messages"][0]["content"]
        for name, marker in self.MARKERS.items():
            if marker in system:
                self.seen.append(request)
                queue = getattr(self, name)
                return queue.pop(0) if queue else "{}"
        return "{}"


def ours(memory: Memory) -> list[dict]:
    return rows(
        memory,
        "SELECT operation, ok FROM model_usage WHERE operation IN ('extract_memories', "
        "'decide_operation') ORDER BY created_at, id",
    )


def rows(memory: Memory, query: str, *params: object) -> list[dict]:
    with psycopg.connect(memory.settings.store.database_url.get_secret_value(), row_factory=dict_row) as conn:
        return conn.execute(query, params).fetchall()


@pytest.fixture
def router(fake_openai) -> Router:  # type: ignore[no-untyped-def]
    return Router(fake_openai)


@pytest.fixture
def llm_memory(settings, fake_openai):  # type: ignore[no-untyped-def]
    m = Memory(settings.with_updates(llm={"base_url": fake_openai.base_url, "max_retries": 0}))
    yield m
    m.close()


def test_llm_extraction_good_answer(llm_memory: Memory, router: Router) -> None:
    router.extract.append(GOOD)
    [r] = llm_memory.add(TURN, user_id="u1", session_id="s1")
    assert r.memory.memory_type is MemoryType.EPISODIC and r.memory.content == "用户上周三去上海出差"
    assert r.memory.metadata["extractor"] == "llm"
    assert r.memory.valid_at == dt.datetime(2024, 3, 6, tzinfo=dt.UTC)  # 上周三 from the turn's date
    assert "2024-03-13" in json.dumps(router.seen[0], ensure_ascii=False)  # the turn's own date
    assert ours(llm_memory) == [{"operation": "extract_memories", "ok": True}]


def test_llm_malformed_then_repaired_and_english_content_is_replaced_by_quote(llm_memory, router) -> None:  # type: ignore[no-untyped-def]
    english = GOOD.replace("用户上周三去上海出差", "The user went to Shanghai")
    router.extract.extend(["not json at all", english])
    [r] = llm_memory.add(TURN, user_id="u1", session_id="s1")
    assert r.memory.content == "我上周三去了上海出差"  # a memory is written in the language the user spoke
    assert [u["ok"] for u in ours(llm_memory)] == [False, True]


def test_llm_failure_falls_back_to_rules_and_is_recorded(llm_memory, router) -> None:  # type: ignore[no-untyped-def]
    router.extract.extend([FakeError(500, "down")] * 3)
    results = llm_memory.add(TURN, user_id="u1", session_id="s1")
    assert results and all(r.memory.metadata["extractor"] == "rules" for r in results)
    events = rows(llm_memory, "SELECT kind FROM pipeline_events WHERE kind = 'extraction_fallback'")
    assert len(events) == 1
    assert rows(llm_memory, "SELECT count(*) AS n FROM conversation_messages")[0]["n"] == 1


GOOD_FACT = GOOD.replace('"type": "episodic"', '"type": "fact"')  # the LLM decides only about facts


def test_llm_decides_noop_and_bad_target_falls_back(llm_memory, router) -> None:  # type: ignore[no-untyped-def]
    router.extract.append(GOOD_FACT)
    [first] = llm_memory.add(TURN, user_id="u1", session_id="s1")
    again = GOOD_FACT.replace("用户上周三去上海出差", "用户上周三到上海出差了")
    router.extract.append(again)
    router.decide.append(json.dumps({"operation": "NOOP", "target": 1}))
    [second] = llm_memory.add({**TURN, "content": TURN["content"] + "很累"}, user_id="u1", session_id="s1")
    assert second.operation is Operation.NOOP and second.memory.id == first.memory.id
    router.extract.append(again.replace("了", "啦"))
    router.decide.append(json.dumps({"operation": "DELETE", "target": 9}))
    [third] = llm_memory.add({**TURN, "content": TURN["content"] + "好累"}, user_id="u1", session_id="s1")
    assert third.operation is Operation.ADD  # out-of-range target → the rules decide
    assert (
        rows(llm_memory, "SELECT count(*) AS n FROM pipeline_events WHERE kind = 'decision_rejected'")[0]["n"]
        == 1
    )


@pytest.mark.parametrize("mode", ["redact", "keep", "reject", "mark"])
def test_pii_modes(settings, mode: str) -> None:  # type: ignore[no-untyped-def]
    text = "My email is lin.wei@example.com and I work at Tencent."
    with Memory(settings.with_updates(ingest={"pii_mode": mode})) as m:
        if mode == "reject":
            with pytest.raises(PIIRejectedError):
                m.add({"role": "user", "content": text, "timestamp": T0}, user_id="u1", session_id="s1")
            assert rows(m, "SELECT count(*) AS n FROM conversation_messages")[0]["n"] == 0
            return
        [r] = m.add({"role": "user", "content": text, "timestamp": T0}, user_id="u1", session_id="s1")
        stored = rows(m, "SELECT content FROM conversation_messages")[0]["content"]
        if mode == "redact":
            assert "@" not in r.memory.content and "@" not in stored and "[EMAIL]" in stored
        else:
            assert "lin.wei@example.com" in r.memory.content


def test_documents_upload_list_delete(memory: Memory) -> None:
    text = "# Guide\n\n" + "\n\n".join(f"Paragraph {i}: " + "word " * 120 for i in range(5))
    doc = memory.add_document(text, user_id="u1", file_name="guide.md", mime_type="text/markdown")
    assert doc.chunk_count >= 2
    again = memory.add_document(text, user_id="u1", file_name="guide.md", mime_type="text/markdown")
    assert again.id == doc.id  # the same bytes under the same name: the upload repeated
    chunks = memory.get_all(user_id="u1", filters={"memory_type": "document", "file_id": doc.id})
    assert sorted(c.content.split(":")[0][-11:] for c in chunks)  # rows exist in the document partition
    assert len(chunks) == doc.chunk_count
    assert [d.id for d in memory.list_documents(user_id="u1")] == [doc.id]
    memory.delete_document(doc.id, user_id="u1")
    assert memory.list_documents(user_id="u1") == []
    assert memory.get_all(user_id="u1", filters={"memory_type": "document"}) == []
    with pytest.raises(DocumentNotFoundError):
        memory.delete_document(doc.id, user_id="u1")


def test_the_same_text_under_another_name_is_recorded_under_that_name(memory: Memory) -> None:
    """Issue 23 item 7: the second upload used to return the first document, losing its name."""
    text = "Release notes.\n\n" + "\n\n".join(f"Change {i}: the exporter keeps field {i}." for i in range(30))
    first = memory.add_document(text, user_id="u1", file_name="notes-v1.txt")
    second = memory.add_document(text, user_id="u1", file_name="notes-copy.txt")
    assert second.id != first.id and second.file_name == "notes-copy.txt"
    assert second.chunk_count == first.chunk_count
    assert sorted(d.file_name for d in memory.list_documents(user_id="u1")) == [
        "notes-copy.txt",
        "notes-v1.txt",
    ]
    assert (
        len(
            memory.get_all(
                user_id="u1", filters={"memory_type": "document", "file_id": second.id}, limit=1000
            )
        )
        == second.chunk_count
    )
    memory.delete_document(first.id, user_id="u1")  # each name is a document of its own
    assert [d.file_name for d in memory.list_documents(user_id="u1")] == ["notes-copy.txt"]
    assert memory.add_document(text, user_id="u1", file_name="notes-copy.txt").id == second.id


def test_import_resumes_without_duplicates(memory: Memory, tmp_path: Path) -> None:
    lines = [
        {
            "session_id": f"s{s}",
            "role": "user",
            "content": f"I like dish number {s}-{i}.",
            "timestamp": (T0 + dt.timedelta(minutes=i)).isoformat(),
        }
        for s in range(2)
        for i in range(5)
    ]
    path = tmp_path / "chat.jsonl"
    path.write_text("\n".join(json.dumps(x) for x in lines), encoding="utf-8")
    partial = tmp_path / "partial.jsonl"  # an interrupted run: the first 3 turns of s0 only
    partial.write_text("\n".join(json.dumps(x) for x in lines[:3]), encoding="utf-8")
    memory.import_chat_export(partial, user_id="u1", batch_size=2)
    summary = memory.import_chat_export(path, user_id="u1", batch_size=2)
    assert (summary.turns_skipped, summary.turns_ingested) == (3, 7)
    assert rows(memory, "SELECT count(*) AS n FROM conversation_messages")[0]["n"] == 10
    seqs = rows(
        memory, "SELECT array_agg(seq ORDER BY seq) AS s FROM conversation_messages GROUP BY session_id"
    )
    assert all(r["s"] == [0, 1, 2, 3, 4] for r in seqs)
    assert memory.import_chat_export(path, user_id="u1").turns_ingested == 0


def test_cli_ingest_documents_and_session_end(settings, tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("NEUROMEM_DATABASE_URL", settings.store.database_url.get_secret_value())
    monkeypatch.setenv("NEUROMEM_EMBEDDER", "hashing")
    monkeypatch.setenv("NEUROMEM_EMBEDDER__DIM", "64")
    monkeypatch.setenv("NEUROMEM_EMBEDDING_DIM", "64")
    export = tmp_path / "chat.json"
    export.write_text(
        json.dumps(
            {
                "sessions": [
                    {
                        "session_id": "a",
                        "messages": [
                            {"role": "user", "content": "我住在北京。", "timestamp": T0.isoformat()},
                            {"role": "assistant", "content": "好的。", "timestamp": T0.isoformat()},
                        ],
                    }
                ]
            },
            ensure_ascii=False,
        )
    )
    runner = CliRunner()
    out = runner.invoke(cli, ["ingest", "-u", "u1", str(export), "--no-progress"])
    assert out.exit_code == 0, out.output
    assert "2 turns ingested" in out.output and "1 memories written" in out.output
    doc = tmp_path / "notes.md"
    doc.write_text("# Notes\n\nSome text.", encoding="utf-8")
    out = runner.invoke(cli, ["documents", "upload", "-u", "u1", str(doc)])
    assert out.exit_code == 0 and "notes.md" in out.output
    file_id = out.output.split()[0]
    assert file_id in runner.invoke(cli, ["documents", "list", "-u", "u1"]).output
    assert runner.invoke(cli, ["documents", "delete", "-u", "u1", file_id]).exit_code == 0
    out = runner.invoke(cli, ["session", "end", "-u", "u1", "a"])
    assert out.exit_code == 0 and "session a ended" in out.output
    assert runner.invoke(cli, ["session", "end", "-u", "u1", "a"]).exit_code != 0


def test_llm_windows_each_turn_batch_and_links_topics(settings, fake_openai, router) -> None:  # type: ignore[no-untyped-def]
    job = json.dumps(
        {
            "memories": [
                {
                    "turn": 1,
                    "quote": "I joined Stripe",
                    "content": "I joined Stripe as an engineer",
                    "type": "fact",
                    "category": "identity",
                    "importance": 0.9,
                    "slot": "employer",
                    "slot_value": "Stripe",
                    "topic": "career",
                    "relation": {"predicate": "works_at", "object": "Stripe", "object_type": "organization"},
                }
            ]
        }
    )
    s = settings.with_updates(
        llm={"base_url": fake_openai.base_url, "max_retries": 0}, ingest={"llm_turns_per_call": 1}
    )
    router.extract.extend([job, json.dumps({"memories": [], "small_talk_turns": [1]})])
    with Memory(s) as m:
        report = m.ingest(
            [
                {"role": "user", "content": "I joined Stripe last month.", "timestamp": T0},
                {"role": "user", "content": "thanks!", "timestamp": T0},
            ],
            user_id="u1",
            session_id="s1",
        )
        assert [r.memory.content for r in report.results] == ["I joined Stripe as an engineer"]
        assert report.dropped["small_talk"] == 1
        edges = {r["edge_type"] for r in rows(m, "SELECT edge_type FROM graph_edges")}
        assert {"works_at", "ABOUT", "DERIVED_FROM"} <= edges
        assert [u["operation"] for u in ours(m)] == ["extract_memories"] * 2


def test_async_memory_ingests_messages(settings) -> None:  # type: ignore[no-untyped-def]
    import asyncio

    from neuromem import AsyncMemory

    async def go() -> list:
        async with await AsyncMemory.create(settings) as m:
            results = await m.add(
                [{"role": "user", "content": "我住在成都。", "timestamp": T0}], user_id="u1", session_id="s1"
            )
            await m.end_session(user_id="u1", session_id="s1")
            return results

    [r] = asyncio.run(go())
    assert r.memory.content == "我住在成都。" and r.memory.metadata["slot"] == "residence"


def test_llm_delete_ends_the_old_memory_and_adds_the_new(llm_memory, router) -> None:  # type: ignore[no-untyped-def]
    router.extract.append(GOOD_FACT)
    [first] = llm_memory.add(TURN, user_id="u1", session_id="s1")
    moved = GOOD_FACT.replace("用户上周三去上海出差", "用户上周三没有去上海出差")
    later = {**TURN, "content": TURN["content"] + "其实取消了", "timestamp": T0 + dt.timedelta(days=1)}
    router.extract.append(moved)
    router.decide.append(json.dumps({"operation": "DELETE", "target": 1}))
    [second] = llm_memory.add(later, user_id="u1", session_id="s1")
    assert second.operation is Operation.UPDATE and second.previous_id == first.memory.id  # issue 21
    old = llm_memory.get(first.memory.id, user_id="u1")
    assert old.invalid_at is not None and old.expired_at is None
    actors = [h.actor for h in llm_memory.history(first.memory.id, user_id="u1")]
    assert "ingest:llm" in actors
    assert [u["operation"] for u in ours(llm_memory)][-1] == "decide_operation"


def test_episodes_are_append_only_the_llm_is_not_asked(llm_memory, router) -> None:  # type: ignore[no-untyped-def]
    """Seed 001 §2.3: an episode is never superseded nor ended, whatever an LLM would answer."""
    router.extract.append(GOOD)
    [first] = llm_memory.add(TURN, user_id="u1", session_id="s1")
    router.extract.append(GOOD.replace("用户上周三去上海出差", "用户上周三没有去上海出差"))
    router.decide.append(json.dumps({"operation": "DELETE", "target": 1}))
    later = {**TURN, "content": TURN["content"] + "其实取消了", "timestamp": T0 + dt.timedelta(days=1)}
    [second] = llm_memory.add(later, user_id="u1", session_id="s1")
    assert second.operation is Operation.ADD and second.previous_id is None
    old = llm_memory.get(first.memory.id, user_id="u1")
    assert old.invalid_at is None and old.expired_at is None
    assert router.decide == [json.dumps({"operation": "DELETE", "target": 1})]  # never consumed


def test_default_privacy_keeps_the_users_words_and_marks_them(memory: Memory, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Issue 21 item 5: the default ``mark`` keeps what was said, marks it in ``metadata.privacy``,
    redacts only secrets, and masks personal data in an export made for someone else."""
    assert memory.settings.ingest.pii_mode == "mark"
    text = "The address of my dentist is 666 Park Avenue and my API key is sk-abcdefghijklmnopqrstuvwx1234."
    [r] = memory.add({"role": "user", "content": text, "timestamp": T0}, user_id="u1", session_id="s1")
    content = r.memory.content
    assert "666 Park Avenue" in content and "sk-abc" not in content and "[SECRET]" in content
    [span] = r.memory.metadata["privacy"]
    assert span["kind"] == "address" and content[span["start"] : span["end"]].startswith("666 Park Avenue")
    stored = rows(memory, "SELECT content, metadata FROM conversation_messages")[0]
    assert "666 Park Avenue" in stored["content"] and stored["metadata"]["privacy"][0]["kind"] == "address"
    [added] = memory.add("My dentist's phone is (415) 555-0134.", user_id="u1")
    assert added.memory.metadata["privacy"][0]["kind"] == "phone"
    memory.export(tmp_path / "mine.json", user_id="u1")
    memory.export(tmp_path / "shared.json", user_id="u1", mask_pii=True)
    assert "666 Park Avenue" in (tmp_path / "mine.json").read_text()
    shared = (tmp_path / "shared.json").read_text()
    assert "666 Park Avenue" not in shared and "555-0134" not in shared and "[ADDRESS]" in shared


def _fact(quote: str) -> str:
    return json.dumps(
        {
            "memories": [
                {
                    "turn": 1,
                    "quote": quote,
                    "content": quote,
                    "type": "fact",
                    "category": "identity",
                    "importance": 0.8,
                }
            ],
            "small_talk_turns": [],
        }
    )


def test_value_update_llm_decides_and_the_rules_catch_its_failure(llm_memory, router) -> None:  # type: ignore[no-untyped-def]
    """Issue 21 item 1: with an LLM configured it decides the change (DELETE → the old value ends,
    an UPDATE with its reason); when its answer is unusable the offline rules end the old value."""
    ext = "My office phone extension is 4417."
    router.extract.append(_fact(ext))
    [first] = llm_memory.add({"role": "user", "content": ext, "timestamp": T0}, user_id="u1", session_id="s1")
    new = "My office phone extension changed, it is now 4492."
    router.extract.append(_fact(new))
    router.decide.append(json.dumps({"operation": "DELETE", "target": 1, "reason": "new extension"}))
    [second] = llm_memory.add(
        {"role": "user", "content": new, "timestamp": T0 + dt.timedelta(days=1)},
        user_id="u1",
        session_id="s1",
    )
    assert second.operation is Operation.UPDATE and second.previous_id == first.memory.id
    assert "new extension" in second.reason
    assert llm_memory.get(first.memory.id, user_id="u1").invalid_at is not None
    # no usable answer (the script is empty: "{}", or the LLM is not asked): the rules end the old value
    wifi = "Our wifi password is sunflower42."
    router.extract.append(_fact(wifi))
    [old] = llm_memory.add(
        {"role": "user", "content": wifi, "timestamp": T0 + dt.timedelta(days=2)},
        user_id="u1",
        session_id="s1",
    )
    changed = "We changed the wifi password to bluemoon7."
    router.extract.append(_fact(changed))
    [third] = llm_memory.add(
        {"role": "user", "content": changed, "timestamp": T0 + dt.timedelta(days=3)},
        user_id="u1",
        session_id="s1",
    )
    assert third.operation is Operation.UPDATE and third.previous_id == old.memory.id
    assert "value update" in third.reason  # the offline rule's reason, not the LLM's
