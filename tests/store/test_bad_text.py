"""The raw exceptions of issue #12 item 6, one by one: each is now a typed ``InvalidInputError``
subclass and writes nothing (the fuzz in ``test_fuzz_public_api.py`` covers the combinations)."""

from __future__ import annotations

import json
from pathlib import Path

import psycopg
import pytest

from neuromem import InvalidInputError, Memory
from neuromem.errors import InvalidFilterError, InvalidMetadataError, InvalidTextError, OutOfRangeError

TABLES = ("memories", "memory_history", "conversation_messages", "document_files", "raw_chunks")


def _counts(url: str) -> tuple[int, ...]:
    with psycopg.connect(url) as conn:
        row = conn.execute("SELECT " + ", ".join(f"(SELECT count(*) FROM {t})" for t in TABLES)).fetchone()
    assert row is not None
    return tuple(row)


def _deep(depth: int) -> dict:
    node: dict = {}
    for _ in range(depth):
        node = {"k": node}
    return node


CASES = {
    "surrogate content": (lambda m: m.add("I like \ud800 tea", user_id="u"), InvalidTextError),
    "surrogate message": (
        lambda m: m.ingest([{"role": "user", "content": "tea \udfff"}], user_id="u", session_id="s"),
        InvalidInputError,
    ),
    "surrogate document": (
        lambda m: m.add_document("notes \ud83d", user_id="u", file_name="a.txt"),
        InvalidTextError,
    ),
    "NUL metadata key": (lambda m: m.add("tea", user_id="u", metadata={"a\x00": 1}), InvalidMetadataError),
    "NUL metadata value": (
        lambda m: m.add("tea", user_id="u", metadata={"a": ["x\x00"]}),
        InvalidMetadataError,
    ),
    "NUL category": (lambda m: m.add("tea", user_id="u", category="pref\x00"), InvalidTextError),
    "NUL document text": (
        lambda m: m.add_document("a\x00b", user_id="u", file_name="a.txt"),
        InvalidTextError,
    ),
    "NUL file_name": (lambda m: m.add_document("text", user_id="u", file_name="a\x00.txt"), InvalidTextError),
    "metadata 10,000 deep": (
        lambda m: m.add("tea", user_id="u", metadata=_deep(10_000)),
        InvalidMetadataError,
    ),
    "filter 10**400": (
        lambda m: m.search("tea", user_id="u", filters={"importance": {"gt": 10**400}}),
        InvalidFilterError,
    ),
    "metadata filter 10**400": (
        lambda m: m.get_all(user_id="u", filters={"metadata.n": 10**400}),
        InvalidFilterError,
    ),
    "offset 10**30": (lambda m: m.get_all(user_id="u", offset=10**30), OutOfRangeError),
    "NUL in filter value": (
        lambda m: m.search("tea", user_id="u", filters={"category": "a\x00"}),
        InvalidFilterError,
    ),
    "importance 10**400": (lambda m: m.add("tea", user_id="u", importance=10**400), InvalidInputError),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_bad_value_is_typed_and_writes_nothing(memory: Memory, db_url: str, case: str) -> None:
    call, error = CASES[case]
    memory.add("I drink green tea every morning", user_id="u")
    before = _counts(db_url)
    with pytest.raises(error):
        call(memory)
    assert _counts(db_url) == before


def test_import_file_with_a_lone_surrogate_keeps_the_good_turns(memory: Memory, tmp_path: Path) -> None:
    path = tmp_path / "export.jsonl"
    lines = [
        {"session_id": "s1", "role": "user", "content": "I adopted a cat named Mochi"},
        {"session_id": "s1", "role": "user", "content": "broken \ud800 turn"},
    ]
    path.write_text(
        "\n".join(json.dumps(x) for x in lines) + "\n", encoding="utf-8"
    )  # \ud800 escaped in JSON
    summary = memory.import_chat_export(path, user_id="u")
    assert summary.turns_ingested == 1 and len(summary.rejected) == 1
    assert "surrogate" in str(summary.rejected[0])
    nested = tmp_path / "deep.json"
    nested.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    with pytest.raises(InvalidInputError):
        memory.import_chat_export(nested, user_id="u")
