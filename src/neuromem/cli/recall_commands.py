"""``memctl recall QUERY [--trace] [--prompt]`` (seed 003 §4.y, §25.5): the full recall pipeline
from the command line, with each stage's candidates, timings and scores on request."""

from __future__ import annotations

import json

import click

from ..recall.recipes import RECIPES
from .context import friendly_errors, open_memory, user_option
from .main import cli
from .memory_commands import describe_hit


@cli.command()
@user_option
@click.argument("query")
@click.option("--limit", "-k", type=click.IntRange(1, 1000), default=10, show_default=True)
@click.option("--recipe", type=click.Choice(sorted(RECIPES)), default=None, help="Retrieval recipe (default: settings).")
@click.option("--as-of", default=None, help="ISO-8601 time: recall what was known and valid then.")
@click.option("--trace", is_flag=True, help="Show each stage's candidates, timings and scores.")
@click.option("--prompt", "budget", type=click.IntRange(16, 100_000), default=None,
              help="Also print the packed memory block for a system prompt within this many tokens.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@friendly_errors
def recall(user_id: str, query: str, limit: int, recipe: str | None, as_of: str | None, trace: bool,
           budget: int | None, as_json: bool) -> None:  # fmt: skip
    """Recall the memories that matter for QUERY (BM25 × vector × graph × traits × raw)."""
    with open_memory() as m:
        results = m.search(query, user_id=user_id, limit=limit, recipe=recipe, as_of=as_of, trace=trace)
        block = m.recall_prompt(query, user_id=user_id, token_budget=budget, recipe=recipe) if budget else None
        if as_json:
            payload = {
                "hits": [{"id": str(h.memory.id), "content": h.memory.content, "final": h.score.final,
                          "ranks": h.score.ranks, "rrf": h.score.rrf, "recency": h.score.recency,
                          "importance": h.score.importance, "stage_boost": h.score.stage_boost,
                          "scores": h.score.extra} for h in results],
                "passages": [{"sha256": p.sha256, "offset": p.offset, "length": p.length, "text": p.text}
                             for p in results.passages],
                "trace": results.trace,
                "prompt": None if block is None else block.text,
            }  # fmt: skip
            click.echo(json.dumps(payload, ensure_ascii=False, indent=1, default=str))
            return
        if not results.hits:
            click.echo("no memories found")
        for i, hit in enumerate(results, 1):
            click.echo(describe_hit(i, hit))
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
