"""``memctl traits``, ``memctl trait``, ``memctl reflect``, ``memctl job`` and ``memctl worker``."""

from __future__ import annotations

import time
from typing import Any

import click

from .context import friendly_errors, open_memory, user_option
from .main import cli


def _line(t: Any) -> str:
    conf = "   —" if t.trait_confidence is None else f"{t.trait_confidence:.2f}"
    return f"  {conf}  [{t.trait_stage}/{t.trait_context or '-'}]  {t.content}  ({t.id})"


@cli.command()
@user_option
@friendly_errors
def traits(user_id: str) -> None:
    """What reflection believes about a user: core traits, preferences, behaviour patterns,
    then the ones still forming (not used in recall yet). Dissolved traits are not listed."""
    with open_memory() as m:
        groups = m.traits(user_id=user_id)
        for title, items in (("Core traits", groups.core), ("Preferences", groups.preferences),
                             ("Behaviour patterns", groups.behaviors), ("Forming (not recalled)", groups.forming)):  # fmt: skip
            click.echo(f"{title}:")
            for t in items:
                click.echo(_line(t))
            if not items:
                click.echo("  (none)")


@cli.command()
@click.argument("trait_id")
@user_option
@friendly_errors
def trait(trait_id: str, user_id: str) -> None:
    """One trait: evidence chain, parents, children and history."""
    with open_memory() as m:
        d = m.trait(trait_id, user_id=user_id)
        click.echo(_line(d.trait))
        click.echo(f"decayed confidence: {d.decayed_confidence}")
        for label, rows in (("supporting", d.supporting), ("contradicting", d.contradicting)):
            click.echo(f"{label} evidence ({len(rows)}):")
            for e in rows:
                click.echo(f"  {e.quality} [{e.context or '-'}] {e.content}")
        for label, items in (("parents", d.parents), ("children", d.children)):
            click.echo(f"{label}:")
            for t in items:
                click.echo(_line(t))
        click.echo("history:")
        for h in d.history:
            click.echo(f"  {h.created_at:%Y-%m-%d %H:%M} {h.event} by {h.actor}")


@cli.command()
@user_option
@friendly_errors
def reflect(user_id: str) -> None:
    """Run one reflection cycle for a user now: find patterns across their memories and
    create, reinforce, promote or dissolve traits."""
    with open_memory() as m:
        r = m.reflect(user_id=user_id)
        click.echo(f"cycle {r.cycle_id}: scanned {r.scanned}, created {r.created}, updated {r.updated}, "
                   f"dissolved {r.dissolved}, promoted {r.promoted}")  # fmt: skip


@cli.command()
@click.option("--run", "name", required=True, help="refresh_mv_trait, expire_trends, dissolve_weak_traits, …")
@friendly_errors
def job(name: str) -> None:
    """Run one maintenance job now (e.g. refresh the trait view, expire old trends, flush
    access counts, embed pending rows); an unknown name lists them."""
    with open_memory() as m:
        click.echo(f"{name}: {m.run_job(name)}")


@cli.command()
@click.option("--tick", default=30.0, show_default=True, help="seconds between scheduler checks")
@click.option("--once", is_flag=True, help="run every job once and exit")
@friendly_errors
def worker(tick: float, once: bool) -> None:
    """Run the maintenance jobs at their periods until interrupted (trait view refresh, trend
    expiry, trait decay, access-count flushes, idle session ends, embedding backfill)."""
    from neuromem import scheduled_jobs

    jobs = scheduled_jobs()
    last: dict[str, float] = {}
    with open_memory() as m:
        while True:
            now = time.monotonic()
            for job_ in jobs:
                if once or now - last.get(job_.name, -1e18) >= job_.period_s:
                    click.echo(f"{job_.name}: {m.run_job(job_.name)}")
                    last[job_.name] = now
            if once:
                return
            time.sleep(tick)
