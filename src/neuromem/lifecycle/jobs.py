"""The scheduled jobs of seed 000 §5.2, runnable one by one (``memctl job --run NAME``) or by the scheduler.

=====================  ==============  ===============================================
name                   default period  what it does
=====================  ==============  ===============================================
refresh_mv_trait       30 min          REFRESH MATERIALIZED VIEW CONCURRENTLY
expire_trends          1 day           trends past their window, under-reinforced → dissolved
dissolve_weak_traits   1 week          decayed confidence < 0.05 → dissolved
flush_access_counts    5 min           buffered recall access counts → ``memories``
consistency_check      1 day           counts orphaned evidence / history / sources
=====================  ==============  ===============================================
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .. import validation as check
from ..errors import InvalidInputError
from ..store import maintenance

if TYPE_CHECKING:
    from ..reflect.service import ReflectionService


@dataclass(frozen=True, slots=True)
class Job:
    name: str
    period_s: float
    run: Callable[[ReflectionService, dt.datetime], Any]
    description: str


def _flush_access(service: ReflectionService, now: dt.datetime) -> int:
    """Seed 000 §5.2 task 4: write the recall access counts buffered by ``recall.access.AccessTracker``
    (and the +0.02 reinforcement of recalled traits); returns the memory rows updated."""
    return service.core.access.flush()


JOBS: dict[str, Job] = {
    j.name: j
    for j in (
        Job("refresh_mv_trait", 1800, lambda s, now: maintenance.refresh_trait_view(s.core.db),
            "refresh mv_trait_decayed concurrently"),
        Job("expire_trends", 86400, lambda s, now: maintenance.expire_trends(s.core.db, now, s.core.settings.traits),
            "dissolve trends whose window ended without enough reinforcement"),
        Job("dissolve_weak_traits", 7 * 86400,
            lambda s, now: maintenance.dissolve_weak_traits(s.core.db, now, s.core.settings.traits),
            "dissolve traits whose decayed confidence is below the floor"),
        Job("flush_access_counts", 300, _flush_access, "write buffered recall access counts"),
        Job("consistency_check", 86400, lambda s, now: maintenance.consistency_check(s.core.db),
            "count orphaned evidence, history, sources and lineage"),
    )
}  # fmt: skip


def run_job(name: str, service: ReflectionService, *, now: Any = None) -> Any:
    """Run the job called ``name`` once; ``now`` (default: the wall clock) is its clock."""
    job = JOBS.get(name)
    if job is None:
        raise InvalidInputError(f"no job named {name!r}; known: {', '.join(JOBS)}")
    when = check.timestamp(now, "now") if now is not None else dt.datetime.now(dt.UTC)
    assert when is not None
    return job.run(service, when)
