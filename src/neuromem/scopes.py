"""The scope arguments of the public API (``agent_id``, ``run_id``, ``visibility``, ``team_id``),
checked once and turned into the store's ``Owner`` (what a write stamps) and ``Viewer`` (who reads);
see ``neuromem.store.visibility`` and docs/architecture.md, "Scopes"."""

from __future__ import annotations

from typing import Any

from . import validation as check
from .config import WriteSettings
from .errors import InvalidScopeError
from .store.visibility import DEFAULT_VISIBILITY, VISIBILITIES, Owner, Viewer


def owner(
    settings: WriteSettings,
    *,
    agent_id: Any = None,
    run_id: Any = None,
    visibility: Any = None,
    team_id: Any = None,
) -> Owner:
    """The scope of a write: ``team`` visibility needs a ``team_id``, and a ``team_id`` needs ``team``."""
    chosen = DEFAULT_VISIBILITY if visibility is None else visibility
    if chosen not in VISIBILITIES:
        raise InvalidScopeError(
            f"visibility must be one of {', '.join(VISIBILITIES)}, got {visibility!r:.80}"
        )
    team = check.scope_id(team_id, "team_id", settings)
    if (chosen == "team") != (team is not None):
        raise InvalidScopeError("visibility 'team' needs a team_id, and a team_id needs visibility 'team'")
    return Owner(
        check.scope_id(agent_id, "agent_id", settings),
        check.scope_id(run_id, "run_id", settings),
        chosen,
        team,
    )


def viewer(settings: WriteSettings, *, agent_id: Any = None, run_id: Any = None) -> Viewer:
    """The scope of a read: the user's whole memory (no agent, no run), or an agent's and/or a run's view."""
    return Viewer(check.scope_id(agent_id, "agent_id", settings), check.scope_id(run_id, "run_id", settings))
