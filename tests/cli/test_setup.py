"""``memctl setup claude-code|cursor`` against a temporary home, and the hooks it installs (issue 26 item 3).

The written files are checked against each tool's documented format: Claude Code's ``mcpServers``
(``~/.claude.json``, ``.mcp.json``) and ``hooks`` in ``settings.json`` (event → groups with an
optional ``matcher`` and ``hooks: [{"type": "command", "command", "timeout"?}]``); Cursor's
``mcpServers`` (``~/.cursor/mcp.json``) and ``hooks.json`` (``version`` 1, event → ``[{"command"}]``).
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from neuromem import Settings
from neuromem.cli.main import cli

CLAUDE_EVENTS = {
    "PreToolUse",
    "PostToolUse",
    "Notification",
    "UserPromptSubmit",
    "Stop",
    "SubagentStop",
    "PreCompact",
    "SessionStart",
    "SessionEnd",
}
CURSOR_EVENTS = {
    "beforeShellExecution",
    "afterShellExecution",
    "beforeMCPExecution",
    "afterMCPExecution",
    "beforeReadFile",
    "afterFileEdit",
    "beforeSubmitPrompt",
    "afterAgentResponse",
    "stop",
}


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "home"
    folder.mkdir()
    monkeypatch.setenv("HOME", str(folder))
    return folder


def memctl(*args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), input=stdin, catch_exceptions=False)


def load(path: Path) -> Any:
    return json.loads(path.read_text("utf-8"))


def check_mcp_server(entry: dict[str, Any], *, claude: bool) -> None:
    assert isinstance(entry["command"], str) and Path(entry["command"]).is_absolute()
    assert isinstance(entry["args"], list) and entry["args"][-1] == "mcp"
    assert isinstance(entry.get("env", {}), dict)
    if claude:
        assert entry["type"] == "stdio"


def check_claude_hooks(settings: dict[str, Any]) -> None:
    assert set(settings["hooks"]) <= CLAUDE_EVENTS
    for groups in settings["hooks"].values():
        for group in groups:
            assert set(group) <= {"matcher", "hooks"} and group["hooks"]
            for hook in group["hooks"]:
                assert hook["type"] == "command" and isinstance(hook["command"], str)
                assert isinstance(hook.get("timeout", 1), int)


def check_cursor_hooks(config: dict[str, Any]) -> None:
    assert config["version"] == 1 and set(config["hooks"]) <= CURSOR_EVENTS
    for hooks in config["hooks"].values():
        assert all(isinstance(h["command"], str) for h in hooks)


def hook_args(command: str) -> list[str]:
    """The memctl arguments of a hook command (after the memctl executable or ``python -m …``)."""
    words = shlex.split(command)
    return words[words.index("hook") :]


def test_claude_code_setup_writes_the_documented_files_and_undo_removes_them(home: Path) -> None:
    shown = memctl("setup", "claude-code", "-u", "kim", "--print")
    assert shown.exit_code == 0 and "UserPromptSubmit" in shown.output and "mcpServers" in shown.output
    assert not (home / ".claude.json").exists()  # --print writes nothing

    done = memctl("setup", "claude-code", "-u", "kim")
    assert done.exit_code == 0, done.output
    check_mcp_server(load(home / ".claude.json")["mcpServers"]["neuromem"], claude=True)
    settings = load(home / ".claude" / "settings.json")
    check_claude_hooks(settings)
    [recall] = settings["hooks"]["UserPromptSubmit"]
    [save] = settings["hooks"]["Stop"]
    assert hook_args(recall["hooks"][0]["command"]) == [
        "hook",
        "recall",
        "--agent",
        "claude-code",
        "--user-id",
        "kim",
    ]
    assert hook_args(save["hooks"][0]["command"]) == [
        "hook",
        "save",
        "--agent",
        "claude-code",
        "--user-id",
        "kim",
    ]

    assert memctl("setup", "claude-code", "-u", "kim", "--undo").exit_code == 0
    assert not (home / ".claude.json").exists() and not (home / ".claude" / "settings.json").exists()


def test_setup_keeps_the_users_settings_is_idempotent_and_undo_restores_them(home: Path) -> None:
    claude_json = {
        "numStartups": 7,
        "mcpServers": {"other": {"type": "stdio", "command": "x", "args": []}},
        "projects": {"/src/app": {"allowedTools": ["Bash"]}},
    }
    user_settings = {
        "model": "opus",
        "permissions": {"allow": ["Bash(ls:*)"]},
        "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}]},
    }
    (home / ".claude").mkdir()
    (home / ".claude.json").write_text(json.dumps(claude_json), "utf-8")
    (home / ".claude" / "settings.json").write_text(json.dumps(user_settings), "utf-8")

    for _ in range(2):  # twice: nothing doubles
        assert memctl("setup", "claude-code", "-u", "kim").exit_code == 0
    merged = load(home / ".claude" / "settings.json")
    assert merged["model"] == "opus" and merged["permissions"] == user_settings["permissions"]
    assert (
        len(merged["hooks"]["Stop"]) == 2 and merged["hooks"]["Stop"][0] == user_settings["hooks"]["Stop"][0]
    )
    assert len(merged["hooks"]["UserPromptSubmit"]) == 1
    assert set(load(home / ".claude.json")["mcpServers"]) == {"other", "neuromem"}

    assert memctl("setup", "claude-code", "-u", "kim", "--undo").exit_code == 0
    assert load(home / ".claude.json") == claude_json
    assert load(home / ".claude" / "settings.json") == user_settings


def test_cursor_setup_and_undo(home: Path) -> None:
    (home / ".cursor").mkdir()
    (home / ".cursor" / "mcp.json").write_text(
        json.dumps({"mcpServers": {"git": {"command": "git-mcp"}}}), "utf-8"
    )
    assert memctl("setup", "cursor", "-u", "kim").exit_code == 0
    servers = load(home / ".cursor" / "mcp.json")["mcpServers"]
    assert set(servers) == {"git", "neuromem"}
    check_mcp_server(servers["neuromem"], claude=False)
    hooks = load(home / ".cursor" / "hooks.json")
    check_cursor_hooks(hooks)
    assert hook_args(hooks["hooks"]["beforeSubmitPrompt"][0]["command"])[:2] == ["hook", "recall"]
    assert hook_args(hooks["hooks"]["afterAgentResponse"][0]["command"])[:2] == ["hook", "save"]

    assert memctl("setup", "cursor", "-u", "kim", "--undo").exit_code == 0
    assert load(home / ".cursor" / "mcp.json") == {"mcpServers": {"git": {"command": "git-mcp"}}}
    assert not (home / ".cursor" / "hooks.json").exists()


def test_project_scope_and_unreadable_files(home: Path, tmp_path: Path) -> None:
    project = tmp_path / "app"
    project.mkdir()
    assert memctl("setup", "claude-code", "-u", "kim", "--project", str(project)).exit_code == 0
    check_mcp_server(load(project / ".mcp.json")["mcpServers"]["neuromem"], claude=True)
    check_claude_hooks(load(project / ".claude" / "settings.json"))
    assert not (home / ".claude.json").exists()
    (home / ".cursor").mkdir()
    (home / ".cursor" / "mcp.json").write_text("{broken", "utf-8")
    refused = memctl("setup", "cursor", "-u", "kim")
    assert refused.exit_code != 0 and "mcp.json is not valid JSON" in refused.output
    assert (home / ".cursor" / "mcp.json").read_text("utf-8") == "{broken"  # never overwritten
    assert not (home / ".cursor" / "hooks.json").exists()


def test_claude_code_hooks_save_then_recall(
    home: Path, settings: Settings, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    use_test_database(settings, monkeypatch)
    assert memctl("setup", "claude-code", "-u", "kim").exit_code == 0
    hooks = load(home / ".claude" / "settings.json")["hooks"]
    transcript = tmp_path / "session.jsonl"
    lines = [
        {"type": "user", "message": {"role": "user", "content": "I live in Lisbon and I work as a nurse."}},
        {
            "type": "assistant",
            "message": {
                "role": "assistant",
                "content": [
                    {"type": "text", "text": "Lisbon is lovely."},
                    {"type": "tool_use", "id": "t1", "name": "Bash", "input": {}},
                ],
            },
        },
        {
            "type": "user",
            "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1"}]},
        },
        {
            "type": "assistant",
            "message": {"role": "assistant", "content": [{"type": "text", "text": "Done."}]},
        },
    ]
    transcript.write_text("\n".join(json.dumps(line) for line in lines), "utf-8")
    stop = {
        "session_id": "abc",
        "transcript_path": str(transcript),
        "hook_event_name": "Stop",
        "stop_hook_active": False,
    }
    saved = memctl(*hook_args(hooks["Stop"][0]["hooks"][0]["command"]), stdin=json.dumps(stop))
    assert saved.exit_code == 0 and saved.output == ""

    prompt = {
        "session_id": "abc",
        "transcript_path": str(transcript),
        "hook_event_name": "UserPromptSubmit",
        "prompt": "Which city do I live in?",
    }
    recalled = memctl(
        *hook_args(hooks["UserPromptSubmit"][0]["hooks"][0]["command"]), stdin=json.dumps(prompt)
    )
    assert recalled.exit_code == 0
    assert recalled.stdout.startswith("Relevant memories about the user (neuromem, user_id=kim)")
    assert "Lisbon" in recalled.stdout


def test_cursor_hooks_keep_the_prompt_and_save_the_exchange(
    home: Path, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    use_test_database(settings, monkeypatch)
    assert memctl("setup", "cursor", "-u", "kim").exit_code == 0
    hooks = load(home / ".cursor" / "hooks.json")["hooks"]
    before = {
        "conversation_id": "c1",
        "generation_id": "g1",
        "hook_event_name": "beforeSubmitPrompt",
        "prompt": "I play the oboe in an orchestra.",
        "attachments": [],
    }
    answer = memctl(*hook_args(hooks["beforeSubmitPrompt"][0]["command"]), stdin=json.dumps(before))
    assert answer.exit_code == 0 and json.loads(answer.stdout) == {"continue": True}
    after = {
        "conversation_id": "c1",
        "generation_id": "g1",
        "hook_event_name": "afterAgentResponse",
        "text": "Nice!",
    }
    assert (
        memctl(*hook_args(hooks["afterAgentResponse"][0]["command"]), stdin=json.dumps(after)).exit_code == 0
    )
    found = memctl("search", "-u", "kim", "oboe")
    assert "oboe" in found.output


def test_hooks_never_block_the_agent(home: Path, settings: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    use_test_database(settings, monkeypatch)
    for args in (
        ["hook", "recall", "--agent", "claude-code", "-u", "kim"],
        ["hook", "save", "--agent", "claude-code", "-u", "kim"],
    ):
        broken = memctl(*args, stdin="{not json")
        assert broken.exit_code == 0 and broken.stdout == "" and "neuromem hook: skipped" in broken.stderr
    missing = memctl(
        "hook",
        "save",
        "--agent",
        "claude-code",
        "-u",
        "kim",
        stdin=json.dumps({"transcript_path": str(home / "nope.jsonl")}),
    )
    assert missing.exit_code == 0 and "skipped" in missing.stderr
    bad_user = memctl("hook", "recall", "--agent", "claude-code", "-u", "bad user!", stdin='{"prompt": "hi"}')
    assert bad_user.exit_code == 0 and "skipped" in bad_user.stderr


def use_test_database(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    assert settings.store.database_url
    monkeypatch.setenv("NEUROMEM_DATABASE_URL", settings.store.database_url.get_secret_value())
    monkeypatch.setenv("NEUROMEM_EMBEDDER", "hashing")
    monkeypatch.setenv("NEUROMEM_EMBEDDER__DIM", str(settings.store.embedding_dim))
    monkeypatch.setenv("NEUROMEM_EMBEDDING_DIM", str(settings.store.embedding_dim))
