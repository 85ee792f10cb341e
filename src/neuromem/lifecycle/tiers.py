"""Memory tiers short → mid → long and the promoter (seed 003 §6.2 "PromoterJob").

A fact or episode starts ``short`` (``metadata.tier`` absent). It moves to ``mid`` once it is
``lifecycle.tier_mid_after_days`` (7) old, or earlier when its topic repeats — one of its ABOUT
concepts shared by ``tier_mid_topic_repeats`` (3) memories. A ``mid`` one moves to ``long`` when
it is stable knowledge: at least ``tier_long_min_support`` (3) repetitions (provenance rows and
SUPPORTS edges), from ``tier_long_min_sessions`` (2) distinct sessions, with confidence ≥
``tier_long_min_confidence`` (0.8) — the larger of its importance and ``1 − exp(−n/2)`` for its
``n`` repetitions. Each move is an in-place update of ``metadata.tier`` with a history row
(actor ``consolidate:promote``); ``dry_run`` only reports. Traits keep their own stages (seed 001).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from .. import validation as check
from ..conflict_priority import evidence_support
from ..errors import VersionConflictError
from ..store import consolidation, history, memories
from ..types import HistoryEvent

ACTOR = "consolidate:promote"
TIERS = ("short", "mid", "long")


def next_tier(tier: str, age_days: float, topic_repeats: int, support: int, sessions: int, importance: float,
              settings: Any) -> str:  # fmt: skip
    """The tier a memory belongs in now (never lower than ``tier``), by the rules above."""
    if tier == "short" and (age_days >= settings.tier_mid_after_days
                            or topic_repeats >= settings.tier_mid_topic_repeats):  # fmt: skip
        tier = "mid"
    confidence = max(importance, evidence_support(support))
    if (tier == "mid" and support >= settings.tier_long_min_support and sessions >= settings.tier_long_min_sessions
            and confidence >= settings.tier_long_min_confidence):  # fmt: skip
        tier = "long"
    return tier


@dataclass(frozen=True, slots=True)
class Promotion:
    memory_id: Any
    before: str
    after: str


def promote(core: Any, user_id: Any, now: dt.datetime, *, dry_run: bool = False,
            limit: int = 10_000) -> list[Promotion]:  # fmt: skip
    uid = check.user_id(user_id, core.settings.write)
    s = core.settings.lifecycle
    moves: list[Promotion] = []
    with core.db.transaction() as conn:
        for c in consolidation.tier_candidates(conn, uid, limit):
            r = c.record
            before = str(r.metadata.get("tier", "short"))
            age = (now - (r.valid_at or r.created_at)).total_seconds() / 86400.0
            after = next_tier(before, age, c.topic_repeats, c.support, c.sessions, r.importance, s)
            if after == before:
                continue
            moves.append(Promotion(r.id, before, after))
            if dry_run:
                continue
            updated = memories.update_fields(conn, uid, r.id, expected_version=r.version,
                                             fields={"metadata": {**r.metadata, "tier": after}})  # fmt: skip
            if updated is None:
                raise VersionConflictError(f"memory {r.id} changed while being promoted; rerun the job")
            history.record(conn, HistoryEvent.UPDATE, old=r, new=updated, actor=ACTOR,
                           extra={"tier_from": before})  # fmt: skip
    return moves


def promote_job(core: Any, now: dt.datetime, *, users: int = 100, dry_run: bool = False) -> dict[str, int]:
    """The scheduled form: every user with current facts or episodes (up to ``users`` per run)."""
    with core.db.connection() as conn:
        found = consolidation.users_with_memories(conn, users)
    return {u: len(promote(core, u, now, dry_run=dry_run)) for u in found}


__all__ = ["ACTOR", "TIERS", "Promotion", "next_tier", "promote", "promote_job"]
