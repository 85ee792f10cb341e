"""``memctl demo``: the main job on the embedded defaults — ingest a small bilingual
conversation, recall from it with scores, and build the memory block of a system prompt."""

from __future__ import annotations

import json
import time
from importlib import resources

import click

from .context import friendly_errors, open_memory
from .main import cli
from .memory_commands import describe_hit


def load_demo() -> dict:
    return json.loads(resources.files("neuromem.demo_data").joinpath("conversation.json").read_text("utf-8"))


@cli.command()
@friendly_errors
def demo() -> None:
    """Ingest a bundled Chinese/English conversation for 'demo-user' and run a few recalls."""
    data = load_demo()
    user = data["user_id"]
    started = time.perf_counter()
    click.echo("Starting neuromem (embedded PostgreSQL + bundled multilingual-e5-small, no LLM)…")
    with open_memory() as m:
        status = m.status(user_id=user)
        click.echo(f"  database: {'embedded in ' + str(status.data_dir) if status.embedded else 'external server'}"
                   f"  ({time.perf_counter() - started:.1f} s)")
        m.reset(user_id=user)
        for session in data["sessions"]:
            report = m.ingest(session["messages"], user_id=user, session_id=session["session_id"])
            m.end_session(user_id=user, session_id=session["session_id"])
            click.echo(f"\nSession {session['session_id']}: {report.turns} turns → "
                       f"{len(report.results)} memories (dropped: {dict(report.dropped) or 'none'})")
            for result in report.results:
                record = result.memory
                label = record.category or record.memory_type.value
                click.echo(f"  {result.operation.value.upper():<6} [{label}] {record.content}")
        for query in data["queries"]:
            t0 = time.perf_counter()
            hits = m.search(query, user_id=user, limit=3)
            ms = (time.perf_counter() - t0) * 1000
            click.echo(f"\n? {query}   ({ms:.0f} ms)")
            for i, hit in enumerate(hits, 1):
                click.echo(describe_hit(i, hit))
        block = m.recall_prompt(data["prompt_query"], user_id=user, token_budget=300)
        click.echo(f"\nMemory block for a system prompt ({block.tokens}/{block.budget} tokens) "
                   f"for: {data['prompt_query']}\n")
        click.echo(block.text)
    click.echo("\nDone. Try: memctl recall -u demo-user '花生' --trace   or   memctl status")
