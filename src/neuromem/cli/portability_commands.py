"""``memctl export``, ``memctl import`` and ``memctl sync``: a user's whole memory to a file and
back, and the two-way ``memory.md`` / ``learnings.md`` sync."""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING

import click

from .context import friendly_errors, open_memory, user_option

if TYPE_CHECKING:
    from neuromem import SyncReport


@click.command("export")
@user_option
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--format",
    "fmt",
    default=None,
    metavar="jsonl|json|markdown",
    help="jsonl (full fidelity, importable), json (readable) or markdown; default from the suffix.",
)
@friendly_errors
def export_command(user_id: str, file: Path, fmt: str | None) -> None:
    """Write everything stored for a user to FILE."""
    with open_memory() as m:
        report = m.export(file, user_id=user_id, format=fmt)
    click.echo(f"exported {report.total} rows of {user_id!r} to {file} ({report.format})")


@click.command("import")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "--include-forgotten",
    is_flag=True,
    help="Also bring back what `forget` erased since the export (your own restore; asks first).",
)
@click.option("--yes", is_flag=True, help="Do not ask for confirmation (scripts).")
@friendly_errors
def import_command(file: Path, include_forgotten: bool, yes: bool) -> None:
    """Import an export FILE (JSONL or JSON); rows already present are skipped, and so is
    whatever `forget` erased after the export was written."""
    if include_forgotten and not yes:
        click.confirm(
            f"--include-forgotten restores from {file.name} what `forget` erased after it was written. "
            "Do this only to restore your own memory. Continue?",
            abort=True,
        )
    with open_memory() as m:
        report = m.import_file(file, include_forgotten=include_forgotten)
    skipped = sum(report.skipped.values())
    click.echo(
        f"imported {report.total_inserted} rows of {report.user_id!r} ({skipped} already present"
        f"{f', {report.reembedded} re-embedded' if report.reembedded else ''})"
    )
    if report.total_forgotten:
        click.echo(
            f"skipped {report.total_forgotten} rows that `forget` erased after the export was written "
            "(--include-forgotten restores them)"
        )


@click.command("sync")
@user_option
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
@click.option(
    "--language",
    type=click.Choice(["en", "zh"]),
    default="en",
    show_default=True,
    help="Language of the headings written.",
)
@click.option("--watch", is_flag=True, help="Keep syncing every --interval seconds until interrupted.")
@click.option("--interval", type=click.FloatRange(0.2, 3600), default=2.0, show_default=True)
@friendly_errors
def sync_command(user_id: str, directory: Path, language: str, watch: bool, interval: float) -> None:
    """Two-way sync of a user's memory with DIRECTORY/memory.md and learnings.md."""

    def show(report: SyncReport) -> None:
        if report.changes or report.conflicts or not watch:
            click.echo(
                f"synced {directory}: {report.added} added, {report.updated} updated, "
                f"{report.deleted} deleted from the files; {report.conflicts} conflicts marked"
            )

    with open_memory() as m:
        if not watch:
            show(m.sync_markdown(directory, user_id=user_id, language=language))
            return
        try:
            while True:
                show(m.sync_markdown(directory, user_id=user_id, language=language))
                time.sleep(interval)
        except KeyboardInterrupt:
            click.echo("stopped")


def register_commands(cli: click.Group) -> None:
    """Add this module's commands to ``memctl`` (``cli.main`` calls it)."""
    for command in (export_command, import_command, sync_command):
        cli.add_command(command)
