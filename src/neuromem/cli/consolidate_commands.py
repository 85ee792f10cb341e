"""``memctl compress`` (seed 004 §2.2), ``concepts`` (seed 003 §6.3), ``archive`` / ``restore``
(§6.4) and ``retention`` (issue 16), each change with ``--dry-run``."""

from __future__ import annotations

import click

from .context import friendly_errors, open_memory, user_option

now_option = click.option("--now", default=None, help="ISO-8601 time taken as now (default: the clock).")


@click.command()
@user_option
@now_option
@click.option("--dry-run", is_flag=True, help="Show the summaries that would be written; change nothing.")
@friendly_errors
def compress(user_id: str, now: str | None, dry_run: bool) -> None:
    """Summarise USER's old, rarely recalled episodes; the originals are archived behind the summary."""
    with open_memory() as m:
        report = m.compress(user_id=user_id, now=now, dry_run=dry_run)
        verb = "would archive" if dry_run else "archived"
        click.echo(
            f"{verb} {report.archived} episodes into {len(report.groups)} summaries "
            f"({report.tokens_before} → {report.tokens_after} tokens)"
        )
        for g in report.groups:
            click.echo(f"  {g.summary_id or '(dry run)'}  {g.summary}")


@click.command()
@user_option
@click.option("--dry-run", is_flag=True, help="Show the concepts that would be formed; change nothing.")
@friendly_errors
def concepts(user_id: str, dry_run: bool) -> None:
    """Cluster USER's related memories into concept nodes linked by ABOUT."""
    with open_memory() as m:
        report = m.consolidate_concepts(user_id=user_id, dry_run=dry_run)
        verb = "would link" if dry_run else "linked"
        click.echo(
            f"{verb} {report.linked} memories into {len(report.groups)} concepts "
            f"({report.created} new) from {report.memories} memories"
        )
        for g in report.groups:
            click.echo(f"  {g.name}: {len(g.members)} memories, {len(g.new_links)} new")


@click.command()
@user_option
@now_option
@click.option("--dry-run", is_flag=True, help="Show what would be archived; change nothing.")
@friendly_errors
def archive(user_id: str, now: str | None, dry_run: bool) -> None:
    """Archive USER's memories and graph nodes whose weight fell under lifecycle.archive_threshold."""
    with open_memory() as m:
        report = m.archive(user_id=user_id, now=now, dry_run=dry_run)
        verb = "would archive" if dry_run else "archived"
        click.echo(f"{verb} {report.memories} memories and {report.nodes} nodes")
        for item in report.items:
            click.echo(f"  {item.kind} {item.id}  {item.label}  weight {item.weight:.3f}")


@click.command()
@user_option
@click.argument("item_id")
@friendly_errors
def restore(user_id: str, item_id: str) -> None:
    """Bring back an archived memory or graph node ITEM_ID."""
    with open_memory() as m:
        m.restore(item_id, user_id=user_id)
        click.echo(f"restored {item_id}")


@click.command()
@click.option("--user-id", "-u", "user_id", default=None, help="Only this user (default: every user).")
@now_option
@click.option("--dry-run", is_flag=True, help="Preview the deletions; change nothing.")
@friendly_errors
def retention(user_id: str | None, now: str | None, dry_run: bool) -> None:
    """Hard-delete, with receipts, the memories past the TTLs of lifecycle.retention_days_by_*."""
    with open_memory() as m:
        report = m.enforce_retention(user_id=user_id, now=now, dry_run=dry_run)
        verb = "would delete" if dry_run else "deleted"
        click.echo(f"{verb} {report.memories} memories of {len(report.results)} users")
        for r in report.results:
            click.echo(
                f"  {r.user_id}  {getattr(r, 'id', '(dry run)')}  {r.counts.get('memories', 0)} memories"
            )


def register_commands(cli: click.Group) -> None:
    """Add this module's commands to ``memctl`` (``cli.main`` calls it)."""
    for command in (compress, concepts, archive, restore, retention):
        cli.add_command(command)
