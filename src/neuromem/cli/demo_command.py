"""``memctl demo``: the main job on the embedded defaults — ingest a small bilingual
conversation, recall from it with scores, and build the memory block of a system prompt."""

from __future__ import annotations

import json
import time
from importlib import resources
from typing import TYPE_CHECKING

import click

from .context import friendly_errors, open_memory
from .memory_commands import describe_hit

if TYPE_CHECKING:
    from neuromem import Memory


def load_demo() -> dict:
    return json.loads(resources.files("neuromem.demo_data").joinpath("conversation.json").read_text("utf-8"))


def show_trait(m: Memory, user: str) -> None:
    """Reflect on the dated sessions and show the trait that formed, with its evidence chain."""
    report = m.reflect(user_id=user)
    found = [(len(m.trait(t.id, user_id=user).supporting), t) for t in m.traits(user_id=user).all()]
    click.echo(
        f"\nReflection (on the history's own clock, {report.scanned} new "
        f"memor{'ies' if report.scanned != 1 else 'y'}): "
        f"{len(found)} trait{'s' if len(found) != 1 else ''} formed from the dated sessions"
    )
    if not found:
        return
    _, trait = max(found, key=lambda pair: pair[0])
    detail = m.trait(trait.id, user_id=user)
    standing = (
        "a trend: forming, not recalled until it holds"
        if trait.trait_confidence is None
        else f"{trait.trait_stage}, confidence {trait.trait_confidence:.2f}"
    )
    click.echo(f"  [{trait.trait_subtype}; {standing}] {trait.content}")
    click.echo("  evidence chain:")
    for evidence in detail.supporting:
        when = m.get(evidence.memory_id, user_id=user).valid_at
        click.echo(
            f"    {when:%Y-%m-%d} grade {evidence.quality}  {evidence.content}"
            if when
            else f"    grade {evidence.quality}  {evidence.content}"
        )
    click.echo(f"  (memctl trait {trait.id} -u {user} shows its history)")


@click.command()
@friendly_errors
def demo() -> None:
    """Ingest a bundled Chinese/English conversation for 'demo-user' (erasing what an earlier
    run stored for that user, and only that user), watch a trait form from its dated sessions,
    and run a few recalls."""
    data = load_demo()
    user = data["user_id"]
    started = time.perf_counter()
    click.echo("Starting neuromem (embedded PostgreSQL + bundled multilingual-e5-small, no LLM)…")
    with open_memory() as m:
        status = m.status(user_id=user)
        click.echo(
            f"  database: {'embedded in ' + str(status.data_dir) if status.embedded else 'external server'}"
            f"  ({time.perf_counter() - started:.1f} s)"
        )
        click.echo(
            f"  the demo starts from scratch: it erases what is stored for {user!r} (no other user is touched)"
        )
        erased = sum(m.reset(user_id=user).values())
        if erased:
            click.echo(f"  erased {erased} rows of {user!r} left by an earlier run")
        for session in data["sessions"]:
            report = m.ingest(session["messages"], user_id=user, session_id=session["session_id"])
            m.end_session(user_id=user, session_id=session["session_id"])
            click.echo(
                f"\nSession {session['session_id']}: {report.turns} turns → "
                f"{len(report.results)} memories (dropped: {dict(report.dropped) or 'none'})"
            )
            for result in report.results:
                record = result.memory
                label = record.category or record.memory_type.value
                click.echo(f"  {result.operation.value.upper():<6} [{label}] {record.content}")
        show_trait(m, user)
        for query in data["queries"]:
            t0 = time.perf_counter()
            hits = m.search(query, user_id=user, limit=3)
            ms = (time.perf_counter() - t0) * 1000
            click.echo(f"\n? {query}   ({ms:.0f} ms)")
            for i, hit in enumerate(hits, 1):
                click.echo(describe_hit(i, hit))
        block = m.recall_prompt(data["prompt_query"], user_id=user, token_budget=300)
        click.echo(
            f"\nMemory block for a system prompt ({block.tokens}/{block.budget} tokens) "
            f"for: {data['prompt_query']}\n"
        )
        click.echo(block.text)
    click.echo("\nDone. Try: memctl recall -u demo-user '花生' --trace   or   memctl status")


def register_commands(cli: click.Group) -> None:
    """Add this module's commands to ``memctl`` (``cli.main`` calls it)."""
    cli.add_command(demo)
