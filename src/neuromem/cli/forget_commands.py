"""``memctl forget`` (seed 003 §24: selective forgetting with a receipt) and ``memctl receipts``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from .context import friendly_errors, open_memory, user_option

if TYPE_CHECKING:
    from neuromem import CompactionReport, ForgetReceipt


def describe_receipt(receipt: ForgetReceipt) -> str:
    counts = ", ".join(f"{table} {n}" for table, n in receipt.counts.items()) or "nothing"
    return (
        f"receipt {receipt.id}  {receipt.created_at:%Y-%m-%d %H:%M:%S}  {receipt.target_kind} by {receipt.actor}\n"
        f"  deleted: {counts}\n"
        f"  {len(receipt.content_sha256)} content hashes, {len(receipt.id_sha256)} id hashes, "
        f"digest {receipt.digest}\n"
        f"  {_erasure(receipt)}"
    )


def _erasure(receipt: ForgetReceipt) -> str:
    if receipt.erased_at is not None:
        return f"physically erased {receipt.erased_at:%Y-%m-%d %H:%M:%S} ({', '.join(receipt.relations)} rewritten)"
    return "physical erasure pending (memctl forget --compact, or the daily job compact_forgotten)"


def describe_compaction(report: CompactionReport) -> str:
    lines = [
        f"compaction: {len(report.erased)} receipts erased, {len(report.relations)} relations rewritten "
        f"in {report.seconds:.2f} s; WAL {'retired' if report.wal_retired else 'not switched'}"
    ]
    if report.skipped:
        lines.append(f"  busy, retried next time: {', '.join(report.skipped)}")
    if report.waiting:
        lines.append(f"  {report.waiting} receipts still pending")
    return "\n".join(lines)


@click.command()
@user_option
@click.option("--memory", "memory_id", default=None, help="One memory id (all its versions).")
@click.option("--session", "session_id", default=None, help="One conversation session id.")
@click.option("--document", "document_id", default=None, help="One document id.")
@click.option("--since", default=None, help="Start of a time window (ISO-8601).")
@click.option("--until", default=None, help="End of a time window (ISO-8601, exclusive).")
@click.option("--query", default=None, help="A topic: every memory and message holding all these words.")
@click.option("--entity", default=None, help="An entity of the graph and the memories that mention it.")
@click.option("--concept", default=None, help="A concept node and the memories ABOUT it.")
@click.option("--everything", is_flag=True, help="Everything stored for the user.")
@click.option("--dry-run", is_flag=True, help="Show what would be forgotten; delete nothing.")
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@click.option(
    "--compact",
    is_flag=True,
    help="Also rewrite the tables that held the rows (VACUUM FULL) so the words leave the disk; "
    "without a target: do it for the user's receipts still pending.",
)
@friendly_errors
def forget(
    user_id: str,
    memory_id: str | None,
    session_id: str | None,
    document_id: str | None,
    since: str | None,
    until: str | None,
    query: str | None,
    entity: str | None,
    concept: str | None,
    everything: bool,
    dry_run: bool,
    yes: bool,
    compact: bool,
) -> None:
    """Hard-delete every trace of ONE target and print the receipt that proves it."""
    target: dict[str, Any] = dict(
        memory_id=memory_id,
        session_id=session_id,
        document_id=document_id,
        since=since,
        until=until,
        query=query,
        entity=entity,
        concept=concept,
        everything=everything,
    )
    from neuromem import ForgetPreview  # loaded on use: `memctl --help` loads no engine

    with open_memory() as m:
        if compact and not dry_run and not any(target.values()):
            click.echo(describe_compaction(m.compact_forgotten(user_id=user_id)))
            return
        if not dry_run and not yes:
            preview = m.forget(user_id=user_id, dry_run=True, **target)  # validates the target first
            assert isinstance(preview, ForgetPreview)
            click.confirm(
                f"forget {preview.counts.get('memories', 0)} memories and "
                f"{preview.counts.get('messages', 0)} messages of {user_id!r} for good?",
                abort=True,
            )
        result = m.forget(
            user_id=user_id, dry_run=dry_run, actor="memctl", compact=compact and not dry_run, **target
        )
        if isinstance(result, ForgetPreview):
            sizes = ", ".join(f"{k} {v}" for k, v in result.counts.items())
            click.echo(f"dry run, nothing deleted; would forget: {sizes}")
            for row in result.memories:
                click.echo(f"  {row.id}  {row.memory_type:<8} {row.content}")
        else:
            click.echo(describe_receipt(result))


@click.command()
@user_option
@click.argument("receipt_id", required=False)
@click.option("--limit", type=click.IntRange(1, 10000), default=20, show_default=True)
@friendly_errors
def receipts(user_id: str, receipt_id: str | None, limit: int) -> None:
    """List a user's forget receipts, or show one."""
    with open_memory() as m:
        found = (
            [m.forget_receipt(receipt_id, user_id=user_id)]
            if receipt_id
            else m.forget_receipts(user_id=user_id, limit=limit)
        )
        if not found:
            click.echo("no receipts")
        for r in found:
            click.echo(describe_receipt(r))


def register_commands(cli: click.Group) -> None:
    """Add this module's commands to ``memctl`` (``cli.main`` calls it)."""
    for command in (forget, receipts):
        cli.add_command(command)
