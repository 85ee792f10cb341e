"""``memctl init``, ``status``, ``server stop``, ``backfill``, ``reembed``."""

from __future__ import annotations

import click

from ..store import memories, migrate
from .context import friendly_errors, load_settings, open_memory
from .main import cli


@cli.command()
@friendly_errors
def init() -> None:
    """Start (or reach) the database and bring its schema up to date."""
    with open_memory() as m:
        server = m._core.db.server
        where = f"embedded in {server.data_dir}" if server.embedded else "external server"
        click.echo(f"neuromem ready: {where}, schema version {migrate.latest_version()}")


@cli.command()
@click.option("--user-id", default=None, help="Counts for one user only.")
@friendly_errors
def status(user_id: str | None) -> None:
    """Server, schema version, memory counts and embedder."""
    with open_memory() as m:
        core = m._core
        with core.db.connection() as conn:
            version = migrate.current_version(conn)
            server_version = conn.info.server_version
            pgvector = conn.execute("SELECT extversion FROM pg_extension WHERE extname = 'vector'").fetchone()
            counts = memories.counts_by_type(conn, user_id)
            pending = memories.count_pending_embeddings(conn, user_id)
        server = core.db.server
        click.echo(f"server:     PostgreSQL {server_version // 10000}.{server_version % 10000} "
                   f"({'embedded, ' + str(server.data_dir) if server.embedded else 'external'})")
        click.echo(f"pgvector:   {pgvector['extversion'] if pgvector else 'missing'}")
        click.echo(f"schema:     version {version} (this neuromem: {migrate.latest_version()})")
        click.echo(f"embedder:   {core.embedder.name} ({core.embedder.dim}-d, {core.settings.embedder.mode})")
        click.echo("memories:   " + (", ".join(f"{k} {v}" for k, v in sorted(counts.items())) or "none"))
        click.echo(f"pending:    {pending} rows waiting for an embedding")


@cli.command()
@click.option("--batch-size", type=click.IntRange(1, 4096), default=None)
@friendly_errors
def backfill(batch_size: int | None) -> None:
    """Embed every memory still waiting for a vector."""
    with open_memory() as m:
        done = m._core.backfill_embeddings(batch_size=batch_size)
        click.echo(f"embedded {done} memories; {m.pending_embeddings()} still pending")


@cli.command()
@click.option("--dim", type=click.IntRange(8, 4000), required=True, help="The new embedding dimension.")
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@friendly_errors
def reembed(dim: int, yes: bool) -> None:
    """Change the embedding dimension and re-embed every memory with the configured embedder."""
    from ..store.reembed import reembed as run_reembed

    settings = load_settings()
    if not yes:
        click.confirm(f"Drop every stored vector and re-embed at {dim} dimensions?", abort=True)
    run_reembed(settings, dim)
    click.echo(f"vectors reset to {dim}-d; embedding all memories now")
    settings = settings.with_updates(store={"embedding_dim": dim})
    from ..memory import Memory

    with Memory(settings) as m:
        total = m._core.backfill_embeddings()
    click.echo(f"re-embedded {total} memories")


@cli.group()
def server() -> None:
    """The embedded PostgreSQL server."""


@server.command("stop")
@friendly_errors
def server_stop() -> None:
    """Stop the embedded server of the configured data directory."""
    from ..store.server import stop_embedded

    settings = load_settings()
    stopped = stop_embedded(settings.store.data_dir)
    click.echo("stopped" if stopped else "not running")
