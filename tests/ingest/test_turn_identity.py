"""Turn identity (issue 12 item 1): resume and retries recognise stored turns by key, never by count."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import psycopg
import pytest
from psycopg.rows import dict_row

from neuromem import Memory
from neuromem.ingest.turns import parse_turns
from neuromem.store import migrate
from tests.conftest import base_settings, fresh_database

T0 = dt.datetime(2024, 4, 1, 9, 0, tzinfo=dt.UTC)
MONDAY = ["I live in Berlin.", "I work at Siemens.", "My sister Anna is a nurse.", "I like green tea."]
TUESDAY = [
    "I'm allergic to penicillin.",
    "My son is 8 years old.",
    "I play chess on Sundays.",
    "My car is a red Toyota Corolla.",
]


def count(memory: Memory, query: str) -> int:
    with psycopg.connect(memory.settings.store.database_url.get_secret_value(), row_factory=dict_row) as conn:
        return int(conn.execute(query).fetchone()["n"])  # type: ignore[index]


def export(path: Path, texts: list[str], *, start: dt.datetime | None, session: str | None = None) -> Path:
    lines = []
    for i, text in enumerate(texts):
        line: dict = {"role": "user", "content": text}
        if start is not None:
            line["timestamp"] = (start + dt.timedelta(minutes=i)).isoformat()
        if session is not None:
            line["session_id"] = session
        lines.append(json.dumps(line))
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


def contents(memory: Memory, user: str) -> set[str]:
    return {m.content for m in memory.get_all(user_id=user, limit=1000)}


@pytest.mark.parametrize(
    ("session", "dated"),
    [(None, True), ("chat", False)],
    ids=["no-session-ids-dated", "reused-session-id-undated"],
)
def test_a_second_export_loses_nothing(
    memory: Memory, tmp_path: Path, session: str | None, dated: bool
) -> None:
    monday = export(tmp_path / "monday.jsonl", MONDAY, start=T0 if dated else None, session=session)
    tuesday = export(
        tmp_path / "tuesday.jsonl",
        TUESDAY,
        start=T0 + dt.timedelta(days=1) if dated else None,
        session=session,
    )
    memory.import_chat_export(monday, user_id="u")
    summary = memory.import_chat_export(tuesday, user_id="u")
    assert (summary.turns_skipped, summary.turns_ingested) == (0, 4)
    assert count(memory, "SELECT count(*) AS n FROM conversation_messages") == 8
    assert set(MONDAY + TUESDAY) <= contents(memory, "u")
    assert any("penicillin" in h.memory.content for h in memory.search("penicillin?", user_id="u", limit=10))
    # importing either file again stores nothing twice
    again = memory.import_chat_export(tuesday, user_id="u")
    assert (again.turns_skipped, again.turns_ingested) == (4, 0)
    assert count(memory, "SELECT count(*) AS n FROM conversation_messages") == 8
    assert len(memory.get_all(user_id="u", limit=1000)) == len(contents(memory, "u"))


def test_an_import_after_add_without_session_skips_nothing(memory: Memory, tmp_path: Path) -> None:
    memory.add(
        [{"role": "user", "content": "I live in Lisbon."}, {"role": "user", "content": "I like jazz."}],
        user_id="u",
    )
    summary = memory.import_chat_export(export(tmp_path / "later.jsonl", TUESDAY, start=None), user_id="u")
    assert (summary.turns_skipped, summary.turns_ingested) == (0, 4)
    assert set(TUESDAY) <= contents(memory, "u")


def test_an_interrupted_import_resumes_without_loss_or_duplicates(memory: Memory, tmp_path: Path) -> None:
    texts = [f"I visited museum number {i} in Madrid." for i in range(9)] + TUESDAY
    path = export(tmp_path / "long.jsonl", texts, start=None)
    done: list[int] = []

    def crash_after_two_batches(n: int) -> None:
        done.append(n)
        if len(done) == 2:
            raise KeyboardInterrupt  # the user presses Ctrl-C mid-import

    with pytest.raises(KeyboardInterrupt):
        memory.import_chat_export(path, user_id="u", batch_size=4, progress=crash_after_two_batches)
    stored = count(memory, "SELECT count(*) AS n FROM conversation_messages")
    assert 0 < stored < len(texts)
    summary = memory.import_chat_export(path, user_id="u", batch_size=4)
    assert summary.turns_skipped == stored and summary.turns_skipped + summary.turns_ingested == len(texts)
    assert count(memory, "SELECT count(*) AS n FROM conversation_messages") == len(texts)
    assert count(memory, "SELECT count(DISTINCT content) AS n FROM conversation_messages") == len(texts)
    assert set(texts) <= contents(memory, "u")


def test_a_retried_ingest_is_skipped_and_repeated_words_are_kept(memory: Memory) -> None:
    batch = [
        {"role": "user", "content": "ok", "timestamp": T0},
        {"role": "user", "content": "ok", "timestamp": T0},
        {"role": "user", "content": "I like tea.", "metadata": {"message_id": "m-3"}},
    ]
    first = memory.ingest(batch, user_id="u", session_id="s")
    assert (first.turns, first.skipped) == (3, 0)  # "ok" twice in one batch is two turns
    retry = memory.ingest(batch, user_id="u", session_id="s")  # a network retry of the same call
    assert (retry.turns, retry.skipped) == (0, 3)
    live = memory.ingest([{"role": "user", "content": "ok"}], user_id="u", session_id="s")
    assert live.turns == 1  # an undated live turn is a new event: "ok" said again is kept
    assert count(memory, "SELECT count(*) AS n FROM conversation_messages") == 4


def test_migration_0004_keys_old_turns_as_python_does(pg_server: str) -> None:
    settings = base_settings()
    url = fresh_database(pg_server, template=False)
    messages = [
        {"role": "user", "content": "I like tea.", "timestamp": T0, "name": "Ann"},
        {"role": "user", "content": "I like tea.", "timestamp": T0, "name": "Ann"},
        {"role": "assistant", "content": "Noted!", "timestamp": T0 + dt.timedelta(microseconds=7)},
        {"role": "user", "content": "Bye", "timestamp": T0, "metadata": {"message_id": 42}},
    ]
    with psycopg.connect(url, autocommit=True) as conn:
        migrate.migrate(conn, settings, target=3)
        conn.execute(
            "INSERT INTO conversation_sessions (id, user_id, external_id) VALUES (gen_random_uuid(), 'u', 's')"
        )
        for seq, m in enumerate(messages):
            conn.execute(
                """INSERT INTO conversation_messages (id, user_id, session_id, seq, role, speaker, content, sent_at,
                                                      content_hash, metadata)
                   SELECT gen_random_uuid(), 'u', id, %s, %s, %s, %s, %s, 'x', %s FROM conversation_sessions""",
                (
                    seq,
                    m["role"],
                    m.get("name"),
                    m["content"],
                    m["timestamp"],
                    json.dumps(m.get("metadata", {})),
                ),
            )
        migrate.migrate(conn, settings)
        stored = [r[0] for r in conn.execute("SELECT turn_key FROM conversation_messages ORDER BY seq")]
    assert stored == [t.key for t in parse_turns(messages, settings, now=dt.datetime.now(dt.UTC)).turns]


def test_an_edited_message_under_the_same_id_is_stored_not_skipped(memory: Memory) -> None:
    first = {"role": "user", "content": "I'm allergic to peanuts.", "timestamp": T0, "id": "m-1"}
    edited = {**first, "content": "I'm allergic to peanuts and penicillin."}
    assert memory.ingest([first], user_id="u", session_id="s").turns == 1
    assert memory.ingest([first], user_id="u", session_id="s").skipped == 1  # a retry
    assert memory.ingest([edited], user_id="u", session_id="s").turns == 1  # the edit: new words, kept
    assert memory.ingest([edited], user_id="u", session_id="s").skipped == 1  # and stored once
    assert count(memory, "SELECT count(*) AS n FROM conversation_messages") == 2
