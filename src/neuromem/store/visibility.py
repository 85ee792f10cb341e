"""Who a memory belongs to beyond its user, and which of a user's memories a reader sees (issue 26 item 2).

A row of ``memories`` names its user, optionally an agent (``agent_id``) and a run (``run_id``), and a
``visibility`` — ``private`` (the default), ``team`` (with ``team_id``) or ``public`` (seed 003
``privacy.scope``). ``Owner`` is what a write stamps on its rows; ``Viewer`` is who reads:

- no agent, no run (the default): all of the user's rows, exactly as before scopes existed;
- an agent: the user's rows of no agent (the user's shared memory), the agent's own, and rows of other
  agents that are shared beyond them (``team`` / ``public``);
- a run: likewise within the rows above, rows of no run or of this run.

``narrowed`` is that rule as a filter clause for the library's own queries (the in-process SDK runs as
the owner, whom row-level security does not bind); the policy ``user_isolation`` of migration 0022 is
the same rule for the service role. Rows other users share (team / public) are the policy
``shared_visibility``'s: the database shows them to a scoped request; the library lists and searches
them only when asked (``include_shared``; ``store.shared``, docs/architecture.md, "Scopes").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from psycopg import sql

from .filters import CompiledFilter

VISIBILITIES = ("private", "team", "public")
DEFAULT_VISIBILITY = "private"

_SEEN = {
    "agent_id": sql.SQL("(agent_id IS NULL OR visibility <> 'private' OR agent_id = %(scope_agent_id)s)"),
    "run_id": sql.SQL("(run_id IS NULL OR visibility <> 'private' OR run_id = %(scope_run_id)s)"),
}


@dataclass(frozen=True, slots=True)
class Owner:
    """The scope columns a write gives its rows (validated by ``neuromem.scopes.owner``)."""

    agent_id: str | None = None
    run_id: str | None = None
    visibility: str = DEFAULT_VISIBILITY
    team_id: str | None = None

    def columns(self) -> dict[str, Any]:
        return {
            "agent_id": self.agent_id,
            "run_id": self.run_id,
            "visibility": self.visibility,
            "team_id": self.team_id,
        }


@dataclass(frozen=True, slots=True)
class Viewer:
    """Who reads a user's memories: the user (no agent, no run), or one of the user's agents and/or runs."""

    agent_id: str | None = None
    run_id: str | None = None

    def params(self) -> dict[str, str]:
        return {
            f"scope_{name}": value
            for name, value in (("agent_id", self.agent_id), ("run_id", self.run_id))
            if value is not None
        }


EVERYTHING = Viewer()


def narrowed(where: CompiledFilter | None, viewer: Viewer) -> CompiledFilter | None:
    """``where`` and the viewer's visibility rule over rows ``m`` (unchanged for the user's own view)."""
    params = viewer.params()
    if not params:
        return where
    parts: list[sql.Composable] = [_SEEN[name[len("scope_") :]] for name in params]
    if where is not None:
        parts.append(where.clause)
        params = {**where.params, **params}
    return CompiledFilter(sql.SQL("({})").format(sql.SQL(" AND ").join(parts)), params)
