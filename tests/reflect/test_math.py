"""Trait math (seed 001 §4, seed 000 §5.1): hand-computed values and properties."""

from __future__ import annotations

import datetime as dt
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from neuromem.config import TraitSettings
from neuromem.decay import trait_confidence
from neuromem.reflect.math import (
    TriggerType,
    accumulated_importance,
    contradict,
    contradiction_factor,
    contradiction_ratio,
    contradiction_strength,
    grade_evidence,
    importance_to_trigger_scale,
    needs_contradiction_reflection,
    reflection_due,
    reinforce,
    reinforcement_factor,
    should_dissolve,
    stage_for_confidence,
    trend_window,
)
from neuromem.types import EvidenceQuality, TraitStage, TraitSubtype

S = TraitSettings()
confidences = st.floats(min_value=0.0, max_value=1.0, allow_nan=False)
strengths = st.floats(min_value=-1.0, max_value=2.0, allow_nan=False)
day_counts = st.floats(min_value=-100.0, max_value=36_500.0, allow_nan=False)
counts = st.integers(min_value=0, max_value=1_000)
subtypes = st.sampled_from([*TraitSubtype, None, "unknown"])
grades = st.sampled_from(list(EvidenceQuality))
GRADE_ORDER = [EvidenceQuality.D, EvidenceQuality.C, EvidenceQuality.B, EvidenceQuality.A]


# --------------------------------------------------------------------------- stages


@pytest.mark.parametrize(
    ("c", "stage"),
    [
        (0.0, TraitStage.CANDIDATE),
        (0.29, TraitStage.CANDIDATE),
        (0.3, TraitStage.CANDIDATE),  # trend promotion lands exactly here (seed 001 §4.1)
        (0.300001, TraitStage.EMERGING),
        (0.4, TraitStage.EMERGING),
        (0.6, TraitStage.EMERGING),
        (0.61, TraitStage.ESTABLISHED),
        (0.85, TraitStage.ESTABLISHED),  # core is strictly "> 0.85"
        (0.851, TraitStage.CORE),
        (1.0, TraitStage.CORE),
    ],
)
def test_stage_for_confidence_table(c: float, stage: TraitStage) -> None:
    assert stage_for_confidence(c) is stage


@pytest.mark.parametrize("bad", [-0.01, 1.01, math.nan])
def test_confidence_out_of_range_is_rejected(bad: float) -> None:
    with pytest.raises(ValueError):
        stage_for_confidence(bad)
    with pytest.raises(ValueError):
        reinforce(bad, EvidenceQuality.A)


def test_stage_bounds_come_from_settings() -> None:
    custom = TraitSettings(emerging_min=0.1, established_min=0.2, core_min=0.5)
    assert stage_for_confidence(0.15, custom) is TraitStage.EMERGING
    assert stage_for_confidence(0.55, custom) is TraitStage.CORE


@given(confidences, confidences)
def test_stage_is_monotone_in_confidence(a: float, b: float) -> None:
    order = [TraitStage.CANDIDATE, TraitStage.EMERGING, TraitStage.ESTABLISHED, TraitStage.CORE]
    lo, hi = sorted((a, b))
    assert order.index(stage_for_confidence(lo)) <= order.index(stage_for_confidence(hi))


def test_should_dissolve() -> None:
    assert should_dissolve(0.0)
    assert should_dissolve(0.049)
    assert not should_dissolve(0.05)
    assert not should_dissolve(0.5)


# --------------------------------------------------------------------------- evidence and reinforcement


@pytest.mark.parametrize(
    ("n_contexts", "explicit", "n_sessions", "grade"),
    [
        (2, False, 1, EvidenceQuality.A),
        (3, True, 5, EvidenceQuality.A),  # the highest applicable grade wins
        (1, True, 1, EvidenceQuality.B),
        (1, True, 4, EvidenceQuality.B),
        (1, False, 2, EvidenceQuality.C),
        (1, False, 1, EvidenceQuality.D),
        (0, False, 0, EvidenceQuality.D),
    ],
)
def test_grade_evidence(n_contexts: int, explicit: bool, n_sessions: int, grade: EvidenceQuality) -> None:
    assert grade_evidence(n_contexts, explicit, n_sessions) is grade


def test_grade_evidence_rejects_negative_counts() -> None:
    with pytest.raises(ValueError):
        grade_evidence(-1, False, 1)


@pytest.mark.parametrize(
    ("quality", "expected"),
    [
        (EvidenceQuality.A, 0.4 + 0.6 * 0.25),  # 0.55
        (EvidenceQuality.B, 0.4 + 0.6 * 0.20),  # 0.52
        (EvidenceQuality.C, 0.4 + 0.6 * 0.15),  # 0.49
        (EvidenceQuality.D, 0.4 + 0.6 * 0.05),  # 0.43
        ("A", 0.55),
    ],
)
def test_reinforce_hand_computed(quality: EvidenceQuality | str, expected: float) -> None:
    assert reinforce(0.4, quality) == pytest.approx(expected)


def test_reinforce_sequence_from_candidate_to_core() -> None:
    c = 0.3
    for _ in range(3):
        c = reinforce(c, EvidenceQuality.C)
    # 1 - 0.7 * 0.85**3
    assert c == pytest.approx(1 - 0.7 * 0.85**3)  # 0.5701…
    assert stage_for_confidence(c) is TraitStage.EMERGING
    assert reinforce(1.0, EvidenceQuality.A) == 1.0


def test_reinforcement_factor_from_settings() -> None:
    assert [reinforcement_factor(g) for g in "ABCD"] == [0.25, 0.20, 0.15, 0.05]
    assert reinforcement_factor("A", TraitSettings(reinforce_a=0.5)) == 0.5
    with pytest.raises(ValueError):
        reinforcement_factor("E")


@given(confidences, grades)
def test_reinforce_stays_in_range_and_never_lowers(c: float, q: EvidenceQuality) -> None:
    new = reinforce(c, q)
    assert 0.0 <= new <= 1.0
    assert new >= c


@given(confidences, st.integers(0, 3), st.integers(0, 3))
def test_better_grade_never_gives_less(c: float, i: int, j: int) -> None:
    lo, hi = sorted((i, j))
    assert reinforce(c, GRADE_ORDER[hi]) >= reinforce(c, GRADE_ORDER[lo])


@given(confidences, confidences, grades)
def test_reinforce_preserves_order(a: float, b: float, q: EvidenceQuality) -> None:
    lo, hi = sorted((a, b))
    assert reinforce(lo, q) <= reinforce(hi, q)


# --------------------------------------------------------------------------- contradiction


@pytest.mark.parametrize(
    ("n", "strong", "strength", "g"),
    [
        (1, False, 0.0, 0.2),
        (1, True, 0.5, 0.3),
        (2, False, 0.5, 0.3),
        (5, False, 0.5, 0.3),
        (3, True, 1.0, 0.4),
    ],
)
def test_contradiction_strength_and_factor(n: int, strong: bool, strength: float, g: float) -> None:
    assert contradiction_strength(n, strong) == strength
    assert contradiction_factor(strength) == pytest.approx(g)


def test_contradiction_strength_needs_a_piece() -> None:
    with pytest.raises(ValueError):
        contradiction_strength(0)


def test_contradict_hand_computed() -> None:
    assert contradict(0.8) == pytest.approx(0.64)  # 0.8 * (1 - 0.2)
    assert contradict(0.8, 1.0) == pytest.approx(0.48)  # 0.8 * (1 - 0.4)
    assert contradict(0.8, 0.5) == pytest.approx(0.56)  # 0.8 * (1 - 0.3)
    assert contradict(0.8, 7.0) == pytest.approx(0.48)  # strength clamped to 1
    assert contradict(0.8, -3.0) == pytest.approx(0.64)  # and to 0
    assert contradict(0.0, 1.0) == 0.0
    with pytest.raises(ValueError):
        contradict(0.5, math.nan)


@given(confidences, strengths)
def test_contradict_never_raises_confidence(c: float, s: float) -> None:
    new = contradict(c, s)
    assert 0.0 <= new <= c


@given(confidences, st.floats(0.0, 1.0), st.floats(0.0, 1.0))
def test_stronger_contradiction_lowers_more(c: float, a: float, b: float) -> None:
    lo, hi = sorted((a, b))
    assert contradict(c, hi) <= contradict(c, lo)


def test_contradiction_ratio_and_trigger() -> None:
    assert contradiction_ratio(0, 0) == 0.0
    assert contradiction_ratio(1, 3) == pytest.approx(0.25)
    assert contradiction_ratio(3, 7) == pytest.approx(0.3)
    assert contradiction_ratio(2, 2) == pytest.approx(0.5)
    assert not needs_contradiction_reflection(1, 3)
    assert not needs_contradiction_reflection(3, 7)  # exactly 0.3 is not "> 0.3"
    assert needs_contradiction_reflection(1, 2)
    assert needs_contradiction_reflection(1, 0)
    with pytest.raises(ValueError):
        contradiction_ratio(-1, 2)


@given(st.integers(0, 500), st.integers(0, 500))
def test_contradiction_ratio_in_unit_interval(con: int, rein: int) -> None:
    assert 0.0 <= contradiction_ratio(con, rein) <= 1.0


@given(confidences, st.lists(st.tuples(st.sampled_from(["r", "c", "d"]), grades, strengths), max_size=30))
def test_any_sequence_of_updates_stays_in_unit_interval(
    c: float, steps: list[tuple[str, EvidenceQuality, float]]
) -> None:
    for kind, grade, x in steps:
        if kind == "r":
            c = reinforce(c, grade)
        elif kind == "c":
            c = contradict(c, x)
        else:
            c = trait_confidence(c, TraitSubtype.BEHAVIOR, 2, abs(x) * 100, S)
        assert 0.0 <= c <= 1.0


# --------------------------------------------------------------------------- trends and triggers


def test_trend_window() -> None:
    start = dt.datetime(2024, 2, 15, 9, 30, tzinfo=dt.UTC)
    assert trend_window(start) == (start, dt.datetime(2024, 3, 16, 9, 30, tzinfo=dt.UTC))
    assert trend_window(start, emotional=True) == (start, dt.datetime(2024, 2, 29, 9, 30, tzinfo=dt.UTC))
    assert trend_window(start, False, TraitSettings(trend_window_days=7))[1] == start + dt.timedelta(days=7)


@pytest.mark.parametrize(
    ("importance", "scaled"),
    [(0.0, 0.0), (0.5, 5.0), (0.8, 8.0), (1.0, 10.0), (1.7, 10.0), (-0.2, 0.0)],
)
def test_importance_to_trigger_scale(importance: float, scaled: float) -> None:
    assert importance_to_trigger_scale(importance) == pytest.approx(scaled)


def test_accumulated_importance() -> None:
    assert accumulated_importance([]) == 0.0
    # six default-importance memories reach the threshold
    assert accumulated_importance([0.5] * 6) == pytest.approx(30.0)
    assert accumulated_importance([0.9, 0.8, 0.7]) == pytest.approx(24.0)
    with pytest.raises(ValueError):
        importance_to_trigger_scale(math.nan)


@pytest.mark.parametrize(
    ("acc", "hours", "ended", "expected"),
    [
        (0.0, 0.0, False, None),
        (29.9, 23.9, False, None),
        (30.0, 0.0, False, TriggerType.IMPORTANCE_ACCUMULATED),
        (0.0, 24.0, False, TriggerType.SCHEDULED),
        (0.0, 1.0, True, TriggerType.SESSION_END),
        (45.0, 48.0, True, TriggerType.IMPORTANCE_ACCUMULATED),  # seed order decides
        (5.0, 30.0, True, TriggerType.SCHEDULED),
    ],
)
def test_reflection_due(acc: float, hours: float, ended: bool, expected: TriggerType | None) -> None:
    assert reflection_due(acc, hours, ended) is expected


def test_reflection_due_uses_settings_and_rejects_nan() -> None:
    custom = TraitSettings(importance_trigger=10.0, scheduled_trigger_hours=1.0)
    assert reflection_due(10.0, 0.0, False, custom) is TriggerType.IMPORTANCE_ACCUMULATED
    assert reflection_due(0.0, 1.0, False, custom) is TriggerType.SCHEDULED
    with pytest.raises(ValueError):
        reflection_due(math.nan, 0.0, False)


def test_trigger_type_values_match_reflection_cycles_column() -> None:
    assert {t.value for t in TriggerType} == {"importance_accumulated", "scheduled", "session_end", "manual"}
