"""``memctl serve``, ``mcp``, ``keys create|list|revoke``, ``metrics``, ``openapi`` (issue #15)."""

from __future__ import annotations

import json

import click

from .context import friendly_errors, load_settings, open_memory

_EXTRA = "the service needs its extra: pip install 'neuromem[service]'"


def _require_extra() -> None:
    try:
        import fastapi  # noqa: F401
        import mcp  # noqa: F401
        import prometheus_client  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError as exc:
        raise click.ClickException(f"{_EXTRA} ({exc.name} is missing)") from None


@click.command()
@click.option("--host", default=None, help="Address to listen on (default: service.host, 127.0.0.1).")
@click.option(
    "--port", type=click.IntRange(0, 65535), default=None, help="Port (default: service.port, 8765)."
)
@click.option(
    "--proxy",
    "proxy_upstream",
    default=None,
    metavar="UPSTREAM_URL",
    help="Also serve POST /v1/chat/completions: a memory proxy in front of this OpenAI-compatible "
    "base URL (e.g. https://api.openai.com/v1).",
)
@click.option(
    "--auto",
    is_flag=True,
    hidden=True,
    help="Started by a command: any free port, stop after service.idle_shutdown_s idle.",
)
@friendly_errors
def serve(host: str | None, port: int | None, proxy_upstream: str | None, auto: bool) -> None:
    """Serve the REST API (/v1, /docs), MCP over HTTP (/mcp) and /metrics until Ctrl-C.

    The embedder is loaded before /readyz answers ready; then one line gives the URLs. On the
    embedded database, memctl commands use it (and a service they started gives way to this one).
    """
    _require_extra()
    from neuromem.service import serve as run

    settings = load_settings()
    updates = {
        k: v for k, v in (("host", host), ("port", port), ("proxy_upstream", proxy_upstream)) if v is not None
    }
    run(settings.with_updates(service=updates) if updates else settings, auto=auto)  # another service: exit 2


@click.command("mcp")
@friendly_errors
def mcp_command() -> None:
    """Serve the MCP tools over stdio (for Claude Desktop, Cursor…), as the local operator."""
    _require_extra()
    from neuromem.service import serve_mcp_stdio

    settings = load_settings()
    with open_memory() as memory:
        serve_mcp_stdio(memory, settings)


@click.command()
@friendly_errors
def metrics() -> None:
    """Print the database-side metrics (model calls and tokens, pending embeddings…) in Prometheus format."""
    _require_extra()
    from neuromem.service import metrics_exposition

    with open_memory() as memory:
        click.echo(metrics_exposition(memory).decode(), nl=False)


@click.command()
@friendly_errors
def openapi() -> None:
    """Print the OpenAPI 3.1 document of the REST API (committed as docs/openapi.json)."""
    _require_extra()
    from neuromem.service import openapi_document

    with open_memory() as memory:
        click.echo(json.dumps(openapi_document(memory), indent=2, ensure_ascii=False))


@click.group()
def keys() -> None:
    """API keys of the service: create (shown once), list, revoke."""


@keys.command("create")
@click.option("--tenant", default="default", show_default=True, help="The application the key belongs to.")
@click.option("--scope", type=click.Choice(["read", "write", "admin"]), default="write", show_default=True)
@click.option("--user-id", default=None, help="Bind the key to this one user of the tenant.")
@click.option("--name", default="", help="A note to recognise the key by.")
@friendly_errors
def keys_create(tenant: str, scope: str, user_id: str | None, name: str) -> None:
    """Create a key; its token is printed once and never stored."""
    from neuromem.service import key_store

    with open_memory() as memory:
        key, token = key_store(memory).create(tenant, scope, name=name, user_id=user_id)
    click.echo(
        f"id:     {key.id}\ntenant: {key.tenant}\nscope:  {key.scope.label}"
        + (f"\nuser:   {key.bound_user}" if key.bound_user else "")
    )
    click.echo(f"token:  {token}")
    click.secho("Store the token now: it is shown only once.", err=True, fg="yellow")


@keys.command("list")
@click.option("--tenant", default=None, help="Only this tenant's keys.")
@click.option("--all", "include_revoked", is_flag=True, help="Include revoked keys.")
@friendly_errors
def keys_list(tenant: str | None, include_revoked: bool) -> None:
    """The keys (never their tokens)."""
    from neuromem.service import key_store

    with open_memory() as memory:
        found = key_store(memory).list(tenant, include_revoked=include_revoked)
    for k in found:
        state = f"revoked {k.revoked_at:%Y-%m-%d}" if k.revoked_at else "active"
        used = f"{k.last_used_at:%Y-%m-%d %H:%M}" if k.last_used_at else "never"
        click.echo(
            f"{k.id}  {k.tenant:<16} {k.scope.label:<5} {k.bound_user or '*':<16} {state:<18} "
            f"used {used}  {k.name}"
        )
    if not found:
        click.echo("no keys")


@keys.command("revoke")
@click.argument("key_id")
@friendly_errors
def keys_revoke(key_id: str) -> None:
    """Revoke a key by id (or by its token); requests with it get 401 from then on."""
    from neuromem.service import key_store

    with open_memory() as memory:
        key = key_store(memory).revoke(key_id)
    click.echo(f"revoked {key.id} ({key.tenant}, {key.scope.label})")


def register_commands(cli: click.Group) -> None:
    """Add this module's commands to ``memctl`` (``cli.main`` calls it)."""
    for command in (serve, mcp_command, metrics, openapi, keys):
        cli.add_command(command)
