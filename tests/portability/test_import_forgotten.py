"""Issue 22 item 5: importing an old export does not bring back what ``forget`` erased."""

from __future__ import annotations

import datetime as dt
import hashlib
from pathlib import Path

import pytest
from click.testing import CliRunner

from neuromem import Memory
from neuromem.errors import InvalidInputError
from neuromem.portability.tombstones import Tombstones

from .helpers import U, populate


def _contents(memory: Memory) -> set[str]:
    return {m.content for m in memory.get_all(user_id=U, include_inactive=True)}


def test_an_old_export_does_not_bring_back_what_forget_erased(memory: Memory, tmp_path: Path) -> None:
    populate(memory)
    old = tmp_path / "before-forget.jsonl"
    memory.export(old, user_id=U)
    [helix] = [m for m in memory.get_all(user_id=U) if "helix" in m.content]
    memory.forget(user_id=U, memory_id=helix.id)
    memory.forget(user_id=U, session_id="chat-1")
    after_forget = _contents(memory)
    assert not any("helix" in c or "vim" in c or "Google" in c or "乌龙茶" in c for c in after_forget)

    report = memory.import_file(old)

    assert _contents(memory) == after_forget  # nothing erased came back, nothing kept was touched
    assert report.forgotten["memories"] >= 3  # both versions of the editor fact, and the chat's memories
    assert report.forgotten["conversation_messages"] == 3 and report.forgotten["conversation_sessions"] == 1
    assert report.forgotten.get("memory_history", 0) >= 2  # the history of what went goes with it
    assert report.total_inserted == 0
    # the owner's own restore brings everything back
    restored = memory.import_file(old, include_forgotten=True)
    assert restored.forgotten == {} and restored.inserted["memories"] == report.forgotten["memories"]
    assert any("helix" in c for c in _contents(memory)) and any("乌龙茶" in c for c in _contents(memory))
    with pytest.raises(InvalidInputError, match="include_forgotten"):
        memory.import_file(old, include_forgotten="yes")  # type: ignore[arg-type]


def test_words_written_again_after_the_forget_are_not_tombstoned() -> None:
    forgot_at = dt.datetime(2026, 5, 1, tzinfo=dt.UTC)
    words = "I prefer window seats"
    stones = Tombstones(
        [
            {
                "id_sha256": [hashlib.sha256(b"old-id").hexdigest()],
                "content_sha256": [hashlib.sha256(words.encode()).hexdigest()],
                "created_at": forgot_at,
            }
        ]
    )
    before = {"id": "other-id", "content": words, "created_at": "2026-04-30T10:00:00+00:00"}
    after = {"id": "new-id", "content": words, "created_at": "2026-05-02T10:00:00+00:00"}
    assert stones.forgotten("memories", {"id": "old-id", "content": "anything"})
    assert stones.forgotten("memories", before)  # the same words, written before the forget
    assert not stones.forgotten("memories", after)  # said again after it: the user's new statement
    # what points at a forgotten row goes with it, even inside JSON
    assert stones.forgotten("graph_edges", {"id": "e1", "properties": {"memory_id": "other-id"}})
    assert not stones.forgotten("graph_edges", {"id": "e2", "properties": {"memory_id": "new-id"}})


def test_memctl_import_reports_the_skipped_rows_and_asks_before_restoring(
    memctl,
    memory: Memory,
    tmp_path: Path,  # type: ignore[no-untyped-def]
) -> None:
    [kept] = memory.add("I prefer window seats", user_id=U)
    [gone] = memory.add("My locker code is 4412", user_id=U)
    assert kept.memory and gone.memory
    path = tmp_path / "a.jsonl"
    assert memctl("export", "-u", U, str(path)).exit_code == 0
    memory.forget(user_id=U, memory_id=gone.memory.id)
    out = memctl("import", str(path))
    assert out.exit_code == 0, out.output
    assert "skipped" in out.output and "--include-forgotten" in out.output
    assert _contents(memory) == {"I prefer window seats"}
    from neuromem.cli.main import cli

    refused = CliRunner().invoke(cli, ["import", "--include-forgotten", str(path)], input="n\n")
    assert refused.exit_code == 1 and "Continue?" in refused.output
    assert _contents(memory) == {"I prefer window seats"}
    confirmed = CliRunner().invoke(cli, ["import", "--include-forgotten", str(path)], input="y\n")
    assert confirmed.exit_code == 0, confirmed.output
    assert _contents(memory) == {"I prefer window seats", "My locker code is 4412"}
    memory.forget(user_id=U, memory_id=gone.memory.id)
    scripted = memctl("import", "--include-forgotten", "--yes", str(path))
    assert scripted.exit_code == 0 and "Continue?" not in scripted.output
    assert _contents(memory) == {"I prefer window seats", "My locker code is 4412"}
