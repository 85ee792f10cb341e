"""``memctl setup claude-code|cursor`` (with ``--print``, ``--undo``) and the hooks it installs,
``memctl hook recall|save`` (issue 26 item 3).

The hooks never get in the agent's way: whatever fails (no database, bad input, a service error),
they write one line to stderr and exit 0, so the prompt goes on without memory.
"""

from __future__ import annotations

import getpass
import json
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from .agent_setup import AGENTS, changes, plan, write
from .context import open_memory, query_settings, remote_or_none
from .hook_io import PendingPrompts, last_exchange, read_event, read_transcript

RECALL_BUDGET = 400  # tokens of memory a hook adds to a prompt
HEADING = "Relevant memories about the user (neuromem, user_id={user}):"


def default_user() -> str:
    """Your login name, cut to the characters a user id may hold."""
    return re.sub(r"[^A-Za-z0-9_.@-]", "_", getpass.getuser())[:255] or "me"


@click.command()
@click.argument("agent", type=click.Choice(AGENTS))
@click.option("--user-id", "-u", default=None, help="Whose memory the agent uses (default: your login name).")
@click.option(
    "--project",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Configure this project only (.mcp.json / .claude/settings.json, .cursor/…), not your home.",
)
@click.option("--print", "show", is_flag=True, help="Show what would be written; write nothing.")
@click.option("--undo", is_flag=True, help="Remove exactly what setup wrote; leave everything else.")
def setup(agent: str, user_id: str | None, project: Path | None, show: bool, undo: bool) -> None:
    """Give a coding agent memory: the MCP server, a hook that recalls before each prompt and one
    that saves each exchange. AGENT: claude-code or cursor."""
    entries = plan(agent, user_id=user_id or default_user(), home=Path.home(), project=project)
    try:
        found = changes(entries, undo=undo)
    except ValueError as exc:
        raise click.ClickException(str(exc)) from None
    for change in found:
        if not change.changed:
            click.echo(f"{change.file}: unchanged")
            continue
        if show:
            body = (
                "(deleted)"
                if change.after is None
                else json.dumps(change.after, indent=2, ensure_ascii=False)
            )
            click.echo(f"{change.file} would become:\n{body}")
            continue
        write(change)
        click.echo(f"{change.file}: {'removed' if change.after is None else 'updated'}")
    if not show and not undo:
        click.echo(
            f"{agent} now recalls before each prompt and saves each exchange (restart it to load the change); "
            f"undo with: memctl setup {agent} --undo"
        )


@click.group()
def hook() -> None:
    """Commands a coding agent's hooks run (installed by `memctl setup`); they read the hook's JSON on stdin."""


agent_option = click.option("--agent", type=click.Choice(AGENTS), required=True)
hook_user_option = click.option("--user-id", "-u", required=True)


@hook.command("recall")
@agent_option
@hook_user_option
def hook_recall(agent: str, user_id: str) -> None:
    """Before a prompt: print the memories that bear on it (Claude Code adds them to the context);
    for Cursor, keep the prompt for `hook save` and let it through."""

    def run() -> None:
        event = read_event(sys.stdin.read())
        if agent == "cursor":
            if event.prompt:
                pending().keep(agent, event.session, event.prompt)
            return
        text = recall(user_id, event.prompt) if event.prompt else ""
        if text.strip():
            click.echo(f"{HEADING.format(user=user_id)}\n{text.strip()}")

    _quietly(run)
    if agent == "cursor":
        click.echo(json.dumps({"continue": True}))


@hook.command("save")
@agent_option
@hook_user_option
def hook_save(agent: str, user_id: str) -> None:
    """After a reply: store the exchange (Claude Code: the last prompt and reply of the transcript;
    Cursor: the kept prompt and the reply)."""

    def run() -> None:
        event = read_event(sys.stdin.read())
        exchange: tuple[str, str] | None
        if agent == "cursor":
            exchange = (pending().take(agent, event.session), event.reply)
        else:
            exchange = last_exchange(read_transcript(event.transcript)) if event.transcript else None
        if exchange is None or not exchange[0]:
            return
        turns = [{"role": "user", "content": exchange[0]}]
        if exchange[1]:
            turns.append({"role": "assistant", "content": exchange[1]})
        save(user_id, f"{agent}-{event.session or 'default'}", turns)

    _quietly(run)


def pending() -> PendingPrompts:
    return PendingPrompts(Path.home() / ".neuromem" / "hooks")


def recall(user_id: str, query: str) -> str:
    """The prompt block, from the running service when there is one, else in-process."""
    answer = remote_or_none(None, lambda remote: remote.recall(user_id, query, RECALL_BUDGET))
    if answer is not None:
        return str(answer.get("text", ""))
    with open_memory(query_settings()) as m:
        return m.recall_prompt(query, user_id=user_id, token_budget=RECALL_BUDGET).text


def save(user_id: str, session_id: str, turns: list[dict[str, Any]]) -> None:
    body = {"user_id": user_id, "session_id": session_id, "messages": turns}
    if remote_or_none(None, lambda remote: remote.request("POST", "/v1/ingest", body) or True) is not None:
        return
    with open_memory() as m:
        m.ingest(turns, user_id=user_id, session_id=session_id)


def _quietly(run: Callable[[], None]) -> None:
    """Run a hook's work; any failure is one line on stderr and exit code 0 (an agent blocks the prompt
    on some codes, e.g. Claude Code on 2)."""
    try:
        run()
    except (Exception, SystemExit) as exc:
        detail = f"exit {exc.code}" if isinstance(exc, SystemExit) else f"{type(exc).__name__}: {exc}"
        click.echo(f"neuromem hook: skipped ({detail})", err=True)


def register_commands(cli: click.Group) -> None:
    """Add this module's commands to ``memctl`` (``cli.main`` calls it)."""
    for command in (setup, hook):
        cli.add_command(command)
