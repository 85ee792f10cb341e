"""``memctl recall QUERY [--trace] [--prompt N]``: the full recall pipeline from the command line,
with each stage's candidates, timings and scores on request (seed 003 §4.y, §25.5)."""

from __future__ import annotations

import json
from typing import Any

import click

from .context import friendly_errors, open_memory, query_settings, remote_or_none, user_option
from .memory_commands import TIME_HELP, describe_hit, describe_remote_hit, scored, show_hits


@click.command()
@user_option
@click.argument("query")
@click.option("--limit", "-k", type=click.IntRange(1, 1000), default=10, show_default=True)
@click.option(
    "--recipe",
    default=None,
    help="Retrieval recipe: hybrid (default), hybrid-rrf, dense, bm25, fast, … (an unknown name lists them).",
)
@click.option("--as-of", default=None, help=TIME_HELP[0])
@click.option("--valid-at", default=None, help=TIME_HELP[1])
@click.option("--trace", is_flag=True, help="Show each stage's candidates, timings and scores.")
@click.option(
    "--prompt",
    "budget",
    type=click.IntRange(16, 100_000),
    default=None,
    help="Also print the packed memory block for a system prompt within this many tokens.",
)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@friendly_errors
def recall(
    user_id: str,
    query: str,
    limit: int,
    recipe: str | None,
    as_of: str | None,
    valid_at: str | None,
    trace: bool,
    budget: int | None,
    as_json: bool,
) -> None:
    """Recall the memories that matter for QUERY: full-text, vector, graph and trait retrieval,
    fused and scored; with --prompt, also the memory block for a system prompt.

    Uses a running `memctl serve` when there is one and no option it does not offer
    (--recipe, --as-of, --valid-at, --trace, --json) is given.
    """
    if not (recipe or as_of or valid_at or trace or as_json) and recall_remote(user_id, query, limit, budget):
        return
    with open_memory(query_settings()) as m:
        results = m.search(
            query, user_id=user_id, limit=limit, recipe=recipe, as_of=as_of, valid_at=valid_at, trace=trace
        )
        block = (
            m.recall_prompt(query, user_id=user_id, token_budget=budget, recipe=recipe) if budget else None
        )
        if as_json:
            payload = {
                "hits": [
                    {
                        "id": str(h.memory.id),
                        "content": h.memory.content,
                        "final": h.score.final,
                        "ranks": h.score.ranks,
                        "rrf": h.score.rrf,
                        "recency": h.score.recency,
                        "importance": h.score.importance,
                        "stage_boost": h.score.stage_boost,
                        "scores": h.score.extra,
                    }
                    for h in results
                ],
                "passages": [
                    {"sha256": p.sha256, "offset": p.offset, "length": p.length, "text": p.text}
                    for p in results.passages
                ],
                "trace": results.trace,
                "prompt": None if block is None else block.text,
            }
            click.echo(json.dumps(payload, ensure_ascii=False, indent=1, default=str))
            return
        show_hits(scored(results), describe_hit)
        for p in results.passages:
            click.echo(f"raw  {p.sha256[:12]}@{p.offset}: {p.text}")
        if trace:
            t = results.trace
            click.echo("\npaths:   " + ", ".join(f"{k}={v}" for k, v in t["paths"].items()))
            click.echo("timings: " + ", ".join(f"{k} {v:.1f} ms" for k, v in t["timings_ms"].items()))
            for stage, value in t.get("stages", {}).items():
                click.echo(f"{stage}: {json.dumps(value, ensure_ascii=False, default=str)}")
        if block is not None:
            click.echo(f"\n{block.text}\n({block.tokens}/{block.budget} tokens)")
            for n, c in enumerate(block.citations, 1):
                quote = f' "{c.quote}"' if c.quote else ""
                click.echo(f"[{n}] memory {c.memory_id} sessions {','.join(c.session_ids) or '-'}{quote}")


def recall_remote(user_id: str, query: str, limit: int, budget: int | None) -> bool:
    """Run ``recall`` on the service; False when there is none (the caller runs it in-process)."""

    def call(remote: Any) -> tuple[list[Any], dict[str, Any] | None]:
        hits = remote.search(user_id, query, limit)
        return hits, (remote.recall(user_id, query, budget) if budget else None)

    answer = remote_or_none(None, call)
    if answer is None:
        return False
    hits, block = answer
    show_hits([h for h in hits if float(h.get("score", {}).get("final", 0)) > 0], describe_remote_hit)
    if block is not None:
        click.echo(f"\n{block.get('text', '')}")
        for n, c in enumerate(block.get("citations", []), 1):
            quote = f' "{c["quote"]}"' if c.get("quote") else ""
            sessions = ",".join(c.get("session_ids") or []) or "-"
            click.echo(f"[{n}] memory {c.get('memory_id')} sessions {sessions}{quote}")
    return True


def register_commands(cli: click.Group) -> None:
    """Add this module's commands to ``memctl`` (``cli.main`` calls it)."""
    cli.add_command(recall)
