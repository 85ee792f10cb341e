"""``memctl webhooks add|list|remove`` and ``memctl events`` (issue 26 item 5)."""

from __future__ import annotations

import click

from .context import friendly_errors, open_memory, user_option


@click.group()
def webhooks() -> None:
    """URLs a tenant's events are POSTed to, signed (the job deliver_webhooks; `memctl worker` runs it)."""


@webhooks.command("add")
@click.argument("url")
@click.option(
    "--events",
    "kinds",
    default="",
    help="Comma-separated kinds, e.g. memory.added,trait.formed (default: every kind).",
)
@click.option("--tenant", default="default", show_default=True)
@friendly_errors
def webhooks_add(url: str, kinds: str, tenant: str) -> None:
    """Deliver the tenant's events to URL from now on; prints the signing secret once."""
    from neuromem.admin import add_webhook

    with open_memory() as m:
        hook = add_webhook(m, url, tenant=tenant, events=[k.strip() for k in kinds.split(",") if k.strip()])
    click.echo(f"id:     {hook.id}\nurl:    {hook.url}\nevents: {', '.join(hook.events) or 'all'}")
    click.echo(f"secret: {hook.secret}")
    click.secho(
        "Store the secret now: it is shown only once. Receivers check X-Neuromem-Signature with it.",
        err=True,
        fg="yellow",
    )


@webhooks.command("list")
@click.option("--tenant", default=None)
@click.option("--all", "include_removed", is_flag=True, help="Include removed webhooks.")
@friendly_errors
def webhooks_list(tenant: str | None, include_removed: bool) -> None:
    from neuromem.admin import list_webhooks

    with open_memory() as m:
        found = list_webhooks(m, tenant=tenant, include_removed=include_removed)
    for h in found:
        state = f"removed {h.removed_at:%Y-%m-%d}" if h.removed_at else "active"
        failing = f"  failing x{h.failures}: {h.last_error}" if h.failures else ""
        click.echo(
            f"{h.id}  {h.tenant:<12} {state:<18} delivered {h.delivered:<6} "
            f"{','.join(h.events) or 'all'}  {h.url}{failing}"
        )
    if not found:
        click.echo("no webhooks")


@webhooks.command("remove")
@click.argument("webhook_id")
@friendly_errors
def webhooks_remove(webhook_id: str) -> None:
    from neuromem.admin import remove_webhook

    with open_memory() as m:
        hook = remove_webhook(m, webhook_id)
    click.echo(f"removed {hook.id} ({hook.url})")


@click.command("events")
@user_option
@click.option("--after", default=None, help="The cursor printed last time (default: from the beginning).")
@click.option("--limit", type=click.IntRange(1, 1000), default=100, show_default=True)
@friendly_errors
def events_command(user_id: str, after: str | None, limit: int) -> None:
    """A user's change feed: memories added, updated, invalidated, forgotten; conflicts; traits."""
    with open_memory() as m:
        page = m.events(user_id=user_id, after=after, limit=limit)
    for e in page.events:
        click.echo(
            f"{e.created_at:%Y-%m-%d %H:%M:%S}  {e.kind:<20} {e.memory_id or '-'}  "
            + " ".join(f"{k}={v}" for k, v in sorted(e.detail.items()))
        )
    click.echo(f"next: {page.next}")


def register_commands(cli: click.Group) -> None:
    """Add this module's commands to ``memctl`` (``cli.main`` calls it)."""
    for command in (webhooks, events_command):
        cli.add_command(command)
