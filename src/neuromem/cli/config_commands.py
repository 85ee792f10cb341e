"""``memctl config``: the effective settings, or the generated reference."""

from __future__ import annotations

import json

import click

from .context import friendly_errors, load_settings


@click.command("config")
@click.option("--reference", is_flag=True, help="Print the markdown reference of every setting.")
@friendly_errors
def config_command(reference: bool) -> None:
    """Show the settings in effect (config file, then NEUROMEM_* variables), secrets masked."""
    if reference:
        from neuromem.admin import settings_reference

        click.echo(settings_reference(), nl=False)
        return
    data = load_settings().model_dump(mode="json")  # SecretStr fields serialize masked
    click.echo(json.dumps(data, indent=2, ensure_ascii=False))


def register_commands(cli: click.Group) -> None:
    """Add this module's commands to ``memctl`` (``cli.main`` calls it)."""
    cli.add_command(config_command)
