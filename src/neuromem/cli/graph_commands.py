"""``memctl graph ID``: a memory's neighbours in the graph and the kinds of the edges (issue 26)."""

from __future__ import annotations

import click

from .context import friendly_errors, open_memory, user_option


@click.command()
@user_option
@click.argument("memory_id")
@click.option("--limit", type=click.IntRange(1, 1000), default=100, show_default=True)
@friendly_errors
def graph(user_id: str, memory_id: str, limit: int) -> None:
    """Show what a memory is linked to: memories, entities and concepts, with each edge's kind."""
    with open_memory() as m:
        found = m.related(memory_id, user_id=user_id, limit=limit)
    click.echo(f"{found.memory.id}  [{found.memory.memory_type}] {found.memory.content}")
    if not found.neighbours:
        click.echo("  no neighbours")
        return
    click.echo("  " + ", ".join(f"{kind} {n}" for kind, n in sorted(found.kinds.items())))
    for n in found.neighbours:
        arrow = "->" if n.direction == "out" else "<-"
        if n.memory is not None:
            what = f"memory {n.id} [{n.memory.memory_type}] {n.memory.content}"
        else:
            what = f"{n.node_type} {n.name!r} ({n.id})"
        click.echo(f"  {arrow} {n.edge_type:<13} w={n.weight:.2f}  {what}")


def register_commands(cli: click.Group) -> None:
    """Add this module's commands to ``memctl`` (``cli.main`` calls it)."""
    cli.add_command(graph)
