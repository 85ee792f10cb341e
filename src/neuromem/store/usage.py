"""SQL over ``model_usage`` and ``pipeline_events``: what model calls cost, and what the
pipelines decided that is worth keeping (extraction fallbacks, dropped candidates).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from psycopg.types.json import Jsonb

from ..ids import uuid7
from ..types import UsageRecord
from .db import Conn

RECORD_USAGE = """INSERT INTO model_usage (id, user_id, operation, model, prompt_tokens, completion_tokens,
                                        latency_ms, ok, error)
               VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)"""


def record_usage(conn: Conn, user_id: str, records: Sequence[UsageRecord]) -> None:
    """One ``model_usage`` row per model call (successful or not)."""
    if not records:
        return
    with conn.cursor() as cur:
        cur.executemany(
            RECORD_USAGE,
            [
                (
                    uuid7(),
                    user_id,
                    r.operation[:50],
                    r.model[:255],
                    r.prompt_tokens,
                    r.completion_tokens,
                    r.latency_ms,
                    r.ok,
                    r.error,
                )
                for r in records
            ],
        )


RECORD_EVENTS = "INSERT INTO pipeline_events (id, user_id, kind, detail) VALUES (%s, %s, %s, %s)"


def record_events(conn: Conn, user_id: str, events: Sequence[tuple[str, dict[str, Any]]]) -> None:
    """``(kind, detail)`` pairs into ``pipeline_events``."""
    if not events:
        return
    with conn.cursor() as cur:
        cur.executemany(
            RECORD_EVENTS,
            [(uuid7(), user_id, kind[:50], Jsonb(detail)) for kind, detail in events],
        )


EVENTS = (
    "SELECT kind, detail, created_at FROM pipeline_events WHERE user_id = %s ORDER BY created_at, id LIMIT %s"
)
EVENTS_OF_KIND = """SELECT kind, detail, created_at FROM pipeline_events WHERE user_id = %s AND kind = %s
           ORDER BY created_at, id LIMIT %s"""


def events(conn: Conn, user_id: str, kind: str | None = None, limit: int = 1000) -> list[dict[str, Any]]:
    if kind is None:
        return conn.execute(EVENTS, (user_id, limit)).fetchall()
    return conn.execute(EVENTS_OF_KIND, (user_id, kind, limit)).fetchall()


USAGE_TOTALS = """SELECT operation, model, count(*) AS calls, count(*) FILTER (WHERE NOT ok) AS failures,
                  sum(prompt_tokens) AS prompt_tokens, sum(completion_tokens) AS completion_tokens,
                  avg(latency_ms) AS mean_latency_ms
           FROM model_usage WHERE user_id = %s GROUP BY 1, 2 ORDER BY 1, 2"""


def usage_totals(conn: Conn, user_id: str) -> list[dict[str, Any]]:
    """Calls, failures, tokens and mean latency per operation and model."""
    return conn.execute(USAGE_TOTALS, (user_id,)).fetchall()


MODEL_USAGE_TOTALS = """SELECT operation, model, ok, count(*) AS n, coalesce(sum(prompt_tokens), 0) AS p,
                  coalesce(sum(completion_tokens), 0) AS c
           FROM model_usage GROUP BY operation, model, ok ORDER BY 1, 2, 3"""


def totals(conn: Conn) -> list[dict[str, Any]]:
    """Calls (``n``), prompt (``p``) and completion (``c``) tokens per operation, model and outcome (``ok``)."""
    return conn.execute(MODEL_USAGE_TOTALS).fetchall()
