"""Reflection triggers (seed 001 §4.5 "混合触发策略"), checked after each ingest.

:func:`due` reads the state of one user and says which trigger fires, if any:

- **importance accumulated** — the 0–1 importances of fact/episodic memories
  written since the watermark, mapped ×10 onto the seed's 1–10 scale
  (:func:`~neuromem.reflect.math.importance_to_trigger_scale`), sum ≥ 30;
- **scheduled** — ≥ 24 h since the last cycle's clock, with new memories to scan;
  a user never reflected has no schedule yet: the first cycle comes from the
  importance or session-end trigger (or an explicit ``reflect``) — so importing
  an old history does not start a cycle per batch;
- **session end** — the caller says a session just ended, or a session ended
  or went idle (``ingest.session_idle_timeout_s``) after its last reflection.

The hook point for ingestion: ``Memory.ingest`` (after each batch) and every
session end (``IngestPipeline.session_end_listeners``, explicit or idle) call
:func:`schedule_check`, which only queues a check: the triggers are evaluated,
and the cycle runs, on the in-process
:class:`~neuromem.reflect.background.ReflectionQueue` — never on the request path
and never twice at once for one user. :func:`check_and_schedule` (or
``Memory.maybe_reflect``) evaluates the triggers in the caller's thread and
queues only the cycle.

Memories added without an ingest batch (``Memory.add``, an import) raise no hook: the
``reflection_sweep`` job (:func:`sweep_due`) finds users past the 24 h fallback — with no
cycle yet, 24 h after their oldest unreflected memory — and reflects on them.
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Callable
from dataclasses import dataclass

from ..store import maintenance
from ..store import traits as store
from ..store.db import Database
from . import math as tm
from .background import CHECK, ReflectionQueue


@dataclass(frozen=True, slots=True)
class TriggerDecision:
    trigger: tm.TriggerType | None
    value: float | None
    accumulated: float
    hours_since_last: float


def due(
    db: Database, user_id: str, now: dt.datetime, *, session_ended: bool = False, fallback: bool = False
) -> TriggerDecision:
    """Which seed 001 §4.5 trigger fires for ``user_id`` at ``now``.

    ``fallback`` (the sweep): a user never reflected counts the hours since its oldest
    unreflected memory, so the 24 h schedule also starts the first cycle."""
    settings = db.settings
    with db.connection() as conn:
        last = store.last_completed_cycle(conn, user_id)
        details = (last or {}).get("details") or {}
        mark = details.get("watermark")
        importances, oldest = store.unreflected_importance(
            conn,
            user_id,
            after_created=dt.datetime.fromisoformat(mark[0]) if mark else None,
            after_id=uuid.UUID(mark[1]) if mark else None,
        )
        ended = bool(
            store.sessions_awaiting_reflection(conn, user_id, now, settings.ingest.session_idle_timeout_s)
        )
        conn.rollback()
    accumulated = tm.accumulated_importance(importances)
    last_at = dt.datetime.fromisoformat(details["now"]) if "now" in details else None
    since = last_at if last_at is not None else oldest if fallback else None
    hours = 0.0 if since is None else max(0.0, (now - since).total_seconds() / 3600.0)
    if not importances:
        hours = 0.0  # nothing new: neither the schedule nor a session end gives reflection anything to scan
    trigger = tm.reflection_due(
        accumulated, hours, (session_ended or ended) and bool(importances), settings.traits
    )
    value = (
        {
            tm.TriggerType.IMPORTANCE_ACCUMULATED: accumulated,
            tm.TriggerType.SCHEDULED: hours,
            tm.TriggerType.SESSION_END: 1.0,
        }.get(trigger)
        if trigger
        else None
    )  # type: ignore[call-overload]
    return TriggerDecision(trigger, value, accumulated, hours)


def check_and_schedule(
    db: Database, queue: ReflectionQueue, uid: str, when: dt.datetime, *, session_ended: bool = False
) -> tm.TriggerType | None:
    """Evaluate the triggers for the (checked) user ``uid`` at ``when``; when one fires, queue a cycle
    on the in-process queue."""
    decision = due(db, uid, when, session_ended=session_ended)
    if decision.trigger is not None:
        queue.submit(uid, when, decision.trigger, decision.value)
    return decision.trigger


def schedule_check(
    db: Database,
    queue: ReflectionQueue,
    uid: str,
    now: dt.datetime | None,
    wall: Callable[[], dt.datetime],
    *,
    session_ended: bool = False,
) -> None:
    """Queue a trigger check for ``user_id`` at ``now``; the worker evaluates :func:`due` and reflects if due.

    ``now`` defaults to the conversation's clock — the time of the user's latest
    stored message (the wall clock when there is none) — so a replayed or
    imported conversation is reflected on in its own time, and a live one at the
    present (``wall``, the runtime's clock).
    """
    when = now
    if when is None:
        with db.connection() as conn:
            when = store.latest_message_at(conn, uid)
            conn.rollback()
    if when is None:
        when = wall()
    queue.submit(uid, when, CHECK, session_ended=session_ended)


def sweep_due(db: Database, now: dt.datetime, *, limit: int) -> list[tuple[str, TriggerDecision]]:
    """Users with unreflected memories whose 24 h fallback has passed at ``now`` (at most ``limit``)."""
    with db.connection() as conn:
        candidates = maintenance.users_with_unreflected_memories(conn, limit=limit)
        conn.rollback()
    found = []
    for uid in candidates:
        decision = due(db, uid, now, fallback=True)
        if decision.trigger is not None:
            found.append((uid, decision))
    return found
