"""Ingest that does not block (issue 27 item 2): ``ingest(…, wait=False)`` and ``POST /v1/ingest?async=true``.

``submit`` validates the batch as ``ingest`` would (a bad batch raises its typed error and
stores nothing), fixes its receive time, stores it in ``ingest_jobs`` in one INSERT and returns
the job id: from then on the batch survives any crash. Extraction, decisions and writes run
later, by :func:`run_queued`, which is reached three ways:

- the runner thread of the ``Memory`` that submitted the job (:class:`IngestJobRunner`), started
  at once — a program that calls ``ingest(wait=False)`` needs nothing else running; ``close()``
  waits for the jobs that process queued;
- the job ``run_ingest_jobs`` of the registry (every minute) on a ``memctl worker`` or on the
  in-process scheduler (``lifecycle.background_jobs``) of any process on the same database;
- ``Memory.run_job("run_ingest_jobs")`` (``memctl job --run run_ingest_jobs``) by hand.

A job is claimed with ``FOR UPDATE SKIP LOCKED`` and its row lock is held until its outcome is
recorded (``store.ingest_jobs``), so two runners never take the same job and a runner killed
mid-job (kill -9) leaves it queued for the next one. The batch keeps the turn keys of a normal
ingest (``ingest.turns``), and the pipeline commits a batch in one transaction, so a second run
of a job whose first run committed but died before recording it stores nothing twice.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import threading
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .. import validation as check
from ..core import Runtime
from ..errors import InvalidInputError, JobNotFoundError, NeuromemError
from ..ids import uuid7
from ..store import ingest_jobs as store
from ..store.visibility import Owner
from .pipeline import IngestPipeline, IngestReport
from .turns import parse_turns, session_id

log = logging.getLogger(__name__)

NO_SCOPE = Owner()  # the user's own memory (a job queued before scopes existed has no "owner")


@dataclass(frozen=True, slots=True)
class IngestJob:
    """An ingest batch handed to the job queue: ``status`` is queued / running / done / failed;
    ``result`` (when done) summarises the ``IngestReport``; ``error`` (when failed) says why."""

    id: uuid.UUID
    user_id: str
    session_id: str
    status: str
    attempts: int = 0
    created_at: dt.datetime | None = None
    started_at: dt.datetime | None = None
    finished_at: dt.datetime | None = None
    result: dict[str, Any] | None = None
    error: str | None = None


def submit(
    runtime: Runtime,
    messages: Any,
    uid: str,
    session: Any,
    *,
    metadata: Any = None,
    strict: bool = False,
    owner: Owner = NO_SCOPE,
) -> IngestJob:
    """Validate and durably queue one batch of the (checked) user ``uid``; returns at once (no model is called).
    ``owner``: the scope (agent, run, visibility, team; checked by the caller) the job's memories get, kept in
    the payload."""
    settings = runtime.settings
    sid = session_id(session)
    extra = None if metadata is None else check.metadata(metadata)
    received = runtime.now()
    parsed = parse_turns(messages, settings, now=received, strict=strict)
    if not parsed.turns:  # nothing acceptable: refused now, as a waiting ingest would refuse it
        raise parsed.rejected[0].error
    try:
        stored_messages = json.loads(json.dumps(list(messages), default=_jsonable))
    except (TypeError, ValueError) as exc:
        raise InvalidInputError(f"messages cannot be queued: {exc}") from None
    payload = {
        "messages": stored_messages,
        "metadata": extra,
        "strict": strict,
        "received": received.isoformat(),
        "owner": owner.columns(),
    }
    job_id = uuid7()
    with runtime.db.transaction() as conn:
        store.insert(conn, job_id, uid, sid, payload)
    return IngestJob(job_id, uid, sid, "queued", created_at=received)


def status(runtime: Runtime, jid: uuid.UUID, uid: str) -> IngestJob:
    """The job's state and, once done, its result; ``JobNotFoundError`` for an id this user does not own."""
    with runtime.db.transaction() as conn:
        row = store.get(conn, jid, uid)
        if row is None:
            raise JobNotFoundError(f"no ingest job {jid} for user {uid!r}")
        state = "running" if row.status == "queued" and store.is_locked(conn, jid) else row.status
    return IngestJob(
        row.id,
        row.user_id,
        row.session_id,
        state,
        row.attempts,
        row.created_at,
        row.started_at,
        row.finished_at,
        row.result,
        row.error,
    )


def run_queued(pipeline: IngestPipeline, *, limit: int | None = None) -> list[str]:
    """Run queued jobs, oldest first, until none is free or ``limit`` ran; returns their users, in order."""
    users: list[str] = []
    while limit is None or len(users) < limit:
        user = run_one(pipeline)
        if user is None:
            break
        users.append(user)
    return users


def run_one(pipeline: IngestPipeline) -> str | None:
    """Claim the oldest free queued job and run it; its user, or None when none was free."""
    db = pipeline.runtime.db
    with db.transaction() as claim:  # the row lock lives as long as this transaction
        row = store.claim(claim)
        if row is None:
            return None
        store.mark_running(claim, row.id)
        store.mark_started(
            claim, row.user_id, row.id
        )  # committed with the outcome: a killed run counts no attempt
        result, error = _run(pipeline, row)
        store.finish(claim, row.user_id, row.id, result=result, error=error)
    return row.user_id


def _run(pipeline: IngestPipeline, row: store.IngestJobRow) -> tuple[dict[str, Any] | None, str | None]:
    p = row.payload
    try:
        report = pipeline.ingest(
            p["messages"],
            row.user_id,
            row.session_id,
            metadata=p.get("metadata"),
            now=dt.datetime.fromisoformat(p["received"]),
            strict=bool(p.get("strict")),
            owner=Owner(**p.get("owner") or {}),
        )
    except NeuromemError as exc:  # the batch itself is at fault (or the store): recorded, not retried
        log.warning("ingest job %s failed: %s", row.id, exc)
        return None, f"{type(exc).__name__}: {exc}"[:2000]
    return summary(report), None


def summary(report: IngestReport) -> dict[str, Any]:
    """What ``job_status`` reports of a finished job's ``IngestReport`` (JSON)."""
    return {
        "turns": report.turns,
        "skipped": report.skipped,
        "units": report.units,
        "operations": report.counts(),
        "memory_ids": [str(r.memory.id) for r in report.results],
        "dropped": dict(report.dropped),
        "rejected": [{"index": r.index, "reason": r.reason} for r in report.rejected],
        "documents": [str(d.id) for d in report.documents],
        "warnings": list(report.warnings),
    }


def _jsonable(value: Any) -> Any:
    if isinstance(value, dt.datetime | dt.date):
        return value.isoformat()
    if isinstance(value, uuid.UUID):
        return str(value)
    raise TypeError(f"{type(value).__name__} is not JSON")


class IngestJobRunner:
    """A daemon thread that runs queued ingest jobs as soon as they are submitted (``poke``)."""

    def __init__(
        self, pipeline: IngestPipeline, *, on_done: Callable[[list[str]], None] | None = None
    ) -> None:
        self._pipeline = pipeline
        self._on_done = on_done  # called with the users of the jobs run (the facade's post-ingest hooks)
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._idle = threading.Event()
        self._idle.set()
        self._thread = threading.Thread(target=self._loop, name="neuromem-ingest-jobs", daemon=True)
        self._thread.start()

    def poke(self) -> None:
        self._idle.clear()
        self._wake.set()

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Block until every job queued so far was run (or ``timeout``); True when idle."""
        return self._idle.wait(timeout)

    def stop(self) -> None:
        """Finish the queued jobs, then stop the thread."""
        self._stop.set()
        self._wake.set()
        self._thread.join()

    def _loop(self) -> None:
        while True:
            self._wake.wait()
            self._wake.clear()
            try:
                users = run_queued(self._pipeline)
                if users and self._on_done is not None:
                    self._on_done(users)
            except Exception:  # the database went away: the jobs stay queued for the next runner
                log.exception("ingest jobs could not run; they stay queued")
            if not self._wake.is_set():
                self._idle.set()
            if self._stop.is_set():
                return
