"""The one decay formula, in Python; ``neuromem_decay`` in SQL is the same (migration 0013).

Every forgetting curve of the seeds is one exponential:

    decayed = value · exp(−rate / (1 + slowdown) · days)

- **trait confidence** (seed 001 §4.2, seed 000 §5.1): ``value`` = confidence, ``rate`` = the
  subtype's λ per day (behavior 0.005, preference 0.002, core 0.001, else 0.003), ``slowdown``
  = ``spacing_factor · reinforcement_count`` (the spacing effect), ``days`` since the last
  reinforcement, else the first observation, else the row's creation;
- **recall recency** (seed 000 §6.1, seed 003 §6.1 and §15): ``value`` = ``recency_weight``,
  ``rate`` = 1/τ of the memory's type (episodes 14 days, facts 90, traits as concepts 180;
  documents 0: they do not decay, seed 001 §2.3), ``slowdown`` = ``arousal · arousal_factor``
  (emotional memories fade more slowly), ``days`` since the event (``valid_at``), else creation.

``days`` below zero (a clock in the past, skew) count as zero, so decay never raises a value.
SQL callers pass the rates as arguments (``store.decay``), read from the settings at query
time; ``tests/test_decay.py`` checks that both sides agree.
"""

from __future__ import annotations

import datetime as dt
import json
import math
from typing import TYPE_CHECKING, Any

from .config import RecallSettings, TraitSettings
from .types import MemoryType, TraitSubtype

if TYPE_CHECKING:
    from .types import MemoryRecord

DAY_S = 86_400.0


def elapsed_days(since: dt.datetime, at: dt.datetime) -> float:
    """Days from ``since`` to ``at``; never negative."""
    return max(0.0, (at - since).total_seconds() / DAY_S)


def decay(value: float, rate_per_day: float, days: float, slowdown: float = 0.0) -> float:
    """``value · exp(−rate_per_day / (1 + slowdown) · max(0, days))`` — the one formula."""
    if math.isnan(days) or math.isnan(value):
        raise ValueError("value and days must not be NaN")
    if rate_per_day < 0 or slowdown <= -1:
        raise ValueError(f"rate_per_day must be >= 0 and slowdown > -1, got {rate_per_day}, {slowdown}")
    return value * math.exp(-(rate_per_day / (1.0 + slowdown)) * max(0.0, days))


# --------------------------------------------------------------------------- traits


def trait_rate(subtype: TraitSubtype | str | None, settings: TraitSettings) -> float:
    """Daily λ of a trait subtype (seed 001 §4.2); anything else gets ``lambda_default``."""
    key = subtype.value if isinstance(subtype, TraitSubtype) else subtype
    return trait_rates(settings)["lambda"].get(key or "", settings.lambda_default)


def trait_rates(settings: TraitSettings) -> dict[str, Any]:
    """The trait decay parameters as SQL's ``neuromem_trait_confidence`` reads them (``rates`` jsonb)."""
    return {
        "lambda": {
            TraitSubtype.BEHAVIOR.value: settings.lambda_behavior,
            TraitSubtype.PREFERENCE.value: settings.lambda_preference,
            TraitSubtype.CORE.value: settings.lambda_core,
        },
        "default": settings.lambda_default,
        "spacing": settings.spacing_factor,
    }


def trait_rates_json(settings: TraitSettings) -> str:
    return json.dumps(trait_rates(settings), sort_keys=True)


def trait_slowdown(reinforcement_count: int | None, settings: TraitSettings) -> float:
    """The spacing effect: ``spacing_factor · reinforcement_count`` (seed 001 §4.2)."""
    count = reinforcement_count or 0
    if count < 0:
        raise ValueError(f"reinforcement_count must be >= 0, got {count}")
    return settings.spacing_factor * count


def trait_decay_start(
    last_reinforced: dt.datetime | None, first_observed: dt.datetime | None, created_at: dt.datetime
) -> dt.datetime:
    """When a trait's decay clock starts: its last reinforcement, else first observation, else creation."""
    return last_reinforced or first_observed or created_at


def trait_confidence(
    confidence: float,
    subtype: TraitSubtype | str | None,
    reinforcement_count: int | None,
    days: float,
    settings: TraitSettings,
) -> float:
    """Confidence after ``days`` without reinforcement: ``c·exp(−λ/(1 + spacing·n)·days)`` (seed 001 §4.2).

    Behavior λ 0.005 becomes 0.0045 after one reinforcement and 0.0025 after ten.
    """
    return decay(
        confidence, trait_rate(subtype, settings), days, trait_slowdown(reinforcement_count, settings)
    )


def decayed_trait(record: MemoryRecord, at: dt.datetime, settings: TraitSettings) -> float:
    """:func:`trait_confidence` of a stored trait row (0 when it has no confidence)."""
    if record.trait_confidence is None:
        return 0.0
    since = trait_decay_start(record.trait_last_reinforced, record.trait_first_observed, record.created_at)
    days = elapsed_days(since, at)
    return trait_confidence(
        record.trait_confidence, record.trait_subtype, record.trait_reinforcement_count, days, settings
    )


# --------------------------------------------------------------------------- recall recency


_EPISODIC, _FACT, _TRAIT = (str(MemoryType.EPISODIC), str(MemoryType.FACT), str(MemoryType.TRAIT))
_TYPE_NAMES = frozenset(str(t) for t in MemoryType)


def recency_rate(memory_type: MemoryType | str, settings: RecallSettings) -> float:
    """1/τ per day of a memory type (seed 003 §15); documents 0 (seed 001 §2.3: they do not decay)."""
    # compared as plain strings: a ``StrEnum`` member's ``.value`` and hash run in Python, and recall asks
    # this once per candidate
    kind = str(memory_type)
    if kind not in _TYPE_NAMES:
        kind = MemoryType(memory_type).value  # an unknown type: the usual ValueError
    days = {
        _EPISODIC: settings.recency_tau_episode_days,
        _FACT: settings.recency_tau_fact_days,
        _TRAIT: settings.recency_tau_concept_days,
    }.get(kind)
    return 0.0 if days is None else 1.0 / days


def recency(
    memory_type: MemoryType | str,
    since: dt.datetime,
    at: dt.datetime,
    arousal: float,
    settings: RecallSettings,
) -> float:
    """The recency term of seed 000 §6.1: ``w_r · exp(−days / (τ_type · (1 + arousal · arousal_factor)))``."""
    return decay(
        settings.recency_weight,
        recency_rate(memory_type, settings),
        elapsed_days(since, at),
        max(0.0, arousal) * settings.arousal_factor,
    )


__all__ = [
    "DAY_S",
    "decay",
    "decayed_trait",
    "elapsed_days",
    "recency",
    "recency_rate",
    "trait_confidence",
    "trait_decay_start",
    "trait_rate",
    "trait_rates",
    "trait_rates_json",
    "trait_slowdown",
]
