"""The one decay formula (issue 13 item 2, issue 16 per-type τ): hand-computed values, properties,
and Python against SQL (``neuromem_decay``, ``neuromem_trait_confidence``, migration 0013)."""

from __future__ import annotations

import datetime as dt
import math

import psycopg
import pytest
from hypothesis import given
from hypothesis import strategies as st
from psycopg import sql

from neuromem import Memory
from neuromem.config import RecallSettings, TraitSettings
from neuromem.decay import (
    decay,
    decayed_trait,
    elapsed_days,
    recency,
    trait_confidence,
    trait_decay_start,
    trait_rate,
    trait_rates_json,
)
from neuromem.recall.fusion import memory_factors
from neuromem.reflect.math import should_dissolve
from neuromem.store import recall_queries as rq
from neuromem.store.decay import trait_confidence_sql, trait_decay_params
from neuromem.types import MemoryType, TraitSubtype
from tests.recall.helpers import insert_memory, insert_trait, refresh_traits

S = TraitSettings()
R = RecallSettings()
T0 = dt.datetime(2025, 1, 1, tzinfo=dt.UTC)
confidences = st.floats(min_value=0.0, max_value=1.0, allow_nan=False)
day_counts = st.floats(min_value=-100.0, max_value=36_500.0, allow_nan=False)
counts = st.integers(min_value=0, max_value=1_000)
subtypes = st.sampled_from([*TraitSubtype, None, "unknown"])


# --------------------------------------------------------------------------- traits (seed 001 §4.2)


def test_trait_rates() -> None:
    assert trait_rate(TraitSubtype.BEHAVIOR, S) == 0.005
    assert trait_rate("preference", S) == 0.002
    assert trait_rate(TraitSubtype.CORE, S) == 0.001
    assert trait_rate(None, S) == 0.003
    assert trait_rate("something-else", S) == 0.003
    # the spacing effect of seed 001 §4.2: λ / (1 + 0.1·n)
    for n, effective in ((1, 0.005 / 1.1), (5, 0.005 / 1.5), (10, 0.0025)):
        assert trait_confidence(1.0, TraitSubtype.BEHAVIOR, n, 1.0, S) == pytest.approx(math.exp(-effective))
    with pytest.raises(ValueError):
        trait_confidence(0.5, TraitSubtype.CORE, -1, 1.0, S)


def test_trait_decay_hand_computed() -> None:
    assert trait_confidence(0.8, TraitSubtype.BEHAVIOR, 0, 100, S) == pytest.approx(0.8 * math.exp(-0.5))
    assert trait_confidence(0.9, "preference", 10, 365, S) == pytest.approx(0.9 * math.exp(-0.365))
    # half-life of an unreinforced core trait: ln 2 / 0.001 ≈ 693 days
    assert trait_confidence(1.0, TraitSubtype.CORE, 0, math.log(2) / 0.001, S) == pytest.approx(0.5)
    assert trait_confidence(0.7, TraitSubtype.BEHAVIOR, 3, 0, S) == 0.7
    assert trait_confidence(0.7, TraitSubtype.BEHAVIOR, 3, -5, S) == 0.7  # a future clock never raises it
    with pytest.raises(ValueError):
        trait_confidence(0.7, TraitSubtype.BEHAVIOR, 3, math.nan, S)


def test_trait_decay_to_dissolution() -> None:
    days = math.log(0.4 / 0.05) / 0.005  # an unreinforced behavior at 0.4 falls below 0.05 after ≈ 416 days
    assert not should_dissolve(trait_confidence(0.4, TraitSubtype.BEHAVIOR, 0, days - 1, S))
    assert should_dissolve(trait_confidence(0.4, TraitSubtype.BEHAVIOR, 0, days + 1, S))


@given(confidences, subtypes, counts, day_counts, day_counts)
def test_trait_decay_never_increases_and_is_monotone(
    c: float, sub: TraitSubtype | str | None, n: int, d1: float, d2: float
) -> None:
    lo, hi = sorted((d1, d2))
    assert 0.0 <= trait_confidence(c, sub, n, hi, S) <= trait_confidence(c, sub, n, lo, S) <= c


@given(confidences, subtypes, counts, counts, day_counts)
def test_more_reinforcements_decay_slower(
    c: float, sub: TraitSubtype | str | None, n1: int, n2: int, days: float
) -> None:
    lo, hi = sorted((n1, n2))
    assert trait_confidence(c, sub, hi, days, S) >= trait_confidence(c, sub, lo, days, S)


@given(confidences, counts, day_counts)
def test_deeper_subtypes_decay_slower(c: float, n: int, days: float) -> None:
    behavior, preference, core = (
        trait_confidence(c, s, n, days, S)
        for s in (TraitSubtype.BEHAVIOR, TraitSubtype.PREFERENCE, TraitSubtype.CORE)
    )
    assert behavior <= preference <= core


def test_decay_start_is_last_reinforcement_then_first_observation_then_creation() -> None:
    a, b, c = T0, T0 + dt.timedelta(days=1), T0 + dt.timedelta(days=2)
    assert trait_decay_start(c, b, a) == c
    assert trait_decay_start(None, b, a) == b
    assert trait_decay_start(None, None, a) == a


# --------------------------------------------------------------------------- recency (seed 003 §15)


def test_per_type_tau_and_documents_do_not_decay() -> None:
    later = T0 + dt.timedelta(days=14)
    assert recency("episodic", T0, later, 0.0, R) == pytest.approx(R.recency_weight * math.exp(-1))
    assert recency("fact", T0, T0 + dt.timedelta(days=90), 0.0, R) == pytest.approx(R.recency_weight / math.e)
    assert recency("trait", T0, T0 + dt.timedelta(days=180), 0.0, R) == pytest.approx(
        R.recency_weight / math.e
    )
    assert (
        recency("episodic", T0, later, 0.0, R)
        < recency("fact", T0, later, 0.0, R)
        < recency("trait", T0, later, 0.0, R)
    )
    # arousal slows the curve: τ · (1 + arousal · 0.5)
    assert recency("episodic", T0, later, 1.0, R) == pytest.approx(R.recency_weight * math.exp(-1 / 1.5))
    for days in (0, 30, 3650):
        assert recency("document", T0, T0 + dt.timedelta(days=days), 0.0, R) == R.recency_weight
    custom = R.model_copy(update={"recency_tau_fact_days": 10.0})
    assert recency("fact", T0, T0 + dt.timedelta(days=10), 0.0, custom) == pytest.approx(
        R.recency_weight / math.e
    )


def test_documents_do_not_decay_in_recall_scoring(memory: Memory) -> None:
    """Seed 001 §2.3: a document's recency term is the same at any age; facts and episodes fall."""
    rows = {
        t: insert_memory(memory, "d", f"The office opens at nine ({t})", memory_type=t)
        for t in (MemoryType.DOCUMENT, MemoryType.FACT, MemoryType.EPISODIC)
    }
    for memory_type, record in rows.items():
        now = record.valid_at or record.created_at
        fresh = memory_factors(record, now, R).recency
        old = memory_factors(record, now + dt.timedelta(days=400), R).recency
        if memory_type is MemoryType.DOCUMENT:
            assert fresh == old == R.recency_weight
        else:
            assert fresh == pytest.approx(R.recency_weight) and old < fresh / 50


# --------------------------------------------------------------------------- Python and SQL agree


CASES = [
    (0.8, 0.005, 0.0, T0, T0 + dt.timedelta(days=100)),
    (0.9, 0.002, 1.0, T0, T0 + dt.timedelta(days=365, hours=7, microseconds=3)),
    (0.15, 1 / 14, 0.2, T0, T0 + dt.timedelta(seconds=1)),
    (1.0, 0.0, 0.0, T0, T0 + dt.timedelta(days=9999)),
    (0.5, 0.003, 0.0, T0 + dt.timedelta(days=3), T0),  # the clock before the start: no decay
]


def test_python_and_sql_decay_agree(db_url: str) -> None:
    with psycopg.connect(db_url) as conn:
        for value, rate, slowdown, since, at in CASES:
            row = conn.execute(
                "SELECT neuromem_decay(%s, %s, %s, %s, %s)", (value, rate, slowdown, since, at)
            ).fetchone()
            assert row is not None
            assert row[0] == pytest.approx(decay(value, rate, elapsed_days(since, at), slowdown), rel=1e-12)


TRAITS = [  # confidence, subtype, reinforcements, last reinforced, first observed, created
    (0.8, "behavior", 0, None, None, T0),
    (0.7, "preference", 4, T0 + dt.timedelta(days=20), T0 + dt.timedelta(days=2), T0),
    (0.95, "core", 12, None, T0 + dt.timedelta(days=5), T0),
    (0.4, None, 1, None, None, T0),
    (0.6, "unknown-subtype", 0, T0 + dt.timedelta(days=400), None, T0),
]


@pytest.mark.parametrize(
    "rates", [S, TraitSettings(lambda_behavior=0.05, lambda_core=0.01, spacing_factor=0.3)]
)
def test_python_and_sql_trait_confidence_agree(db_url: str, rates: TraitSettings) -> None:
    at = T0 + dt.timedelta(days=180, hours=5)
    with psycopg.connect(db_url) as conn:
        for c, sub, n, last, first, created in TRAITS:
            row = conn.execute(
                "SELECT neuromem_trait_confidence(%s, %s, %s, %s, %s, %s, %s::jsonb, %s)",
                (c, sub, n, last, first, created, trait_rates_json(rates), at),
            ).fetchone()
            assert row is not None
            days = elapsed_days(trait_decay_start(last, first, created), at)
            assert row[0] == pytest.approx(trait_confidence(c, sub, n, days, rates), rel=1e-12)


def test_recall_reads_the_rates_of_its_settings_at_query_time(memory: Memory) -> None:
    """Changing λ changes what recall reads at once, with no migration (the rates are arguments of
    the query), and SQL's decayed confidence equals Python's for the stored row."""
    trait = insert_trait(
        memory,
        "q",
        "Prefers tea to coffee in the morning",
        stage="established",
        subtype="preference",
        confidence=0.8,
    )
    refresh_traits(memory)
    at = trait.trait_last_reinforced + dt.timedelta(days=120)  # as_of: known then (created before)
    slow, fast = S, TraitSettings(lambda_preference=0.02)
    seen = {}
    with memory.runtime.db.connection() as conn:
        for rates in (slow, fast):
            rows = rq.trait_candidates(
                conn, "q", None, memory.runtime.dim, floor=0.0, limit=5, as_of=at, rates=rates
            )
            assert [r.id for r in rows] == [trait.id]
            seen[rates.lambda_preference] = rows[0].decayed_confidence
            # the column is REAL: SQL widens its binary value, Python reads its shortest text (0.8), so
            # they differ by float4 rounding (≤ 6e-8); the formula itself agrees to 1e-12 (tests above)
            assert rows[0].decayed_confidence == pytest.approx(decayed_trait(trait, at, rates), rel=1e-7)
        confidence = sql.SQL("SELECT {} AS c FROM memories_trait t WHERE id = %(id)s").format(
            trait_confidence_sql("t")
        )
        row = conn.execute(confidence, {**trait_decay_params(slow, at), "id": trait.id}).fetchone()
    assert row is not None and row["c"] == pytest.approx(seen[slow.lambda_preference], rel=1e-12)
    assert seen[0.02] == pytest.approx(0.8 * math.exp(-2.4)) and seen[0.002] == pytest.approx(
        0.8 * math.exp(-0.24)
    )
