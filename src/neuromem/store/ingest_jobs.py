"""SQL over ``ingest_jobs`` (migration 0021): ingest batches waiting for extraction (issue 27 item 2).

A runner claims the oldest queued job with ``FOR UPDATE SKIP LOCKED`` and keeps that row lock,
in its own transaction, until it records the outcome: a runner that dies releases the lock with
its connection and the job is claimed again. "Running" is therefore not a stored state but a
lock: the runner also holds an advisory lock named after the job, which a status probe tries
(:func:`is_locked`) without touching the row.
"""

from __future__ import annotations

import datetime as dt
import uuid
from dataclasses import dataclass
from typing import Any

from psycopg.types.json import Jsonb

from .db import Conn


@dataclass(frozen=True, slots=True)
class IngestJobRow:
    id: uuid.UUID
    user_id: str
    session_id: str
    payload: dict[str, Any]
    status: str
    attempts: int
    result: dict[str, Any] | None
    error: str | None
    created_at: dt.datetime
    started_at: dt.datetime | None
    finished_at: dt.datetime | None


INSERT = "INSERT INTO ingest_jobs (id, user_id, session_id, payload) VALUES (%s, %s, %s, %s)"
CLAIM = """SELECT id, user_id, session_id, payload, status, attempts, result, error, created_at, started_at, finished_at
           FROM ingest_jobs WHERE status = 'queued' ORDER BY created_at, id LIMIT 1 FOR UPDATE SKIP LOCKED"""
STARTED = "UPDATE ingest_jobs SET attempts = attempts + 1, started_at = now() WHERE user_id = %s AND id = %s"
FINISH = """UPDATE ingest_jobs SET status = %s, result = %s, error = %s, finished_at = now(),
            started_at = coalesce(started_at, now()) WHERE user_id = %s AND id = %s"""
GET = """SELECT id, user_id, session_id, payload, status, attempts, result, error, created_at, started_at, finished_at
         FROM ingest_jobs WHERE id = %s AND user_id = %s"""
# A runner holds its job's row lock (the claim) and this advisory lock for the whole run. A status probe tries
# only the advisory lock: probing the row lock made a claim at that instant skip the job, and the runner then
# went idle with the job still queued.
RUNNING = "SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))"
PROBE = "SELECT pg_try_advisory_xact_lock(hashtextextended(%s, 0)) AS free"
COUNT_QUEUED = "SELECT count(*) AS n, min(created_at) AS oldest FROM ingest_jobs WHERE status = 'queued'"


def insert(conn: Conn, job_id: uuid.UUID, user_id: str, session_id: str, payload: dict[str, Any]) -> None:
    conn.execute(INSERT, (job_id, user_id, session_id, Jsonb(payload)))


def claim(conn: Conn) -> IngestJobRow | None:
    """Lock the oldest queued job for this transaction; None when there is none free."""
    row = conn.execute(CLAIM).fetchone()
    return None if row is None else IngestJobRow(**row)


def mark_started(conn: Conn, user_id: str, job_id: uuid.UUID) -> None:
    """Count the attempt (in the claiming transaction: another connection would wait for its lock)."""
    conn.execute(STARTED, (user_id, job_id))


def finish(
    conn: Conn, user_id: str, job_id: uuid.UUID, *, result: dict[str, Any] | None, error: str | None
) -> None:
    conn.execute(
        FINISH,
        (
            "failed" if error is not None else "done",
            None if result is None else Jsonb(result),
            error,
            user_id,
            job_id,
        ),
    )


def get(conn: Conn, job_id: uuid.UUID, user_id: str) -> IngestJobRow | None:
    row = conn.execute(GET, (job_id, user_id)).fetchone()
    return None if row is None else IngestJobRow(**row)


def _running_key(job_id: uuid.UUID) -> str:
    return f"ingest-job:{job_id}"


def mark_running(conn: Conn, job_id: uuid.UUID) -> None:
    """Hold the job's running lock until the claiming transaction ends (see :func:`is_locked`)."""
    conn.execute(RUNNING, (_running_key(job_id),))


def is_locked(conn: Conn, job_id: uuid.UUID) -> bool:
    """Whether a runner holds the job now (call inside a transaction that then ends at once). Takes no row
    lock, so a probe never hides the job from a runner claiming it at the same instant."""
    row = conn.execute(PROBE, (_running_key(job_id),)).fetchone()
    assert row is not None
    return not row["free"]


def queued(conn: Conn) -> tuple[int, dt.datetime | None]:
    """How many jobs wait, and since when the oldest."""
    row = conn.execute(COUNT_QUEUED).fetchone()
    assert row is not None
    return int(row["n"]), row["oldest"]
