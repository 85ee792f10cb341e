"""``memctl demo``: the main job on the embedded defaults — store a small bilingual history, recall from it."""

from __future__ import annotations

import json
import time
from importlib import resources

import click

from .context import friendly_errors, open_memory
from .main import cli
from .memory_commands import describe_hit


def load_demo() -> dict:
    return json.loads(resources.files("neuromem.demo_data").joinpath("conversation.json").read_text("utf-8"))


@cli.command()
@friendly_errors
def demo() -> None:
    """Store a bundled Chinese/English history for 'demo-user' and run a few recalls."""
    data = load_demo()
    user = data["user_id"]
    started = time.perf_counter()
    click.echo("Starting neuromem (embedded PostgreSQL + bundled multilingual-e5-small)…")
    with open_memory() as m:
        server = m._core.db.server
        click.echo(f"  database: {'embedded in ' + str(server.data_dir) if server.embedded else 'external server'}"
                   f"  ({time.perf_counter() - started:.1f} s)")
        m.reset(user_id=user)
        click.echo(f"\nStoring {len(data['memories'])} memories for {user!r}:")
        for item in data["memories"]:
            fields = {k: v for k, v in item.items() if k != "content"}
            result = m.add(item["content"], user_id=user, **fields)[0]
            click.echo(f"  {result.operation.value.upper():<6} {item['content']}")
        again = m.add(data["memories"][0]["content"], user_id=user)[0]
        click.echo(f"  {again.operation.value.upper():<6} (the first one again: {again.reason})")
        for query in data["queries"]:
            t0 = time.perf_counter()
            hits = m.search(query, user_id=user, limit=3)
            ms = (time.perf_counter() - t0) * 1000
            click.echo(f"\n? {query}   ({ms:.0f} ms)")
            for i, hit in enumerate(hits, 1):
                click.echo(describe_hit(i, hit))
    click.echo("\nDone. Try: memctl search -u demo-user '花生'   or   memctl status")
