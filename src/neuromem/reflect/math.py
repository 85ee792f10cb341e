"""Trait confidence math as pure functions (seed 001 §3.3–§4.5, seed 000 §5.1).

Everything here is arithmetic on plain values: no clock, no I/O, no state. Each
constant comes from :class:`neuromem.config.TraitSettings`, passed in as
``settings`` (default ``TraitSettings()``), so the reflection engine and these
functions read one source of truth. Decay is :mod:`neuromem.decay` (the one formula,
shared with SQL).

Confidence life cycle (seed 001 §4.1)::

    candidate      c <= 0.3           not recalled
    emerging       0.3 < c <= 0.6     low weight
    established    0.6 < c <= 0.85    normal weight
    core           c > 0.85           high weight
    dissolve when  c < 0.05           (seed 000 §5.2 task 3)

Boundary inclusivity: the seed's table says candidate is ``conf<0.3`` and core
``>0.85``, but the seed also promotes a trend to *candidate* with confidence
exactly 0.3 (seed 001 §3.3, §4.1) and recalls only ``decayed_confidence > 0.3`` (seed 000
§6.2, candidates never take part in recall). Every bound is therefore an
exclusive lower bound: a trait must rise *above* a threshold to enter the
stage, and exactly 0.3 / 0.6 / 0.85 stay in the stage below. This satisfies the
trend promotion, the recall filter and the strict ``>0.85`` for core at once.

Only confidence-managed stages come out of :func:`stage_for_confidence`; ``trend``
is managed by its time window (:func:`trend_window`) and ``dissolved`` by
:func:`should_dissolve` and the reflection engine.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Iterable
from enum import StrEnum

from neuromem.config import TraitSettings
from neuromem.types import EvidenceQuality, TraitStage

__all__ = [
    "TriggerType",
    "accumulated_importance",
    "contradict",
    "contradiction_factor",
    "contradiction_ratio",
    "contradiction_strength",
    "grade_evidence",
    "importance_to_trigger_scale",
    "needs_contradiction_reflection",
    "reflection_due",
    "reinforce",
    "reinforcement_factor",
    "should_dissolve",
    "stage_for_confidence",
    "trend_window",
]

_DEFAULT = TraitSettings()

#: Width of the reflection-trigger importance scale (seed 001 §4.5, see
#: :func:`importance_to_trigger_scale`): Generative-Agents style 1–10 ratings.
TRIGGER_SCALE_MAX = 10.0


class TriggerType(StrEnum):
    """Why a reflection cycle ran; the values of ``reflection_cycles.trigger_type`` (seed 000 §2.6.3).

    Listed in the order of seed 001 §4.5, which is also the priority used by
    :func:`reflection_due` when several conditions hold at once.
    """

    IMPORTANCE_ACCUMULATED = "importance_accumulated"
    SCHEDULED = "scheduled"
    SESSION_END = "session_end"
    MANUAL = "manual"  # an explicit ``Memory.reflect`` / ``memctl job`` call, not a seed trigger


def _check_confidence(c: float) -> float:
    if not 0.0 <= c <= 1.0:  # also rejects NaN
        raise ValueError(f"confidence must be in [0, 1], got {c!r}")
    return c


def _clamp01(x: float) -> float:
    return 0.0 if x < 0.0 else 1.0 if x > 1.0 else x


# --------------------------------------------------------------------------- stages


def stage_for_confidence(c: float, settings: TraitSettings = _DEFAULT) -> TraitStage:
    """The confidence-managed stage for ``c`` (seed 001 §4.1 table).

    Bounds are exclusive lower bounds (see the module docstring): ``0.3`` is
    still ``candidate``, ``0.6`` still ``emerging``, ``0.85`` still
    ``established``; anything above ``settings.core_min`` is ``core``.
    """
    _check_confidence(c)
    if c > settings.core_min:
        return TraitStage.CORE
    if c > settings.established_min:
        return TraitStage.ESTABLISHED
    if c > settings.emerging_min:
        return TraitStage.EMERGING
    return TraitStage.CANDIDATE


def should_dissolve(c: float, settings: TraitSettings = _DEFAULT) -> bool:
    """True when (decayed) confidence fell below ``settings.dissolve_below`` (seed 000 §5.2 task 3: ``< 0.05``)."""
    return _check_confidence(c) < settings.dissolve_below


# --------------------------------------------------------------------------- evidence


def grade_evidence(n_contexts: int, explicit_self_statement: bool, n_sessions: int) -> EvidenceQuality:
    """Grade one piece of supporting evidence (seed 001 §4.2 "证据质量分级").

    The highest applicable grade wins:

    - **A** — the pattern was seen in two or more contexts (work + personal…);
    - **B** — the user explicitly described themself ("I'm impatient");
    - **C** — seen in two or more different sessions (same context);
    - **D** — one session only, or an implicit signal.

    ``n_contexts`` and ``n_sessions`` count the distinct contexts and sessions
    behind the observation; zero is accepted and means "unknown" (grade D).
    """
    if n_contexts < 0 or n_sessions < 0:
        raise ValueError("n_contexts and n_sessions must be >= 0")
    if n_contexts >= 2:
        return EvidenceQuality.A
    if explicit_self_statement:
        return EvidenceQuality.B
    if n_sessions >= 2:
        return EvidenceQuality.C
    return EvidenceQuality.D


def reinforcement_factor(quality: EvidenceQuality | str, settings: TraitSettings = _DEFAULT) -> float:
    """``f`` for an evidence grade: A 0.25, B 0.20, C 0.15, D 0.05 (seed 001 §4.2)."""
    grade = EvidenceQuality(quality)
    return {
        EvidenceQuality.A: settings.reinforce_a,
        EvidenceQuality.B: settings.reinforce_b,
        EvidenceQuality.C: settings.reinforce_c,
        EvidenceQuality.D: settings.reinforce_d,
    }[grade]


def reinforce(c: float, quality: EvidenceQuality | str, settings: TraitSettings = _DEFAULT) -> float:
    """New confidence after one piece of supporting evidence: ``c + (1 − c)·f`` (seed 001 §4.2).

    Never lowers ``c`` and never exceeds 1; a better grade never gives less.
    """
    _check_confidence(c)
    return _clamp01(c + (1.0 - c) * reinforcement_factor(quality, settings))


# --------------------------------------------------------------------------- contradiction


def contradiction_strength(n_pieces: int, strong: bool = False) -> float:
    """A contradiction strength in ``[0, 1]`` from what the reflection saw (seed 001 §4.2).

    The seed gives ``g`` = 0.2 for a single contradiction and 0.4 for "strong
    contradiction + several pieces" (强矛盾+多条). Those are two independent
    dimensions, each worth half of the range:

    - *several*: more than one contradicting piece in this batch (+0.5);
    - *strong*: the reflection judged it a direct, explicit contradiction (+0.5).

    So one ordinary piece → 0.0 (g 0.2), one strong piece or several ordinary
    ones → 0.5 (g 0.3), several pieces including a strong one → 1.0 (g 0.4).
    """
    if n_pieces < 1:
        raise ValueError(f"a contradiction needs at least one piece of evidence, got {n_pieces}")
    return 0.5 * (n_pieces > 1) + 0.5 * bool(strong)


def contradiction_factor(strength: float, settings: TraitSettings = _DEFAULT) -> float:
    """``g`` interpolated linearly between ``contradict_single`` (0.2) and ``contradict_strong`` (0.4).

    ``strength`` is clamped into ``[0, 1]`` (see :func:`contradiction_strength`).
    """
    if math.isnan(strength):
        raise ValueError("strength must not be NaN")
    s = _clamp01(strength)
    return settings.contradict_single + (settings.contradict_strong - settings.contradict_single) * s


def contradict(c: float, strength: float = 0.0, settings: TraitSettings = _DEFAULT) -> float:
    """New confidence after contradicting evidence: ``c·(1 − g)`` (seed 001 §4.2).

    Call it once per reflection batch for a trait, with the batch's
    :func:`contradiction_strength`; ``strength`` 0 is a single ordinary
    contradiction (g 0.2), 1 is strong and several (g 0.4). Never raises ``c``.
    """
    _check_confidence(c)
    return _clamp01(c * (1.0 - contradiction_factor(strength, settings)))


def contradiction_ratio(contradictions: int, reinforcements: int) -> float:
    """Contradicting evidence over all evidence: ``contradictions / (contradictions + reinforcements)``.

    Seed 001 §4.4 "矛盾数 / 总证据数"; the total is supporting plus contradicting
    pieces. No evidence at all gives 0.0.
    """
    if contradictions < 0 or reinforcements < 0:
        raise ValueError("evidence counts must be >= 0")
    total = contradictions + reinforcements
    return contradictions / total if total else 0.0


def needs_contradiction_reflection(
    contradictions: int, reinforcements: int, settings: TraitSettings = _DEFAULT
) -> bool:
    """True when the contradiction ratio exceeds ``contradiction_ratio_trigger`` (> 0.3, seed 001 §4.4)."""
    return contradiction_ratio(contradictions, reinforcements) > settings.contradiction_ratio_trigger


# --------------------------------------------------------------------------- trends


def trend_window(
    start: dt.datetime, emotional: bool = False, settings: TraitSettings = _DEFAULT
) -> tuple[dt.datetime, dt.datetime]:
    """The observation window of a new ``trend`` trait (seed 001 §4.1).

    30 days by default, 14 days for emotion-related trends. ``start`` keeps its
    timezone (pass an aware datetime; the store uses ``TIMESTAMPTZ``).
    """
    days = settings.emotion_trend_window_days if emotional else settings.trend_window_days
    return start, start + dt.timedelta(days=days)


# --------------------------------------------------------------------------- reflection triggers


def importance_to_trigger_scale(importance: float) -> float:
    """Map our 0–1 importance onto the 1–10 scale the trigger threshold 30 is written in.

    Seed 001 §4.5 sums ``metadata.get("importance", 5)`` and compares with 30;
    its examples use ``"importance": 8`` (§5.1). That is the Generative Agents
    1–10 poignancy scale, with 5 as the neutral default. Our memories carry
    importance in ``[0, 1]`` with default 0.5 (seed 000 ``importance REAL
    DEFAULT 0.5``), so the mapping is ``10 × importance``: the defaults match
    (0.5 ↔ 5), the top matches (1 ↔ 10), and an unimportant memory (0)
    contributes nothing. The threshold 30 is thus six default-importance
    memories, or three of maximal importance. Values outside ``[0, 1]`` are clamped.
    """
    if math.isnan(importance):
        raise ValueError("importance must not be NaN")
    return TRIGGER_SCALE_MAX * _clamp01(importance)


def accumulated_importance(importances: Iterable[float]) -> float:
    """Sum of 0–1 importances on the trigger scale (seed 001 §4.5 ``accumulated_importance``)."""
    return math.fsum(importance_to_trigger_scale(i) for i in importances)


def reflection_due(
    accumulated: float,
    hours_since_last: float,
    session_ended: bool,
    settings: TraitSettings = _DEFAULT,
) -> TriggerType | None:
    """Which reflection trigger fires now, if any (seed 001 §4.5 "混合触发策略").

    - ``accumulated`` — importance of the fact/episodic memories added since the
      last reflection, already on the 1–10 trigger scale (use
      :func:`accumulated_importance`); fires at ``>= importance_trigger`` (30);
    - ``hours_since_last`` — hours since the last reflection; with no previous
      reflection pass the hours since the oldest unreflected memory; fires at
      ``>= scheduled_trigger_hours`` (24);
    - ``session_ended`` — the session was closed or went idle (the idle timeout
      itself is ``IngestSettings.session_idle_timeout_s``).

    When several hold, the first in seed order wins: importance, scheduled,
    session end (it becomes ``reflection_cycles.trigger_type``).
    """
    if math.isnan(accumulated) or math.isnan(hours_since_last):
        raise ValueError("accumulated and hours_since_last must not be NaN")
    if accumulated >= settings.importance_trigger:
        return TriggerType.IMPORTANCE_ACCUMULATED
    if hours_since_last >= settings.scheduled_trigger_hours:
        return TriggerType.SCHEDULED
    if session_ended:
        return TriggerType.SESSION_END
    return None
