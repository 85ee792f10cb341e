"""``memctl add``, ``search``, ``get``, ``list``, ``delete``, ``history``."""

from __future__ import annotations

import json

import click

from ..types import MemoryRecord, SearchHit
from .context import friendly_errors, open_memory, user_option
from .main import cli


def describe(record: MemoryRecord) -> str:
    state = "" if record.is_current else " [expired]" if record.expired_at else " [no longer valid]"
    return f"{record.id}  {record.memory_type.value:<8} v{record.version}  {record.content}{state}"


def describe_hit(rank: int, hit: SearchHit) -> str:
    s = hit.score
    found = ",".join(f"{k}#{v}" for k, v in sorted(s.ranks.items()))
    base = s.extra.get("base", s.rrf)  # the fused score the four factors multiply (RRF or linear fusion)
    return (f"{rank:>2}. {s.final:.4f}  {hit.memory.content}\n"
            f"    [{hit.memory.memory_type.value}; fused {base:.4f} × (1 + recency {s.recency:.3f} + importance "
            f"{s.importance:.3f} + stage {s.stage_boost:.2f}); found by {found}]")


@cli.command()
@user_option
@click.argument("content")
@click.option("--type", "memory_type", default="fact", show_default=True,
              type=click.Choice(["fact", "episodic", "trait", "document"]))
@click.option("--category", default=None)
@click.option("--importance", type=click.FloatRange(0, 1), default=None)
@click.option("--metadata", default=None, help="JSON object.")
@friendly_errors
def add(user_id: str, content: str, memory_type: str, category: str | None, importance: float | None,
        metadata: str | None) -> None:
    """Store one memory."""
    meta = json.loads(metadata) if metadata else None
    with open_memory() as m:
        for result in m.add(content, user_id=user_id, memory_type=memory_type, category=category,
                            importance=importance, metadata=meta):
            click.echo(f"{result.operation.value.upper()}: {describe(result.memory)} ({result.reason})")


@cli.command()
@user_option
@click.argument("query")
@click.option("--limit", "-k", type=click.IntRange(1, 1000), default=10, show_default=True)
@friendly_errors
def search(user_id: str, query: str, limit: int) -> None:
    """Recall the memories that matter for QUERY, with their scores."""
    with open_memory() as m:
        hits = m.search(query, user_id=user_id, limit=limit)
        if not hits:
            click.echo("no memories found")
        for i, hit in enumerate(hits, 1):
            click.echo(describe_hit(i, hit))


@cli.command()
@user_option
@click.argument("memory_id")
@friendly_errors
def history(user_id: str, memory_id: str) -> None:
    """Every change of a memory and of the versions around it."""
    with open_memory() as m:
        for entry in m.history(memory_id, user_id=user_id):
            change = entry.new_content if entry.old_content is None else f"{entry.old_content!r} → {entry.new_content!r}"
            click.echo(f"{entry.created_at:%Y-%m-%d %H:%M:%S}  {entry.event.value:<12} {entry.actor:<10} "
                       f"{entry.memory_id}  {change}")


@cli.command("list")
@user_option
@click.option("--limit", type=click.IntRange(1, 10000), default=50, show_default=True)
@click.option("--as-of", default=None, help="ISO-8601 time: what was known and valid then.")
@friendly_errors
def list_memories(user_id: str, limit: int, as_of: str | None) -> None:
    """List a user's current memories (or those of a past moment)."""
    with open_memory() as m:
        for record in m.get_all(user_id=user_id, limit=limit, as_of=as_of):
            click.echo(describe(record))


@cli.command()
@user_option
@click.argument("memory_id")
@friendly_errors
def delete(user_id: str, memory_id: str) -> None:
    """Soft-delete a memory."""
    with open_memory() as m:
        record = m.delete(memory_id, user_id=user_id)
        click.echo(f"deleted {record.id}")
