"""Retention (issue 16, seed 002 "TTL"): optional time-to-live per memory type
(``lifecycle.retention_days_by_type``, e.g. ``{"episodic": 365}``) and per category
(``lifecycle.retention_days_by_category``, e.g. ``{"task": 30}``), both empty — off — by default.

Every version of a memory of such a type or category written (``created_at``) longer ago than its
TTL is hard-deleted with the machinery of ``lifecycle.forget`` — history content (a ``FORGET``
tombstone stays), evidence, edges, provenance, and the messages and raw chunks no surviving memory
stands on — one transaction per user, with a receipt (kind ``retention``, actor ``job:retention``).
Like the purge, it draws in nothing that lives on: facts extracted from an expired episode have
their own type and their own TTL. A TTL is policy: it applies to pinned memories too.
``dry_run=True`` previews each user's deletion and changes nothing.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..store import forget as store
from .forget import RETENTION, ForgetPreview, ForgetReceipt, ForgetTarget, forget

if TYPE_CHECKING:
    from ..core import Runtime

ACTOR = "job:retention"


def cutoffs(settings: Any, now: dt.datetime) -> tuple[tuple[str, str, dt.datetime], ...]:
    """``("type" | "category", value, cutoff)`` for every TTL configured, in a stable order."""
    out = [
        ("type", str(t), now - dt.timedelta(days=d))
        for t, d in sorted(settings.retention_days_by_type.items())
    ]
    out += [
        ("category", c, now - dt.timedelta(days=d))
        for c, d in sorted(settings.retention_days_by_category.items())
    ]
    return tuple(out)


@dataclass(frozen=True, slots=True)
class RetentionReport:
    dry_run: bool
    results: tuple[ForgetReceipt | ForgetPreview, ...] = field(default_factory=tuple)

    @property
    def memories(self) -> int:
        return sum(r.counts.get("memories", 0) for r in self.results)


def enforce_retention(
    runtime: Runtime, now: dt.datetime, *, user_id: str | None = None, dry_run: bool = False
) -> RetentionReport:
    """Apply the TTLs to the (checked) ``user_id``, or to every user with expired rows (``lifecycle.purge_batch_users``
    per run). No TTL configured: nothing to do."""
    s = runtime.settings.lifecycle
    ttl = cutoffs(s, now)
    if not ttl:
        return RetentionReport(dry_run)
    if user_id is not None:
        users = [user_id]
    else:
        with runtime.db.connection() as conn:
            found = {
                u
                for kind, value, cutoff in ttl
                for u in store.users_with_older_than(conn, kind, value, cutoff, s.purge_batch_users)
            }
        users = sorted(found)[: s.purge_batch_users]
    target = ForgetTarget(RETENTION, until=now, ttl=ttl)
    results = tuple(forget(runtime, u, target, dry_run=dry_run, actor=ACTOR) for u in users)
    return RetentionReport(dry_run, results)


__all__ = ["ACTOR", "RetentionReport", "cutoffs", "enforce_retention"]
