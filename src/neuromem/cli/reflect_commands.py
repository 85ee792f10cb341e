"""``memctl traits``, ``memctl trait``, ``memctl reflect``, ``memctl job`` and ``memctl worker``."""

from __future__ import annotations

from typing import Any

import click

from .context import friendly_errors, open_memory, user_option


def _line(t: Any) -> str:
    conf = "   —" if t.trait_confidence is None else f"{t.trait_confidence:.2f}"
    return f"  {conf}  [{t.trait_stage}/{t.trait_context or '-'}]  {t.content}  ({t.id})"


@click.command()
@user_option
@friendly_errors
def traits(user_id: str) -> None:
    """What reflection believes about a user: core traits, preferences, behaviour patterns,
    then the ones still forming (not used in recall yet). Dissolved traits are not listed."""
    with open_memory() as m:
        groups = m.traits(user_id=user_id)
        for title, items in (
            ("Core traits", groups.core),
            ("Preferences", groups.preferences),
            ("Behaviour patterns", groups.behaviors),
            ("Forming (not recalled)", groups.forming),
        ):
            click.echo(f"{title}:")
            for t in items:
                click.echo(_line(t))
            if not items:
                click.echo("  (none)")


@click.command()
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


@click.command()
@user_option
@friendly_errors
def reflect(user_id: str) -> None:
    """Run one reflection cycle for a user now: find patterns across their memories and
    create, reinforce, promote or dissolve traits."""
    with open_memory() as m:
        r = m.reflect(user_id=user_id)
        click.echo(
            f"cycle {r.cycle_id}: scanned {r.scanned}, created {r.created}, updated {r.updated}, "
            f"dissolved {r.dissolved}, promoted {r.promoted}"
        )


@click.command()
@click.option(
    "--run", "name", required=True, help="a job name: expire_trends, reflection_sweep, compress_episodes, …"
)
@click.option("--dry-run", is_flag=True, help="report what the job would change, change nothing")
@friendly_errors
def job(name: str, dry_run: bool) -> None:
    """Run one maintenance job now, in this process (e.g. refresh the trait view, expire old
    trends, reflect on idle users, embed pending rows); an unknown name lists them."""
    with open_memory() as m:
        click.echo(f"{name}{' (dry run)' if dry_run else ''}: {m.run_job(name, dry_run=dry_run)}")


@click.command()
@click.option("--concurrency", default=1, show_default=True, help="jobs run at once by this worker")
@click.option("--once", is_flag=True, help="run every job once in this process, without the queue, and exit")
@click.option("--list", "list_", is_flag=True, help="list the jobs and their schedules and exit")
@friendly_errors
def worker(concurrency: int, once: bool, list_: bool) -> None:
    """Run the job-queue worker until interrupted: every maintenance job on its schedule (trait
    view refresh, trend expiry, trait decay, access-count flushes, idle session ends, embedding
    backfill, the reflection sweep, compression, purge). Start as many as you like: each
    job runs once per tick across all of them, and a failing job is retried without stopping
    the others."""
    from neuromem.admin import run_worker, scheduled_jobs

    if list_:
        for job_ in scheduled_jobs():
            click.echo(f"{job_.name:22} {job_.cron:14} {job_.description}")
        return
    with open_memory() as m:
        if once:
            for job_ in scheduled_jobs():
                click.echo(f"{job_.name}: {m.run_job(job_.name)}")
            return
        jobs = scheduled_jobs()
        click.echo(
            f"worker: {len(jobs)} jobs on their schedules (UTC), {concurrency} at a time; one line per run "
            "below; Ctrl-C stops"
        )
        for job_ in jobs:
            click.echo(f"  {job_.name:22} {job_.cron:14} {job_.description}")
        _show_job_runs()
        run_worker(m, concurrency=concurrency)


def _show_job_runs() -> None:
    """The worker logs each run (``job NAME (clock …): summary``) at INFO: show those lines on stderr."""
    import logging

    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(message)s", "%H:%M:%S"))
    logger = logging.getLogger("neuromem.lifecycle.worker")
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)


def register_commands(cli: click.Group) -> None:
    """Add this module's commands to ``memctl`` (``cli.main`` calls it)."""
    for command in (traits, trait, reflect, job, worker):
        cli.add_command(command)
