"""SQL over ``ingest_jobs`` (migration 0021): ingest batches waiting for extraction (issue 27 item 2).

A runner claims the oldest queued job with ``FOR UPDATE SKIP LOCKED`` and keeps that row lock,
in its own transaction, until it records the outcome: a runner that dies releases the lock with
its connection and the job is claimed again. "Running" is therefore not a stored state but the
lock itself (:func:`is_locked`).
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
LOCKED = "SELECT 1 FROM ingest_jobs WHERE user_id = %s AND id = %s FOR UPDATE SKIP LOCKED"
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


def is_locked(conn: Conn, user_id: str, job_id: uuid.UUID) -> bool:
    """Whether a runner holds the job now (call inside a transaction that is then rolled back or ended)."""
    return conn.execute(LOCKED, (user_id, job_id)).fetchone() is None


def queued(conn: Conn) -> tuple[int, dt.datetime | None]:
    """How many jobs wait, and since when the oldest."""
    row = conn.execute(COUNT_QUEUED).fetchone()
    assert row is not None
    return int(row["n"]), row["oldest"]
