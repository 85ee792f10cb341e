"""What ``memctl setup AGENT`` writes into a coding agent's configuration, and how it is taken back.

Each agent gets the MCP server (``memctl mcp``) and two hooks — recall before a prompt is sent,
save the exchange after the reply — as JSON entries merged into the agent's own files:

- **Claude Code**: ``~/.claude.json`` ``mcpServers.neuromem`` (``DIR/.mcp.json`` with ``--project``)
  and ``~/.claude/settings.json`` ``hooks.UserPromptSubmit`` / ``hooks.Stop`` command hooks, whose
  stdout (``UserPromptSubmit``) Claude Code adds to the prompt's context;
- **Cursor**: ``~/.cursor/mcp.json`` ``mcpServers.neuromem`` and ``~/.cursor/hooks.json`` (``version``
  1) ``beforeSubmitPrompt`` / ``afterAgentResponse``. Cursor's ``beforeSubmitPrompt`` cannot add
  context (its answer is only ``continue``), so there recall reaches the agent through the MCP
  ``recall`` tool, and the hook only keeps the prompt for the save after the reply.

An entry is ours when it is equal to what we write: ``apply`` adds each one that is missing (run it
twice, nothing doubles), ``undo`` removes exactly those, drops the containers they leave empty and
deletes a file left with nothing else; every other key of the user's files is left as it was.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

AGENTS = ("claude-code", "cursor")
SERVER_NAME = "neuromem"


def memctl_command() -> list[str]:
    """How the agent should start ``memctl``: its absolute path when on PATH, else this Python with ``-m``
    (agents start commands with their own, often shorter, PATH)."""
    found = shutil.which("memctl")
    return [str(Path(found).resolve())] if found else [sys.executable, "-m", "neuromem.cli.main"]


@dataclass(frozen=True)
class Entry:
    """One JSON value at ``path`` inside ``file``: a mapping key (``list_item`` False) or an item appended
    to the list at ``path``."""

    file: Path
    path: tuple[str, ...]
    value: Any
    list_item: bool = False


@dataclass(frozen=True)
class Change:
    """A file and its contents before and after (``None``: the file does not exist)."""

    file: Path
    before: dict[str, Any] | None
    after: dict[str, Any] | None

    @property
    def changed(self) -> bool:
        return self.before != self.after


def plan(
    agent: str, *, user_id: str, home: Path, project: Path | None = None, memctl: list[str] | None = None
) -> list[Entry]:
    """The entries ``memctl setup AGENT`` owns."""
    base = memctl or memctl_command()

    def hook(*args: str) -> str:
        return shlex.join([*base, "hook", *args, "--agent", agent, "--user-id", user_id])

    mcp = {"command": base[0], "args": [*base[1:], "mcp"], "env": {}}
    if agent == "claude-code":
        mcp_file = project / ".mcp.json" if project else home / ".claude.json"
        settings = (project or home) / ".claude" / "settings.json"
        return [
            Entry(mcp_file, ("mcpServers", SERVER_NAME), {"type": "stdio", **mcp}),
            Entry(
                settings,
                ("hooks", "UserPromptSubmit"),
                {"hooks": [{"type": "command", "command": hook("recall"), "timeout": 30}]},
                list_item=True,
            ),
            Entry(
                settings,
                ("hooks", "Stop"),
                {"hooks": [{"type": "command", "command": hook("save"), "timeout": 60}]},
                list_item=True,
            ),
        ]
    if agent == "cursor":
        folder = (project or home) / ".cursor"
        hooks = folder / "hooks.json"
        return [
            Entry(folder / "mcp.json", ("mcpServers", SERVER_NAME), mcp),
            Entry(hooks, ("version",), 1),
            Entry(hooks, ("hooks", "beforeSubmitPrompt"), {"command": hook("recall")}, list_item=True),
            Entry(hooks, ("hooks", "afterAgentResponse"), {"command": hook("save")}, list_item=True),
        ]
    raise ValueError(f"unknown agent {agent!r}: choose one of {', '.join(AGENTS)}")


def changes(entries: list[Entry], *, undo: bool = False) -> list[Change]:
    """What applying (or undoing) ``entries`` does to each file, without writing anything."""
    out = []
    for file in dict.fromkeys(e.file for e in entries):
        before = read_json(file)
        data = json.loads(json.dumps(before)) if before is not None else {}
        for entry in (e for e in entries if e.file == file):
            (_remove if undo else _add)(data, entry)
        if undo and _only_defaults(data, [e for e in entries if e.file == file]):
            after = None  # nothing of the user's is left: the file goes (it was ours, or empty)
        else:
            after = data if (data or before is not None) else None
        out.append(Change(file, before, after))
    return out


def write(change: Change) -> None:
    """Write one change (atomically: a temporary file renamed over the old one); ``after`` None deletes it."""
    if not change.changed:
        return
    if change.after is None:
        change.file.unlink(missing_ok=True)
        return
    change.file.parent.mkdir(parents=True, exist_ok=True)
    tmp = change.file.with_name(f".{change.file.name}.neuromem-tmp")
    tmp.write_text(json.dumps(change.after, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    if change.file.exists():
        os.chmod(tmp, change.file.stat().st_mode & 0o777)
    tmp.replace(change.file)


def read_json(file: Path) -> dict[str, Any] | None:
    """The JSON object in ``file`` (None when it does not exist); anything else is a ``ValueError``
    naming the file, so that a file we cannot read is never overwritten."""
    try:
        text = file.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    if not text.strip():
        return {}
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise ValueError(f"{file} is not valid JSON ({exc}); fix or move it, then run again") from None
    if not isinstance(data, dict):
        raise ValueError(f"{file} does not hold a JSON object; fix or move it, then run again")
    return data


# -- editing one document ---------------------------------------------------------------------------


def _container(data: dict[str, Any], path: tuple[str, ...], make: bool) -> dict[str, Any] | None:
    node = data
    for key in path:
        child = node.get(key)
        if not isinstance(child, dict):
            if not make or child is not None:
                if child is not None:
                    raise ValueError(f"'{key}' is not a JSON object; neuromem will not change it")
                return None
            child = node[key] = {}
        node = child
    return node


def _add(data: dict[str, Any], entry: Entry) -> None:
    parent = _container(data, entry.path[:-1], make=True)
    assert parent is not None
    key = entry.path[-1]
    if not entry.list_item:
        if key not in parent:  # a value the user set (e.g. another ``version``) is theirs
            parent[key] = entry.value
        elif entry.path[-2:-1] == ("mcpServers",):
            parent[key] = entry.value  # our server's entry: bring it up to date
        return
    items = parent.setdefault(key, [])
    if not isinstance(items, list):
        raise ValueError(f"'{'.'.join(entry.path)}' is not a JSON array; neuromem will not change it")
    if entry.value not in items:
        items.append(entry.value)


def _remove(data: dict[str, Any], entry: Entry) -> None:
    parent = _container(data, entry.path[:-1], make=False)
    if parent is None:
        return
    key = entry.path[-1]
    if entry.list_item:
        items = parent.get(key)
        if isinstance(items, list) and entry.value in items:
            items.remove(entry.value)
            if not items:
                del parent[key]
    elif parent.get(key) == entry.value and entry.path[-2:-1] == ("mcpServers",):
        del parent[key]
    _prune(data, entry.path[:-1])


def _prune(data: dict[str, Any], path: tuple[str, ...]) -> None:
    """Drop the mappings along ``path`` that the removal left empty, innermost first."""
    for depth in range(len(path), 0, -1):
        parent = _container(data, path[: depth - 1], make=False)
        if parent is None:
            continue
        key = path[depth - 1]
        if parent.get(key) == {}:
            del parent[key]


def _only_defaults(data: dict[str, Any], entries: list[Entry]) -> bool:
    """True when what is left of a file is nothing, or only our own scalar defaults (``version``)."""
    scalars = {e.path: e.value for e in entries if not e.list_item and len(e.path) == 1}
    return all(scalars.get((k,), object()) == v for k, v in data.items())
