"""Input accepted but dropped, or refused whole (issue 12 item 3b)."""

from __future__ import annotations

import datetime as dt
import uuid

import psycopg
import pytest
from psycopg.rows import dict_row

from neuromem import Memory, Operation
from neuromem.errors import EmptyContentError, InvalidTurnError
from neuromem.reflect.observations import from_row

T0 = dt.datetime(2024, 5, 2, 18, 0, tzinfo=dt.UTC)


def rows(memory: Memory, query: str, *params: object) -> list[dict]:
    with psycopg.connect(memory.settings.store.database_url.get_secret_value(), row_factory=dict_row) as conn:
        return conn.execute(query, params).fetchall()


def test_add_text_with_a_session_id_gets_that_session_as_its_source(memory: Memory) -> None:
    [r] = memory.add("I'm allergic to penicillin.", user_id="u", session_id="visit-7")
    [source] = memory.sources(r.memory.id, user_id="u").messages
    assert source["session_id"] == "visit-7" and source["message_id"] is None
    assert r.memory.metadata["session_id"] == "visit-7"
    with pytest.raises(InvalidTurnError):
        memory.add("I like tea.", user_id="u", session_id="  ")


def test_sources_return_message_ids_and_metadata(memory: Memory) -> None:
    report = memory.ingest(
        [
            {
                "role": "user",
                "content": "I work at Siemens in Munich.",
                "timestamp": T0,
                "metadata": {"message_id": "wa-991", "channel": "whatsapp"},
            },
            {"role": "user", "content": "My daughter Lea is 8 years old.", "timestamp": T0, "id": 992},
        ],
        user_id="u",
        session_id="s",
    )
    stored = {r["content"]: r["id"] for r in rows(memory, "SELECT id, content FROM conversation_messages")}
    by_content = {}
    for result in report.results:
        [message] = memory.sources(result.memory.id, user_id="u").messages
        by_content[message["content"]] = message
    siemens = by_content["I work at Siemens in Munich."]
    assert siemens["metadata"] == {"message_id": "wa-991", "channel": "whatsapp"}
    assert siemens["message_id"] == stored["I work at Siemens in Munich."]
    assert by_content["My daughter Lea is 8 years old."]["metadata"] == {"message_id": 992}


def test_a_bad_message_is_reported_and_the_good_ones_are_stored(memory: Memory) -> None:
    batch = [
        {"role": "user", "content": "I live in Porto.", "timestamp": T0},
        {"role": "user", "content": "   "},
        {"role": "robot", "content": "beep"},
        {"role": "user", "content": "I'm allergic to penicillin.", "timestamp": T0},
    ]
    report = memory.ingest(batch, user_id="u", session_id="s")
    assert report.turns == 2 and [r.index for r in report.rejected] == [1, 2]
    assert isinstance(report.rejected[0].error, EmptyContentError)
    assert isinstance(report.rejected[1].error, InvalidTurnError)
    assert {m.content for m in memory.get_all(user_id="u")} >= {
        "I live in Porto.",
        "I'm allergic to penicillin.",
    }
    with pytest.raises(EmptyContentError):  # all or nothing on request
        memory.ingest(batch, user_id="strict", session_id="s", strict=True)
    assert memory.get_all(user_id="strict") == []
    assert (
        rows(memory, "SELECT count(*) AS n FROM conversation_messages WHERE user_id = 'strict'")[0]["n"] == 0
    )
    with pytest.raises(EmptyContentError):  # nothing acceptable at all: refused loudly
        memory.ingest([{"role": "user", "content": ""}], user_id="u", session_id="s")


def test_an_over_long_turn_is_stored_as_a_document_citing_the_turn(memory: Memory) -> None:
    log_lines = "\n".join(
        f"2024-05-02 18:{i % 60:02d}:00 worker-{i} ERR_CONN_RESET upstream timeout" for i in range(560)
    )
    pasted = "Here is the crash log:\n" + log_lines + "\nThe root cause is the zanzibar-proxy certificate."
    assert len(pasted) > 31_000
    report = memory.ingest(
        [
            {"role": "user", "content": pasted, "timestamp": T0},
            {"role": "user", "content": "I work at Initech.", "timestamp": T0},
        ],
        user_id="u",
        session_id="s",
    )
    assert report.turns == 2 and report.rejected == [] and len(report.documents) == 1
    [message] = rows(memory, "SELECT id, content FROM conversation_messages WHERE content LIKE 'Here is%%'")
    assert message["content"] == pasted  # kept whole
    chunks = memory.get_all(user_id="u", filters={"memory_type": "document"}, limit=1000)
    assert len(chunks) == report.documents[0].chunk_count >= 2
    assert all(memory.sources(c.id, user_id="u").messages[0]["message_id"] == message["id"] for c in chunks)
    hits = memory.search("zanzibar-proxy certificate", user_id="u", limit=5)
    assert any("zanzibar" in h.memory.content for h in hits)
    assert any(r.memory.content == "I work at Initech." for r in report.results)


def test_the_speaker_is_searchable_and_others_do_not_become_the_users_traits(memory: Memory) -> None:
    chat = [
        {"role": "user", "name": "Melanie", "content": "I painted a sunrise last weekend.", "timestamp": T0},
        {"role": "user", "name": "Caroline", "content": "I adopted a puppy named Biscuit.", "timestamp": T0},
        {"role": "user", "name": "Caroline", "content": "I love hiking in the Alps.", "timestamp": T0},
    ]
    report = memory.ingest(chat, user_id="melanie", session_id="group")
    by_speaker = {r.memory.metadata["speaker"]: r.memory.metadata["speaker_is_user"] for r in report.results}
    assert by_speaker == {"Melanie": True, "Caroline": False}
    hits = memory.search("What did Caroline say?", user_id="melanie", limit=3)
    assert hits and hits[0].memory.metadata["speaker"] == "Caroline"
    # a one-to-one chat: the single name is the user's
    [solo] = memory.ingest(
        [{"role": "user", "name": "Mel", "content": "I love jazz.", "timestamp": T0}],
        user_id="melanie",
        session_id="dm",
    ).results
    assert solo.memory.metadata["speaker_is_user"] is True
    # reflection sees no observation in another person's words
    row = {
        "id": uuid.uuid4(),
        "content": "I love hiking in the Alps.",
        "memory_type": "fact",
        "observed_at": T0,
        "metadata": {"speaker": "Caroline", "speaker_is_user": False},
    }
    assert from_row(row) is None
    assert from_row({**row, "metadata": {"speaker": "Melanie", "speaker_is_user": True}}) is not None


def test_memctl_ingest_says_which_messages_were_rejected(memctl, tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "chat.jsonl"
    path.write_text(
        '{"role": "user", "content": "I live in Porto."}\n{"role": "user", "content": ""}\n', encoding="utf-8"
    )
    result = memctl("ingest", "-u", "u", "--no-progress", str(path))
    assert result.exit_code == 0, result.output
    assert "1 turns ingested" in result.output
    assert "rejected: session default, message 1: message 1 content is empty" in result.output


def test_reflection_builds_traits_from_the_users_turns_only(memory: Memory) -> None:
    start = dt.datetime(2025, 3, 3, 9, 0, tzinfo=dt.UTC)
    lines = [
        "I went jogging in the park this morning",
        "I went jogging along the river this morning",
        "I went jogging before breakfast this morning, felt great",
    ]
    for n, text in enumerate(lines):
        when = start + dt.timedelta(days=n)
        [theirs] = memory.ingest(
            [
                {"role": "user", "name": "Caroline", "content": text, "timestamp": when},
                {"role": "user", "name": "Melanie", "content": "Nice!", "timestamp": when},
            ],
            user_id="melanie",
            session_id=f"group-{n}",
        ).results
        assert theirs.memory.metadata["speaker_is_user"] is False  # kept, searchable, but Caroline's
    memory.reflect(user_id="melanie", now=start + dt.timedelta(days=2.5))
    assert [t for t in memory.traits(user_id="melanie").all() if "jogging" in t.content] == []
    for n, text in enumerate(lines):  # the same words from the user herself: her own memories, and a trait
        [own] = memory.ingest(
            [{"role": "user", "name": "Melanie", "content": text, "timestamp": start + dt.timedelta(days=n)}],
            user_id="melanie",
            session_id=f"dm-{n}",
        ).results
        assert own.operation is Operation.ADD  # not a NOOP of Caroline's identical words
        assert own.memory.metadata["speaker_is_user"] is True
    memory.reflect(user_id="melanie", now=start + dt.timedelta(days=2.6))
    assert [t for t in memory.traits(user_id="melanie").all() if "jogging" in t.content]
