"""The purge job (issue 16): rows soft-deleted (``Memory.delete``, ``delete_document``) longer than
``lifecycle.soft_delete_retention_days`` ago are hard-deleted with the machinery of
``lifecycle.forget`` — their versions, history content (a ``FORGET`` tombstone stays), evidence,
edges, provenance rows, and the messages and raw chunks that no live memory stands on —
each user in one transaction with a receipt (kind ``purge``, actor ``job:purge``). The bytes leave
the disk when the job ``compact_forgotten`` (``lifecycle.compaction``, scheduled after this one)
rewrites the relations the receipts name.

A plain function of the runtime and a clock, so any scheduler can run it
(``lifecycle.jobs.JOBS["purge_soft_deleted"]``, ``memctl job --run purge_soft_deleted``).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..store import forget as store
from .forget import PURGE, ForgetReceipt, ForgetTarget, forget

if TYPE_CHECKING:
    from ..core import Runtime

ACTOR = "job:purge"


@dataclass(frozen=True, slots=True)
class PurgeReport:
    cutoff: dt.datetime
    receipts: tuple[ForgetReceipt, ...] = field(default_factory=tuple)

    @property
    def memories(self) -> int:
        return sum(r.counts.get("memories", 0) for r in self.receipts)


def purge_preview(runtime: Runtime, now: dt.datetime) -> tuple[dt.datetime, list[str]]:
    """The cutoff and the users (up to ``lifecycle.purge_batch_users``) a purge at ``now`` would touch."""
    settings = runtime.settings.lifecycle
    cutoff = now - dt.timedelta(days=settings.soft_delete_retention_days)
    with runtime.db.connection() as conn:
        users = store.users_with_soft_deleted(conn, cutoff, settings.purge_batch_users)
    return cutoff, list(users)


def purge_soft_deleted(runtime: Runtime, now: dt.datetime) -> PurgeReport:
    """Purge, for up to ``lifecycle.purge_batch_users`` users, what was soft-deleted before the cutoff."""
    cutoff, users = purge_preview(runtime, now)
    receipts = []
    for user in users:
        result = forget(runtime, user, ForgetTarget(PURGE, until=cutoff), actor=ACTOR)
        assert isinstance(result, ForgetReceipt)
        receipts.append(result)
    return PurgeReport(cutoff, tuple(receipts))
