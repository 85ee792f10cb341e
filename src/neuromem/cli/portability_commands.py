"""``memctl export`` and ``memctl import``: a user's whole memory to a file and back."""

from __future__ import annotations

from pathlib import Path

import click

from ..portability.format import FORMATS
from .context import friendly_errors, open_memory, user_option
from .main import cli


@cli.command("export")
@user_option
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--format", "fmt", type=click.Choice(FORMATS), default=None,
              help="jsonl (full fidelity, importable), json (readable) or markdown; default from the suffix.")
@friendly_errors
def export_command(user_id: str, file: Path, fmt: str | None) -> None:
    """Write everything stored for a user to FILE."""
    with open_memory() as m:
        report = m.export(file, user_id=user_id, format=fmt)
    click.echo(f"exported {report.total} rows of {user_id!r} to {file} ({report.format})")


@cli.command("import")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@friendly_errors
def import_command(file: Path) -> None:
    """Import an export FILE (JSONL or JSON); rows already present are skipped."""
    with open_memory() as m:
        report = m.import_file(file)
    skipped = sum(report.skipped.values())
    click.echo(f"imported {report.total_inserted} rows of {report.user_id!r} ({skipped} already present"
               f"{f', {report.reembedded} re-embedded' if report.reembedded else ''})")
