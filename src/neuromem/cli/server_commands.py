"""``memctl init``, ``status``, ``server stop``, ``backfill``, ``reembed``."""

from __future__ import annotations

import click

from .context import friendly_errors, load_settings, open_memory, query_settings


def where(status) -> str:  # type: ignore[no-untyped-def]
    return f"embedded in {status.data_dir}" if status.embedded else "external server"


@click.command()
@friendly_errors
def init() -> None:
    """Start (or reach) the database and bring its schema up to date."""
    with open_memory() as m:
        s = m.status()
        click.echo(f"neuromem ready: {where(s)}, schema version {s.schema_version}")


@click.command()
@click.option("--user-id", "-u", default=None, help="Counts for one user only.")
@friendly_errors
def status(user_id: str | None) -> None:
    """Server, schema version, memory counts (of every user, or of one with -u), and the embedder
    and LLM configured, each asked for one small answer to show whether it answers."""
    from neuromem.admin import check_models

    with open_memory(query_settings()) as m:  # one text to embed: the engine that loads fastest
        s = m.status(user_id=user_id)
        checks = check_models(m)
    click.echo(f"server:     PostgreSQL {s.server_version} ({where(s)})")
    click.echo(f"pgvector:   {s.pgvector_version or 'missing'}")
    click.echo(f"schema:     version {s.schema_version} (this neuromem: {s.latest_schema_version})")
    for check in checks:
        state = {True: "answers", False: "DOES NOT ANSWER", None: "not configured"}[check.answered]
        mode = f", embedding {s.embed_mode}" if check.role == "embedder" else ""
        click.echo(f"{check.role + ':':<12}{check.configured}: {state} ({check.detail}{mode})")
    scope = f" of {user_id}" if user_id else ""
    click.echo(
        f"memories{scope}: ".ljust(12)
        + (", ".join(f"{k} {v}" for k, v in sorted(s.counts.items())) or "none")
    )
    click.echo(f"pending:    {s.pending_embeddings} rows waiting for an embedding ({s.pending_turns} turns)")
    if s.overdue_jobs:  # issue 27: nothing runs the upkeep
        click.echo(
            f"warning:    overdue jobs: {', '.join(s.overdue_jobs)} — run `memctl worker` "
            "or use Memory(background_jobs=True)",
            err=True,
        )


@click.command()
@click.option("--batch-size", type=click.IntRange(1, 4096), default=None)
@friendly_errors
def backfill(batch_size: int | None) -> None:
    """Embed every memory and conversation turn still waiting for a vector."""
    with open_memory() as m:
        done = m.flush(batch_size=batch_size)
        click.echo(f"embedded {done} memories and turns; {m.pending_embeddings()} still pending")


@click.command()
@click.option("--dim", type=click.IntRange(8, 4000), required=True, help="The new embedding dimension.")
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@friendly_errors
def reembed(dim: int, yes: bool) -> None:
    """Change the embedding dimension and re-embed every memory with the configured embedder."""
    from neuromem.admin import reembed as run_reembed

    settings = load_settings()
    if not yes:
        click.confirm(f"Drop every stored vector and re-embed at {dim} dimensions?", abort=True)
    total = run_reembed(settings, dim)
    click.echo(f"vectors reset to {dim}-d; re-embedded {total} memories")


@click.group()
def server() -> None:
    """The embedded PostgreSQL server: it starts on first use and stops by itself after
    NEUROMEM_STORE__IDLE_SHUTDOWN_S seconds without a client (default 300)."""


@server.command("stop")
@friendly_errors
def server_stop() -> None:
    """Stop the embedded server of the configured data directory now (and its idle watchdog), and the
    service a command started for it."""
    from neuromem.admin import stop_embedded_server

    from .remote import stop_service

    settings = load_settings()
    if not settings.store.database_url and (pid := stop_service(settings.store.data_dir)):
        click.echo(f"stopped the neuromem service commands had started (pid {pid})")
    done = stop_embedded_server(settings)
    if done.external:
        click.echo(
            "nothing stopped: NEUROMEM_DATABASE_URL points at an external server, which neuromem does not run"
        )
    elif done.postmaster_pid is not None:
        click.echo(f"stopped the embedded PostgreSQL in {done.data_dir} (pid {done.postmaster_pid})")
    else:
        watchdog = f" (stopped its idle watchdog, pid {done.watchdog_pid})" if done.watchdog_pid else ""
        click.echo(f"no embedded PostgreSQL was running in {done.data_dir}{watchdog}")


def register_commands(cli: click.Group) -> None:
    """Add this module's commands to ``memctl`` (``cli.main`` calls it)."""
    for command in (init, status, backfill, reembed, server):
        cli.add_command(command)
