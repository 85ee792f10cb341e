"""``memctl add``, ``search``, ``list``, ``delete``, ``history``."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import click

from .context import friendly_errors, open_memory, query_settings, remote_or_none, user_option

if TYPE_CHECKING:
    from neuromem import MemoryRecord, SearchHit

TIME_HELP = (
    "Record time, ISO-8601: what the system knew at that moment.",
    "Event time, ISO-8601: what was true at that moment (as known now, or at --as-of).",
)


LINE_BREAK = " ↵ "  # shown for a line break inside a memory: one memory, one row


def one_line(text: str) -> str:
    """``text`` on one row: each line break (and the blank space around it) becomes ``LINE_BREAK``."""
    return LINE_BREAK.join(part.strip() for part in text.strip().splitlines() if part.strip())


def describe(record: MemoryRecord | RemoteRecord) -> str:
    state = (
        ""
        if record.is_current
        else " [expired]"
        if record.expired_at
        else " [no longer valid]"
        if record.invalid_at
        else " [dissolved]"
    )
    return f"{record.id}  {record.memory_type.value:<8} v{record.version}  {one_line(record.content)}{state}"


@dataclass(frozen=True, slots=True)
class RemoteRecord:
    """A memory as the service's JSON gives it, with the attributes ``describe`` reads."""

    id: str
    memory_type: Any
    version: int
    content: str
    expired_at: str | None
    invalid_at: str | None
    is_current: bool

    @classmethod
    def of(cls, data: Mapping[str, Any]) -> RemoteRecord:
        dissolved = data.get("trait_stage") == "dissolved"
        expired, invalid = data.get("expired_at"), data.get("invalid_at")
        return cls(
            str(data["id"]),
            _Label(str(data.get("memory_type", "memory"))),
            int(data.get("version", 1)),
            str(data.get("content", "")),
            expired,
            invalid,
            not (expired or invalid or dissolved),
        )


@dataclass(frozen=True, slots=True)
class _Label:
    value: str


def describe_hit(rank: int, hit: SearchHit) -> str:
    s = hit.score
    found = ",".join(f"{k}#{v}" for k, v in sorted(s.ranks.items()))
    base = s.extra.get("base", s.rrf)  # the fused score the four factors multiply (RRF or linear fusion)
    return (
        f"{rank:>2}. {s.final:.4f}  {one_line(hit.memory.content)}\n"
        f"    [{hit.memory.memory_type.value}; fused {base:.4f} × (1 + recency {s.recency:.3f} + importance "
        f"{s.importance:.3f} + stage {s.stage_boost:.2f}); found by {found}]"
    )


def describe_remote_hit(rank: int, hit: Mapping[str, Any]) -> str:
    """The same two lines as ``describe_hit``, from the service's JSON (parts it omits are left out)."""
    memory, score = hit.get("memory", {}), hit.get("score", {})
    line = f"{rank:>2}. {float(score.get('final', 0.0)):.4f}  {one_line(str(memory.get('content', '')))}"
    parts = [str(memory.get("memory_type", "memory"))]
    if {"recency", "importance", "stage_boost"} <= score.keys():
        base = score.get("extra", {}).get("base", score.get("rrf", 0.0))
        parts.append(
            f"fused {base:.4f} × (1 + recency {score['recency']:.3f} + importance "
            f"{score['importance']:.3f} + stage {score['stage_boost']:.2f})"
        )
    if score.get("ranks"):
        parts.append("found by " + ",".join(f"{k}#{v}" for k, v in sorted(score["ranks"].items())))
    return f"{line}\n    [{'; '.join(parts)}]"


def parse_metadata(text: str | None) -> dict[str, Any] | None:
    """``--metadata``: a JSON object, or a usage error (exit 2) that says what is wrong."""
    if text is None:
        return None
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise click.BadParameter(
            f"not valid JSON ({exc.msg} at character {exc.pos}): {text!r}", param_hint="--metadata"
        ) from None
    if not isinstance(value, dict):
        raise click.BadParameter(
            f'must be a JSON object like \'{{"k": "v"}}\', got {text!r}', param_hint="--metadata"
        )
    return value


@click.command()
@user_option
@click.argument("content")
@click.option(
    "--type",
    "memory_type",
    default="fact",
    show_default=True,
    type=click.Choice(["fact", "episodic", "trait", "document"]),
)
@click.option("--category", default=None, help="e.g. identity, preference, relationship, task, procedure.")
@click.option("--importance", type=click.FloatRange(0, 1), default=None, help="0–1 (default from settings).")
@click.option("--metadata", default=None, help='A JSON object, e.g. \'{"source": "crm"}\'.')
@friendly_errors
def add(
    user_id: str,
    content: str,
    memory_type: str,
    category: str | None,
    importance: float | None,
    metadata: str | None,
) -> None:
    """Store one memory: ADD, or NOOP when already known, or UPDATE of a near-duplicate."""
    meta = parse_metadata(metadata)
    results = remote_or_none(
        None,
        lambda r: r.add(
            user_id, content, memory_type=memory_type, category=category, importance=importance, metadata=meta
        ),
    )
    if results is not None:
        for data in results:
            click.echo(
                f"{data['operation'].upper()}: {describe(RemoteRecord.of(data['memory']))} "
                f"({data.get('reason', '')})"
            )
        return
    with open_memory(query_settings()) as m:  # one text to embed: the engine that loads fastest
        for result in m.add(
            content,
            user_id=user_id,
            memory_type=memory_type,
            category=category,
            importance=importance,
            metadata=meta,
        ):
            click.echo(f"{result.operation.value.upper()}: {describe(result.memory)} ({result.reason})")


@click.command()
@user_option
@click.argument("query")
@click.option("--limit", "-k", type=click.IntRange(1, 1000), default=10, show_default=True)
@friendly_errors
def search(user_id: str, query: str, limit: int) -> None:
    """Recall the memories that matter for QUERY, with their scores.

    Uses a running `memctl serve` when there is one (NEUROMEM_SERVE_URL, or the serve.json it
    writes next to the data directory); otherwise runs in this process.
    """
    hits = remote_or_none(None, lambda r: r.search(user_id, query, limit))
    if hits is not None:
        show_hits([h for h in hits if float(h.get("score", {}).get("final", 0)) > 0], describe_remote_hit)
        return
    with open_memory(query_settings()) as m:
        show_hits(scored(m.search(query, user_id=user_id, limit=limit)), describe_hit)


def scored(hits: Any) -> list[SearchHit]:
    """The hits worth showing: a final score of 0 means no retriever gave the memory any weight
    (it only filled the candidate list), so it is evidence of nothing."""
    return [h for h in hits if h.score.final > 0]


def show_hits(hits: Sequence[Any], describe_one: Callable[[int, Any], str]) -> None:
    if not hits:
        click.echo("no memories found")
    for i, hit in enumerate(hits, 1):
        click.echo(describe_one(i, hit))


@click.command()
@user_option
@click.argument("memory_id")
@friendly_errors
def history(user_id: str, memory_id: str) -> None:
    """Every change of a memory and of the versions around it, oldest first."""
    entries = remote_or_none(None, lambda r: r.history(user_id, memory_id))
    if entries is not None:
        import datetime as dt

        for e in entries:
            old, new = e.get("old_content"), e.get("new_content")
            change = new if old is None else f"{old!r} → {new!r}"
            click.echo(
                f"{dt.datetime.fromisoformat(e['created_at']):%Y-%m-%d %H:%M:%S}  {e['event']:<12} "
                f"{e['actor']:<10} {e['memory_id']}  {change}"
            )
        return
    with open_memory() as m:
        for entry in m.history(memory_id, user_id=user_id):
            change = (
                entry.new_content
                if entry.old_content is None
                else f"{entry.old_content!r} → {entry.new_content!r}"
            )
            click.echo(
                f"{entry.created_at:%Y-%m-%d %H:%M:%S}  {entry.event.value:<12} {entry.actor:<10} "
                f"{entry.memory_id}  {change}"
            )


@click.command("list")
@user_option
@click.option("--limit", type=click.IntRange(1, 10000), default=50, show_default=True)
@click.option("--as-of", default=None, help=TIME_HELP[0])
@click.option("--valid-at", default=None, help=TIME_HELP[1])
@friendly_errors
def list_memories(user_id: str, limit: int, as_of: str | None, valid_at: str | None) -> None:
    """List a user's current memories, newest first.

    Time travel: --as-of lists what the system knew at a past moment; --valid-at lists what was
    true at a moment (a chat dated 2024 and imported today is found by --valid-at 2024-05-01,
    not by --as-of).
    """
    found = None if valid_at else remote_or_none(None, lambda r: r.list_memories(user_id, limit, as_of))
    if found is not None:
        for data in found:
            click.echo(describe(RemoteRecord.of(data)))
        if not found:
            click.echo("(none)")
        return
    with open_memory() as m:
        records = m.get_all(user_id=user_id, limit=limit, as_of=as_of, valid_at=valid_at)
        for record in records:
            click.echo(describe(record))
        if not records:
            click.echo("(none)")


@click.command()
@user_option
@click.argument("memory_id")
@friendly_errors
def delete(user_id: str, memory_id: str) -> None:
    """Soft-delete the memory MEMORY_ID (as printed by add, list or search).

    It leaves search and list at once; its history and the --as-of views of the past keep it.
    To erase a user entirely, use the SDK's Memory.reset.
    """
    deleted = remote_or_none(None, lambda r: r.delete(user_id, memory_id))
    if deleted is not None:
        click.echo(f"deleted {deleted['id']}")
        return
    with open_memory() as m:
        record = m.delete(memory_id, user_id=user_id)
        click.echo(f"deleted {record.id}")


def register_commands(cli: click.Group) -> None:
    """Add this module's commands to ``memctl`` (``cli.main`` calls it)."""
    for command in (add, search, history, list_memories, delete):
        cli.add_command(command)
