"""Export → import into a fresh database: every row back, the same recall; idempotent, all or nothing."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from neuromem import Memory
from neuromem.errors import ExportFormatError, ExportVersionError
from tests.conftest import base_settings, fresh_database

from .helpers import U, populate

QUERIES = ("where does she work?", "乌龙茶", "favourite editor", "jogging", "Lisbon hotel")


def hits(memory: Memory) -> list[list[tuple[str, str]]]:
    return [
        [(str(h.memory.id), h.memory.content) for h in memory.search(q, user_id=U, limit=5)] for q in QUERIES
    ]


def test_export_then_import_into_a_fresh_database_gives_the_same_rows_and_hits(
    memory: Memory, pg_server: str, tmp_path: Path
) -> None:
    populate(memory)
    path = tmp_path / "alice.jsonl"
    report = memory.export(path, user_id=U)
    header = json.loads(path.read_text(encoding="utf-8").splitlines()[0])
    assert header["format"] == "neuromem.export" and header["version"] == 1
    for table in (
        "memories",
        "memory_history",
        "memory_sources",
        "conversation_messages",
        "raw_chunks",
        "graph_nodes",
        "graph_edges",
        "trait_evidence",
        "document_files",
        "reflection_cycles",
    ):
        assert report.rows[table] > 0, table
    before = hits(memory)
    assert all(before)
    with Memory(base_settings(store={"database_url": fresh_database(pg_server)})) as other:
        imported = other.import_file(path)
        assert imported.inserted == report.rows and imported.reembedded == 0
        assert hits(other) == before
        # every row came back byte for byte: a second export holds the same rows
        again = io.StringIO()
        other.export(again, user_id=U)
        assert _rows(again.getvalue()) == _rows(path.read_text(encoding="utf-8"))
        # versions, history with actors and the original words survive
        [helix] = [m for m in other.get_all(user_id=U) if "helix" in m.content]
        assert helix.version == 2
        assert next((h.event.value, h.actor) for h in other.history(helix.id, user_id=U)) == ("ADD", "user")
        [trait] = [t for t in other.traits(user_id=U).all() if "jogging" in t.content]
        assert len(other.trait(trait.id, user_id=U).supporting) == 3
        assert other.recall_prompt("where does she work?", user_id=U).text
        # idempotent: the same file again inserts nothing
        second = other.import_file(path)
        assert second.total_inserted == 0 and second.skipped == report.rows


def _rows(text: str) -> list[str]:
    return sorted(text.splitlines()[1:])


def test_a_different_dimension_is_re_embedded(memory: Memory, pg_server: str, tmp_path: Path) -> None:
    populate(memory)
    path = tmp_path / "alice.jsonl"
    memory.export(path, user_id=U)
    settings = base_settings(32, store={"database_url": fresh_database(pg_server, 32), "embedding_dim": 32})
    with Memory(settings) as other:
        report = other.import_file(path)
        assert report.reembedded == report.inserted["memories"] > 0
        other.flush()  # the turns' vectors follow from the backfill thread, as after an ingest
        assert other.pending_embeddings() == 0
        assert [h.memory.content for h in other.search("favourite editor", user_id=U, limit=1)] == [
            "My favourite editor is helix now"
        ]


def test_the_readable_json_imports_and_markdown_reads(memory: Memory, pg_server: str, tmp_path: Path) -> None:
    populate(memory)
    memory.export(tmp_path / "alice.json", user_id=U)
    document = json.loads((tmp_path / "alice.json").read_text(encoding="utf-8"))
    assert "embedding" not in document["tables"]["memories"][0]
    memory.export(tmp_path / "alice.md", user_id=U)
    page = (tmp_path / "alice.md").read_text(encoding="utf-8")
    assert "# Memory of alice" in page and "helix" in page and "乌龙茶" in page
    assert "“jogging again before breakfast, felt great”" in page  # a trait's evidence, in the original words
    with Memory(base_settings(store={"database_url": fresh_database(pg_server)})) as other:
        report = other.import_file(tmp_path / "alice.json")
        assert report.reembedded == report.inserted["memories"]
        assert other.search("乌龙茶", user_id=U, limit=1)[0].memory.content.startswith("我喜欢喝乌龙茶")


def test_a_newer_format_a_damaged_file_and_a_stranger_row_are_refused_and_nothing_is_written(
    memory: Memory, pg_server: str, tmp_path: Path
) -> None:
    populate(memory)
    buffer = io.StringIO()
    memory.export(buffer, user_id=U)
    header, *lines = buffer.getvalue().splitlines()
    newer = json.dumps({**json.loads(header), "version": 99})
    truncated = "\n".join([header, *lines[:-3]])
    stranger = json.loads(lines[0])
    stranger["row"]["user_id"] = "mallory"
    cases = {
        "newer": ("\n".join([newer, *lines]), ExportVersionError, "format version 99"),
        "truncated": (truncated, ExportFormatError, "incomplete"),
        "stranger": ("\n".join([header, json.dumps(stranger), *lines[1:]]), ExportFormatError, "mallory"),
        "not ours": ('{"hello": 1}\n', ExportFormatError, "not a neuromem export"),
    }
    with Memory(base_settings(store={"database_url": fresh_database(pg_server)})) as other:
        for name, (text, error, words) in cases.items():
            with pytest.raises(error, match=words):
                other.import_file(io.StringIO(text))
            assert other.get_all(user_id=U, include_inactive=True) == [], name


def test_memctl_export_and_import(memctl, memory: Memory, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    memory.add("I prefer window seats", user_id=U)
    out = memctl("export", "-u", U, str(tmp_path / "a.jsonl"))
    assert out.exit_code == 0 and "exported" in out.output
    memory.reset(user_id=U)
    out = memctl("import", str(tmp_path / "a.jsonl"))
    assert out.exit_code == 0 and "imported" in out.output
    assert [m.content for m in memory.get_all(user_id=U)] == ["I prefer window seats"]
    (tmp_path / "bad.jsonl").write_text('{"format": "neuromem.export", "version": 7}\n', encoding="utf-8")
    bad = memctl("import", str(tmp_path / "bad.jsonl"))
    assert bad.exit_code == 2 and "ExportVersionError" in bad.output
