"""Issue 22 item 10: small defects a new user met in the first hour, from the command line."""

from __future__ import annotations

from pathlib import Path

from neuromem import Memory

U = "newcomer"


def test_memctl_list_keeps_one_row_per_memory_when_the_content_has_line_breaks(
    memctl,
    memory: Memory,  # type: ignore[no-untyped-def]
) -> None:
    memory.add("Shopping list:\n- oat milk\n\n- matcha powder", user_id=U)
    memory.add("I live in Hangzhou", user_id=U)
    out = memctl("list", "-u", U)
    assert out.exit_code == 0, out.output
    rows = out.output.strip().splitlines()
    assert len(rows) == 2, rows
    assert any(row.endswith("Shopping list: ↵ - oat milk ↵ - matcha powder") for row in rows)
    found = memctl("search", "-u", U, "matcha powder shopping")
    assert "Shopping list: ↵ - oat milk" in found.output and "\n- oat milk" not in found.output


def test_a_bad_jsonl_line_is_reported_by_its_own_number(memctl, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "chat.jsonl"
    path.write_text(
        '{"session_id": "s1", "role": "user", "content": "hello"}\n'
        '{"session_id": "s1", "role": "user", "content": "oops"\n',
        encoding="utf-8",
    )
    out = memctl("ingest", "-u", U, str(path), "--no-progress")
    assert out.exit_code != 0
    assert "line 2" in out.output and "line 1" not in out.output, out.output


def test_docs_api_describes_export_and_forget_as_they_are() -> None:
    from neuromem import Memory as Facade

    text = (Path(__file__).parents[2] / "docs" / "api.md").read_text(encoding="utf-8")
    assert "not on this branch" not in text
    for name in ("export", "import_file", "forget", "delete"):
        assert f"`Memory.{name}`" in text and callable(getattr(Facade, name))
