"""The decay formula in SQL: calls of ``neuromem_decay`` / ``neuromem_trait_confidence``
(migration 0013) with the rates of the settings passed as parameters at query time.

The Python twin is :mod:`neuromem.decay`; ``tests/test_decay.py`` checks that they agree.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from psycopg import sql

from ..config import TraitSettings
from ..decay import trait_rates_json
from .db import Conn

# the decay clock: the named parameter ``decay_at``, or the statement's ``now()`` when it is None,
# on the row's user's history clock (migration 0016: a history recorded late is not silent meanwhile)
DECAY_AT = sql.SQL("neuromem_history_clock({a}.user_id, coalesce(%(decay_at)s::timestamptz, now()))")
# the same for a statement about one user (the named parameter ``user_id``): computed once, not per row
ONE_USER_DECAY_AT = sql.SQL(
    "(SELECT neuromem_history_clock(%(user_id)s, coalesce(%(decay_at)s::timestamptz, now())))"
)
TRAIT_CONFIDENCE = sql.SQL(
    "neuromem_trait_confidence({a}.trait_confidence, {a}.trait_subtype, {a}.trait_reinforcement_count, "
    "{a}.trait_last_reinforced, {a}.trait_first_observed, {a}.created_at, %(trait_rates)s::jsonb, {at})"
)
HISTORY_CLOCK = "SELECT neuromem_history_clock(%s, %s) AS at"


def trait_confidence_sql(
    alias: str, at: sql.Composable | None = None, *, one_user: bool = False
) -> sql.Composable:
    """Decayed confidence of the trait row ``alias`` (``memories_trait`` or ``mv_trait_decayed``),
    with the rates in the named parameter ``trait_rates`` (see :func:`trait_decay_params`); the
    clock is ``at``, by default ``decay_at`` on the history clock of the row's user (``one_user``:
    of the statement's ``user_id`` parameter, read once)."""
    a = sql.Identifier(alias)
    if at is None:
        at = ONE_USER_DECAY_AT if one_user else DECAY_AT.format(a=a)
    return TRAIT_CONFIDENCE.format(a=a, at=at)


def history_clock(conn: Conn, user_id: str, at: dt.datetime) -> dt.datetime:
    """``at`` on the history's own clock of ``user_id`` (``neuromem_history_clock``, migration 0016):
    a wall clock moved back by how late the user's latest event was recorded; a replay's clock,
    earlier than that recording, unchanged."""
    row = conn.execute(HISTORY_CLOCK, (user_id, at)).fetchone()
    return at if row is None or row["at"] is None else row["at"]


def trait_decay_params(settings: TraitSettings, at: dt.datetime | None) -> dict[str, Any]:
    """The named parameters of :func:`trait_confidence_sql`; ``at`` None means the statement's ``now()``."""
    return {"trait_rates": trait_rates_json(settings), "decay_at": at}
