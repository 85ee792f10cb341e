"""What the job queue's tables say about the schedule (issue 27 item 1: overdue jobs in ``status``).

A periodic job's tick counts as run when its ``procrastinate_periodic_defers`` row points at a job
that succeeded, is running, or was deleted after succeeding (``delete_jobs="successful"``).
"""

from __future__ import annotations

from .db import Conn

LAST_RUN_TICKS = """
SELECT d.periodic_id, max(d.defer_timestamp) AS last_tick
FROM procrastinate_periodic_defers d
LEFT JOIN procrastinate_jobs j ON j.id = d.job_id
WHERE d.task_name LIKE %s AND (d.job_id IS NULL OR j.status IN ('succeeded', 'doing'))
GROUP BY d.periodic_id"""


def last_run_ticks(conn: Conn, task_prefix: str) -> dict[str, int]:
    """The latest tick (epoch seconds) run or running, by periodic id, of the tasks named ``task_prefix…``."""
    rows = conn.execute(LAST_RUN_TICKS, (task_prefix + "%",)).fetchall()
    return {r["periodic_id"]: int(r["last_tick"]) for r in rows if r["last_tick"] is not None}


STORE_CREATED = "SELECT extract(epoch FROM min(applied_at)) AS at FROM neuromem_migrations"


def store_created(conn: Conn) -> float | None:
    """When this store's schema was first laid out (epoch seconds): no tick before it was ever due here."""
    row = conn.execute(STORE_CREATED).fetchone()
    return None if row is None or row["at"] is None else float(row["at"])


LIVE_WORKERS = (
    "SELECT count(*) AS n FROM procrastinate_workers WHERE last_heartbeat > now() - make_interval(secs => %s)"
)


def live_workers(conn: Conn, within_s: float) -> int:
    """Queue workers (``memctl worker``) whose heartbeat is younger than ``within_s`` seconds."""
    row = conn.execute(LIVE_WORKERS, (within_s,)).fetchone()
    return 0 if row is None else int(row["n"])
