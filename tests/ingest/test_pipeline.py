"""The ingest pipeline end to end on the embedded PostgreSQL, rule-based extractor (offline)."""

from __future__ import annotations

import datetime as dt

import psycopg
import pytest
from psycopg.rows import dict_row

from neuromem import Memory
from neuromem.errors import InvalidInputError, SessionNotFoundError
from neuromem.types import MemoryType, Operation

T0 = dt.datetime(2024, 3, 13, 10, 0, tzinfo=dt.UTC)


def rows(memory: Memory, query: str, *params: object) -> list[dict]:
    with psycopg.connect(memory.settings.store.database_url.get_secret_value(), row_factory=dict_row) as conn:
        return conn.execute(query, params).fetchall()


def test_add_messages_runs_the_pipeline_zh_and_en(memory: Memory) -> None:
    results = memory.add(
        [
            {
                "role": "user",
                "content": "你好！我在阿里巴巴工作。我很喜欢喝咖啡。昨天我去了西湖，特别开心。",
                "timestamp": T0,
            },
            {"role": "assistant", "content": "太好了，西湖很美。", "timestamp": T0},
            {"role": "user", "content": "Thanks! I also love sushi.", "timestamp": T0},
        ],
        user_id="u1",
        session_id="s1",
    )
    assert [r.operation for r in results] == [Operation.ADD] * 4
    by_content = {r.memory.content: r.memory for r in results}
    job = by_content["我在阿里巴巴工作。"]
    assert job.memory_type is MemoryType.FACT and job.category == "identity" and job.language == "zh"
    assert job.metadata["slot"] == "employer" and job.metadata["extractor"] == "rules"
    trip = by_content["昨天我去了西湖，特别开心。"]
    assert trip.memory_type is MemoryType.EPISODIC
    assert trip.valid_at == dt.datetime(2024, 3, 12, tzinfo=dt.UTC)  # against the turn's time, not now
    assert trip.metadata["time"]["text"] == "昨天"
    assert trip.metadata["emotion"]["label"] == "happy"
    assert by_content["I also love sushi."].language == "en"
    assert by_content["I also love sushi."].category == "preference"
    # turns kept, assistant turn not mined
    msgs = rows(memory, "SELECT seq, role, raw_chunk_sha256 FROM conversation_messages ORDER BY seq")
    assert [m["role"] for m in msgs] == ["user", "assistant", "user"]
    assert all(m["raw_chunk_sha256"] for m in msgs)
    session = rows(memory, "SELECT message_count, ended_at, metadata FROM conversation_sessions")[0]
    assert session["message_count"] == 3 and session["ended_at"] is None
    assert session["metadata"]["memories_written"] == 4


def test_report_counts_small_talk_and_low_importance(memory: Memory) -> None:
    report = memory.ingest(
        [
            {"role": "user", "content": "hi", "timestamp": T0},
            {"role": "user", "content": "ok thanks!", "timestamp": T0},
            {"role": "user", "content": "What time is it?", "timestamp": T0},
            {"role": "user", "content": "The weather is nice.", "timestamp": T0},
        ],
        user_id="u1",
        session_id="s1",
    )
    assert report.results == []
    assert report.dropped["small_talk"] == 2
    assert report.dropped["question"] == 1
    assert report.dropped["below_threshold"] == 1
    events = rows(memory, "SELECT kind, detail FROM pipeline_events")
    assert events[0]["kind"] == "candidates_dropped" and events[0]["detail"]["counts"]["small_talk"] == 2


def test_provenance_points_to_the_exact_raw_words(memory: Memory) -> None:
    text = "Good morning. My name is Lin Wei and I work at Tencent. Anyway, bye."
    [result] = [
        r
        for r in memory.add({"role": "user", "content": text, "timestamp": T0}, user_id="u1", session_id="s1")
        if "Tencent" in r.memory.content
    ]
    ref = result.memory.raw_refs[0]
    assert text[ref["offset"] : ref["offset"] + ref["length"]] == result.memory.content
    source = memory.sources(result.memory.id, user_id="u1")
    assert source.quotes == (result.memory.content,)
    assert source.messages[0]["session_id"] == "s1" and source.messages[0]["content"] == text
    edges = rows(
        memory, "SELECT edge_type, properties FROM graph_edges WHERE source_id = %s", result.memory.id
    )
    derived = [e for e in edges if e["edge_type"] == "DERIVED_FROM"]
    assert derived and derived[0]["properties"]["raw_ref"] == ref


def test_contradiction_invalidates_the_older_fact(memory: Memory) -> None:
    later = T0 + dt.timedelta(days=30)
    [old] = memory.add(
        {"role": "user", "content": "I work at Google.", "timestamp": T0}, user_id="u1", session_id="s1"
    )
    [new] = memory.add(
        {"role": "user", "content": "I now work at Microsoft.", "timestamp": later},
        user_id="u1",
        session_id="s2",
    )
    assert new.operation is Operation.UPDATE and new.previous_id == old.memory.id  # issue 21: a value update
    before = memory.get(old.memory.id, user_id="u1")
    assert before.invalid_at == later and before.expired_at is None
    current = [m.content for m in memory.get_all(user_id="u1")]
    assert current == ["I now work at Microsoft."]
    # still stored, with its event-time end: what held between T0 and `later`
    every = {m.content: m for m in memory.get_all(user_id="u1", include_inactive=True)}
    assert every["I work at Google."].valid_at == T0 and every["I work at Google."].invalid_at == later
    assert any(
        h.actor == "ingest:rules" and h.event == "UPDATE" for h in memory.history(old.memory.id, user_id="u1")
    )
    edges = rows(
        memory, "SELECT edge_type, source_id, target_id, invalid_at FROM graph_edges ORDER BY created_at"
    )
    assert {
        "edge_type": "CONTRADICTS",
        "source_id": new.memory.id,
        "target_id": old.memory.id,
        "invalid_at": None,
    } in edges
    works = [e for e in edges if e["edge_type"] == "works_at"]
    assert len(works) == 2 and sum(e["invalid_at"] is None for e in works) == 1


def test_same_fact_twice_is_noop_and_restated_value_supports(memory: Memory) -> None:
    msg = {"role": "user", "content": "I live in Berlin.", "timestamp": T0}
    [first] = memory.add(msg, user_id="u1", session_id="s1")
    assert memory.add(msg, user_id="u1", session_id="s1") == []  # the same turn again: already stored
    later = {**msg, "timestamp": T0 + dt.timedelta(minutes=5)}  # the same words said again later
    [again] = memory.add(later, user_id="u1", session_id="s1")
    assert again.operation is Operation.NOOP and again.memory.id == first.memory.id
    [other] = memory.add(
        {"role": "user", "content": "I still live in Berlin, Germany.", "timestamp": T0},
        user_id="u1",
        session_id="s1",
    )
    edges = rows(memory, "SELECT edge_type FROM graph_edges WHERE source_id = %s", other.memory.id)
    assert "SUPPORTS" in {e["edge_type"] for e in edges}


def test_entities_are_deduplicated_with_mentions(memory: Memory) -> None:
    memory.add(
        {"role": "user", "content": "I visited Paris yesterday with my sister.", "timestamp": T0},
        user_id="u1",
        session_id="s1",
    )
    memory.add(
        {"role": "user", "content": "I want to go back to PARIS next month.", "timestamp": T0},
        user_id="u1",
        session_id="s1",
    )
    nodes = rows(
        memory, "SELECT name, aliases, mention_count FROM graph_nodes WHERE normalized_name = 'paris'"
    )
    assert (
        len(nodes) == 1 and nodes[0]["mention_count"] == 2 and set(nodes[0]["aliases"]) == {"Paris", "PARIS"}
    )
    mentions = rows(memory, "SELECT count(*) AS n FROM graph_edges WHERE edge_type = 'MENTIONS'")
    assert mentions[0]["n"] >= 2


def test_episodes_are_chained_in_time(memory: Memory) -> None:
    memory.add(
        [
            {"role": "user", "content": "Yesterday I went hiking with my dog.", "timestamp": T0},
            {"role": "user", "content": "Last week I visited my grandma in Shanghai.", "timestamp": T0},
        ],
        user_id="u1",
        session_id="s1",
    )
    memory.add(
        {"role": "user", "content": "Today I finished the marathon!", "timestamp": T0},
        user_id="u1",
        session_id="s1",
    )
    assert len(rows(memory, "SELECT 1 FROM graph_edges WHERE edge_type = 'TEMPORAL_NEXT'")) == 2


def test_sessions_end_explicitly_and_by_idle_timeout(memory: Memory) -> None:
    seen = []
    memory.on_session_end(seen.append)
    memory.add({"role": "user", "content": "I like tea.", "timestamp": T0}, user_id="u1", session_id="a")
    memory.add(
        {"role": "user", "content": "I like jazz.", "timestamp": T0 + dt.timedelta(hours=2)},
        user_id="u1",
        session_id="b",
    )
    assert [(e.session_id, e.reason) for e in seen] == [("a", "idle")]
    assert seen[0].ended_at == T0 and seen[0].importance_sum > 0
    end = memory.end_session(user_id="u1", session_id="b")
    assert end.reason == "explicit" and seen[-1] == end
    with pytest.raises(SessionNotFoundError):
        memory.end_session(user_id="u1", session_id="b")
    assert rows(memory, "SELECT count(*) AS n FROM conversation_sessions WHERE ended_at IS NULL")[0]["n"] == 0


def test_bad_messages_raise_typed_errors_and_write_nothing(memory: Memory) -> None:
    for bad in (
        [],
        [{"role": "robot", "content": "x"}],
        [{"role": "user", "content": ""}],
        [{"role": "user", "content": "hi", "timestamp": "yesterday"}],
        ["text"],
    ):
        with pytest.raises(InvalidInputError):
            memory.add(bad, user_id="u1", session_id="s1")
    assert rows(memory, "SELECT count(*) AS n FROM conversation_messages")[0]["n"] == 0


def test_sensitive_memories_are_tagged_never_traits(memory: Memory) -> None:
    [r] = memory.add(
        {"role": "user", "content": "I have diabetes and I need to take insulin daily.", "timestamp": T0},
        user_id="u1",
        session_id="s1",
    )
    assert r.memory.metadata["sensitive"] == ["health"] and r.memory.metadata["trait_eligible"] is False


def test_same_event_told_twice_is_linked_same_as(memory: Memory) -> None:
    memory.add(
        {
            "role": "user",
            "content": "Yesterday I went to the Louvre museum with my wife and kids.",
            "timestamp": T0,
        },
        user_id="u1",
        session_id="s1",
    )
    [again] = memory.add(
        {
            "role": "user",
            "content": "Yesterday I went to the Louvre museum with my wife.",
            "timestamp": T0 + dt.timedelta(hours=3),
        },
        user_id="u1",
        session_id="s2",
    )
    assert again.operation is Operation.ADD
    same = rows(memory, "SELECT source_id, weight FROM graph_edges WHERE edge_type = 'SAME_AS'")
    assert [r["source_id"] for r in same] == [again.memory.id] and same[0]["weight"] >= 0.85


def test_caller_metadata_reaches_every_memory_and_single_memory_options_are_refused(memory: Memory) -> None:
    results = memory.add(
        [{"role": "user", "content": "I like tea. I live in Oslo.", "timestamp": T0}],
        user_id="u1",
        session_id="s1",
        metadata={"app": "demo"},
    )
    assert len(results) == 2 and all(r.memory.metadata["app"] == "demo" for r in results)
    with pytest.raises(InvalidInputError):
        memory.add([{"role": "user", "content": "I like jazz."}], user_id="u1", importance=0.9)


def test_the_same_session_idle_too_long_ends_and_continues(memory: Memory) -> None:
    seen = []
    memory.on_session_end(seen.append)
    memory.add({"role": "user", "content": "I like tea.", "timestamp": T0}, user_id="u1", session_id="a")
    memory.add(
        {"role": "user", "content": "I like jazz.", "timestamp": T0 + dt.timedelta(hours=1)},
        user_id="u1",
        session_id="a",
    )
    assert [(e.session_id, e.reason, e.ended_at) for e in seen] == [("a", "idle", T0)]
    session = rows(memory, "SELECT message_count, ended_at FROM conversation_sessions")[0]
    assert session == {"message_count": 2, "ended_at": None}


def test_near_duplicate_is_an_update_that_supersedes(memory: Memory) -> None:
    [first] = memory.add(
        {"role": "user", "content": "My sister Anna is a nurse.", "timestamp": T0},
        user_id="u1",
        session_id="s1",
    )
    [second] = memory.add(
        {"role": "user", "content": "My sister Anna is a nurse!", "timestamp": T0},
        user_id="u1",
        session_id="s1",
    )
    assert second.operation is Operation.UPDATE and second.previous_id == first.memory.id
    assert memory.get(first.memory.id, user_id="u1").superseded_by == second.memory.id
    assert second.memory.raw_refs and second.memory.raw_refs != first.memory.raw_refs


def test_raw_chunks_can_live_in_a_directory(settings, tmp_path) -> None:  # type: ignore[no-untyped-def]
    with Memory(
        settings.with_updates(ingest={"raw_chunk_dir": str(tmp_path / "raw"), "pii_mode": "redact"})
    ) as m:
        [r] = m.add(
            {"role": "user", "content": "我的手机号是13812345678，我住在深圳。", "timestamp": T0},
            user_id="u1",
            session_id="s1",
        )
        assert "13812345678" not in r.memory.content  # redacted (the default, mark, keeps a phone number)
        files = list((tmp_path / "raw").rglob("*.zst"))
        assert len(files) == 1 and files[0].name == f"{r.memory.raw_refs[0]['sha256']}.zst"
        assert m.sources(r.memory.id, user_id="u1").quotes == (r.memory.content,)
        stored = rows(m, "SELECT data, path FROM raw_chunks")[0]
        assert stored["data"] is None and stored["path"] == str(files[0])
