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

# the decay clock: the named parameter ``decay_at``, or the statement's ``now()`` when it is None
DECAY_AT = sql.SQL("coalesce(%(decay_at)s::timestamptz, now())")
TRAIT_CONFIDENCE = sql.SQL(
    "neuromem_trait_confidence({a}.trait_confidence, {a}.trait_subtype, {a}.trait_reinforcement_count, "
    "{a}.trait_last_reinforced, {a}.trait_first_observed, {a}.created_at, %(trait_rates)s::jsonb, {at})"
)


def trait_confidence_sql(alias: str, at: sql.Composable = DECAY_AT) -> sql.Composable:
    """Decayed confidence of the trait row ``alias`` (``memories_trait`` or ``mv_trait_decayed``),
    with the rates in the named parameter ``trait_rates`` (see :func:`trait_decay_params`)."""
    return TRAIT_CONFIDENCE.format(a=sql.Identifier(alias), at=at)


def trait_decay_params(settings: TraitSettings, at: dt.datetime | None) -> dict[str, Any]:
    """The named parameters of :func:`trait_confidence_sql`; ``at`` None means the statement's ``now()``."""
    return {"trait_rates": trait_rates_json(settings), "decay_at": at}

