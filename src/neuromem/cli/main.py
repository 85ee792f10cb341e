"""``memctl``: the command line over the library (STYLE.md habit 15).

Commands live in small modules; each validates, calls the library, formats, and turns typed
errors into messages. No command module imports this one: each has ``register_commands(cli)``,
which ``main`` calls for every module in ``COMMAND_MODULES`` (simonw/llm's pattern), so the
package has no import circle.
"""

from __future__ import annotations

import importlib
from pathlib import Path

import click


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="neuromem")
@click.option(
    "--config",
    "config_file",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="A TOML settings file (default: $NEUROMEM_CONFIG, else ~/.neuromem/config.toml if present).",
)
def cli(config_file: Path | None) -> None:
    """neuromem: long-term memory for LLM agents (PostgreSQL + pgvector, offline by default).

    Settings come from the config file, then NEUROMEM_* environment variables, which win, e.g.
    NEUROMEM_DATABASE_URL, NEUROMEM_DATA_DIR, NEUROMEM_EMBEDDER, NEUROMEM_LLM_BASE_URL
    (docs/configuration.md).

    Fast after the first: add, delete, list, history, search, recall and documents run on a
    running `memctl serve` when there is one (NEUROMEM_SERVE_URL names one elsewhere). On the
    embedded database the first such command leaves a service behind for the next ones; it
    stops after 10 minutes without a request (NEUROMEM_SERVICE__IDLE_SHUTDOWN_S), as the
    embedded PostgreSQL does after 5. `memctl server stop` stops both;
    NEUROMEM_SERVICE__AUTO_START=false turns this off.
    """


#: the command modules, each with ``register_commands(cli)`` (keep this list sorted)
COMMAND_MODULES = (
    "config_commands",
    "conflict_commands",
    "consolidate_commands",
    "demo_command",
    "forget_commands",
    "graph_commands",
    "ingest_commands",
    "memory_commands",
    "portability_commands",
    "recall_commands",
    "reflect_commands",
    "server_commands",
    "service_commands",
    "setup_commands",
    "webhook_commands",
)


def register_all(group: click.Group) -> None:
    """Add every command module's commands to ``group``."""
    for name in COMMAND_MODULES:
        importlib.import_module(f".{name}", __package__).register_commands(group)


register_all(cli)


def main() -> None:
    cli()


if __name__ == "__main__":  # python -m neuromem.cli.main
    main()
