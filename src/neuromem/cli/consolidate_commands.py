"""``memctl compress`` (seed 004 §2.2) and ``memctl promote`` (seed 003 §6.2), each with ``--dry-run``."""

from __future__ import annotations

import click

from .context import friendly_errors, open_memory, user_option
from .main import cli


@cli.command()
@user_option
@click.option("--now", default=None, help="ISO-8601 time taken as now (default: the clock).")
@click.option("--dry-run", is_flag=True, help="Show the summaries that would be written; change nothing.")
@friendly_errors
def compress(user_id: str, now: str | None, dry_run: bool) -> None:
    """Summarise USER's old, rarely recalled episodes; the originals are archived behind the summary."""
    with open_memory() as m:
        report = m.compress(user_id=user_id, now=now, dry_run=dry_run)
        verb = "would archive" if dry_run else "archived"
        click.echo(f"{verb} {report.archived} episodes into {len(report.groups)} summaries "
                   f"({report.tokens_before} → {report.tokens_after} tokens)")  # fmt: skip
        for g in report.groups:
            click.echo(f"  {g.summary_id or '(dry run)'}  {g.summary}")


@cli.command()
@user_option
@click.option("--now", default=None, help="ISO-8601 time taken as now (default: the clock).")
@click.option("--dry-run", is_flag=True, help="Show the moves; change nothing.")
@friendly_errors
def promote(user_id: str, now: str | None, dry_run: bool) -> None:
    """Move USER's facts and episodes between the short, mid and long tiers."""
    with open_memory() as m:
        moves = m.promote(user_id=user_id, now=now, dry_run=dry_run)
        click.echo(f"{'would move' if dry_run else 'moved'} {len(moves)} memories")
        for p in moves:
            click.echo(f"  {p.memory_id}  {p.before} → {p.after}")
