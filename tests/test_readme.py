"""The README runs as written (issue 12 item 8): its Python blocks in order, in one namespace,
against this test's database (``Memory()`` and ``Memory.from_env()`` get the test settings
injected), and its ``memctl`` lines through the command line."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

import neuromem
from neuromem import Memory, Settings

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text("utf-8")
FENCE = re.compile(r"^```(\w+)\n(.*?)^```", re.S | re.M)
NOT_RUN = {"reembed": "asks for confirmation and re-embeds the whole store at another dimension"}


def section(title: str) -> str:
    start = README.index(f"## {title}")
    end = README.find("\n## ", start + 3)
    return README[start:] if end < 0 else README[start:end]


def blocks(lang: str, text: str = README) -> list[str]:
    return [m.group(2) for m in FENCE.finditer(text) if m.group(1) == lang]


def commands(block: str) -> list[list[str]]:
    found = []
    for line in block.splitlines():
        words = shlex.split(line, comments=True)
        if words:
            found.append(words)
    return found


def test_set_up_is_exactly_two_commands() -> None:
    [block] = blocks("bash", section("Set-up"))
    assert commands(block) == [["make", "demo"], ["make", "test"]]
    makefile = (ROOT / "Makefile").read_text("utf-8")
    assert re.search(r"^demo: ", makefile, re.M) and re.search(r"^test: ", makefile, re.M)


def test_python_examples_run_as_written(
    settings: Settings, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    class ReadmeMemory(Memory):
        def __init__(self, given: Settings | None = None, **kwargs) -> None:  # type: ignore[no-untyped-def]
            super().__init__(given or settings, **kwargs)

        @classmethod
        def from_env(cls, **sections) -> ReadmeMemory:  # type: ignore[no-untyped-def,override]
            return cls(settings)

    monkeypatch.setattr(neuromem, "Memory", ReadmeMemory)
    monkeypatch.chdir(tmp_path)
    code = blocks("python")
    assert len(code) >= 4
    namespace: dict = {}
    try:
        for n, block in enumerate(code):
            exec(compile(block, f"README.md python block {n + 1}", "exec"), namespace)
    finally:
        if "m" in namespace:
            namespace["m"].close()
    assert isinstance(namespace["m"], ReadmeMemory)


def test_command_line_examples_run_as_written(
    memctl, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.chdir(tmp_path)  # the files the examples name, as a user would have them
    (tmp_path / "history.jsonl").write_text(
        '{"session_id": "s1", "role": "user", "content": "I prefer green tea in the morning", '
        '"timestamp": "2024-04-20T10:00:00+00:00"}\n',
        encoding="utf-8",
    )
    (tmp_path / "notes.md").write_text("# Notes\n\nThe boat is moored in Annecy.\n", encoding="utf-8")
    [block] = blocks("bash", section("The command line"))
    lines = commands(block)
    assert len(lines) >= 15 and all(words[0] == "memctl" for words in lines)
    memory_id = None
    for words in lines:
        args = words[1:]
        if args[0] in NOT_RUN:
            continue
        if args[0] == "worker":
            args.append("--once")  # it runs until stopped; one pass shows it works
        if "MEMORY_ID" in args:
            assert memory_id is not None
            args = [memory_id if a == "MEMORY_ID" else a for a in args]
        result = memctl(*args)
        assert result.exit_code == 0, (words, result.output)
        if args[0] == "add":
            memory_id = result.output.split()[1]
