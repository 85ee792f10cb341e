"""Issue 22 item 10: the rendered ``memory.md`` shows no stray comment fragment (a comment nested
inside another ends it early, and a Markdown renderer shows what follows)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from neuromem import Memory

U = "alice"
COMMENT = re.compile(r"<!--.*?-->", re.S)  # how HTML and Markdown renderers read a comment


@pytest.mark.parametrize("language", ["en", "zh"])
def test_memory_md_renders_without_comment_fragments(memory: Memory, tmp_path: Path, language: str) -> None:
    memory.add("I work at Google", user_id=U)
    memory.add("I prefer tea over coffee", user_id=U, category="preference")
    memory.sync_markdown(tmp_path, user_id=U, language=language)
    for name in ("memory.md", "learnings.md"):
        shown = COMMENT.sub("", (tmp_path / name).read_text(encoding="utf-8"))
        assert "-->" not in shown and "nm:" not in shown and "<!--" not in shown, (name, shown)
    assert "I work at Google" in COMMENT.sub("", (tmp_path / "memory.md").read_text(encoding="utf-8"))
