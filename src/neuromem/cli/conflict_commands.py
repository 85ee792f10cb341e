"""``memctl conflicts list|resolve``: the review queue of seed 003 §7.2."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from .context import friendly_errors, open_memory, user_option

if TYPE_CHECKING:
    from neuromem import Conflict


def describe_conflict(c: Conflict) -> str:
    r = c.row
    old = c.old.content if c.old else "(gone)"
    new = c.new.content if c.new else "(gone)"
    winner = f" winner {r.winner_id}" if r.winner_id else ""
    return (
        f"{r.id}  {r.status:<8} {r.attribute}  ({r.detector}){winner}\n"
        f"  old {r.old_id}  prio {r.old_score:.3f}  {old}\n"
        f"  new {r.new_id}  prio {r.new_score:.3f}  {new}"
    )


@click.group()
def conflicts() -> None:
    """Conflicts between facts and their review queue."""


@conflicts.command("list")
@user_option
@click.option(
    "--status", type=click.Choice(["open", "auto", "resolved", "all"]), default="open", show_default=True
)
@click.option("--limit", type=click.IntRange(1, 10000), default=50, show_default=True)
@friendly_errors
def list_command(user_id: str, status: str, limit: int) -> None:
    """List conflicts (by default the open ones, waiting for review)."""
    with open_memory() as m:
        found = m.conflicts(user_id=user_id, status=status, limit=limit)
        if not found:
            click.echo(f"no {status} conflicts" if status != "all" else "no conflicts")
        for c in found:
            click.echo(describe_conflict(c))


@conflicts.command("resolve")
@user_option
@click.argument("conflict_id")
@click.option("--keep", required=True, help="The memory id that stays active.")
@friendly_errors
def resolve_command(user_id: str, conflict_id: str, keep: str) -> None:
    """Resolve a conflict: KEEP stays active, the other side gets invalid_at."""
    with open_memory() as m:
        click.echo(
            describe_conflict(m.resolve_conflict(conflict_id, user_id=user_id, keep=keep, actor="memctl"))
        )


def register_commands(cli: click.Group) -> None:
    """Add this module's commands to ``memctl`` (``cli.main`` calls it)."""
    cli.add_command(conflicts)
