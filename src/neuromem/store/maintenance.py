"""Maintenance SQL of the scheduled jobs (seed 000 §5.1–§5.2).

- refresh ``mv_trait_decayed`` concurrently (task 1);
- dissolve trends whose window ended without enough reinforcement (task 2);
- dissolve traits whose decayed confidence fell below the floor (task 3);
- consistency check: evidence, history and sources that point at nothing (task 5).

Each function takes the clock ``now`` explicitly where it matters.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from psycopg import sql

from ..config import TraitSettings
from . import scope
from .db import Conn, Database
from .decay import trait_confidence_sql, trait_decay_params

REFRESH_TRAIT_VIEW = "REFRESH MATERIALIZED VIEW CONCURRENTLY mv_trait_decayed"
# on a Citus cluster the view is a plain view, always current (store.distributed): nothing to refresh
TRAIT_VIEW_IS_MATERIALIZED = """SELECT 1 FROM pg_class
    WHERE relname = 'mv_trait_decayed' AND relkind = 'm' AND relnamespace = current_schema()::regnamespace"""


def refresh_trait_view(db: Database) -> None:
    """``REFRESH MATERIALIZED VIEW CONCURRENTLY mv_trait_decayed`` (readers are never blocked)."""
    with scope.suspended(), db.connection() as conn:  # cross-user: runs as owner even in a request
        if conn.execute(TRAIT_VIEW_IS_MATERIALIZED).fetchone() is None:
            return
        conn.commit()
        conn.autocommit = True
        try:
            conn.execute(REFRESH_TRAIT_VIEW)
        finally:
            conn.autocommit = False


# the window is over on the user's history clock (migration 0016), not the wall clock alone
ENDED_TRENDS = sql.SQL("""trait_stage = 'trend' AND expired_at IS NULL AND trait_window_end < %(at)s
                     AND trait_reinforcement_count < %(promote)s
                     AND trait_window_end < neuromem_history_clock(user_id, %(at)s)""")
# dissolve the trait rows ``where`` selects, each change versioned and recorded in memory_history by ``actor``
_DISSOLVE = sql.SQL("""WITH gone AS (
                   UPDATE memories_trait
                   SET trait_stage = 'dissolved', version = version + 1, updated_at = now()
                   WHERE {where}
                   RETURNING id, user_id, content, metadata)
               INSERT INTO memory_history (id, user_id, memory_id, memory_type, event, old_content, new_content,
                                           new_metadata, actor)
               SELECT gen_random_uuid(), user_id, id, 'trait', 'STAGE_CHANGE', content, content,
                      metadata || jsonb_build_object('stage', 'dissolved', 'reason', {reason}::text), {actor}
               FROM gone RETURNING memory_id""")
EXPIRE_TRENDS = _DISSOLVE.format(
    where=ENDED_TRENDS, reason=sql.Literal("trend window ended"), actor=sql.Literal("job:expire_trends")
)


def expire_trends(db: Database, now: dt.datetime, settings: TraitSettings, *, dry_run: bool = False) -> int:
    """Task 2: trends past their window with fewer than ``trend_promote_reinforcements`` → dissolved.

    Trends that earned promotion are left to the next reflection cycle, which
    turns them into candidates (seed 001 §4.1). Each change is versioned and
    recorded in ``memory_history`` (STAGE_CHANGE). ``dry_run`` only counts them.
    """
    params = {"at": now, "promote": settings.trend_promote_reinforcements}
    if dry_run:
        return _count(db, ENDED_TRENDS, params)
    with db.transaction() as conn:
        rows = conn.execute(EXPIRE_TRENDS, params).fetchall()
    return len(rows)


WEAK_TRAITS = sql.SQL("""trait_stage NOT IN ('dissolved', 'trend') AND expired_at IS NULL
                      AND trait_confidence IS NOT NULL AND {confidence} < %(floor)s""").format(
    confidence=trait_confidence_sql("memories_trait")
)
DISSOLVE_WEAK_TRAITS = _DISSOLVE.format(
    where=WEAK_TRAITS,
    reason=sql.Literal("decayed below the floor"),
    actor=sql.Literal("job:dissolve_weak_traits"),
)


def dissolve_weak_traits(
    db: Database, now: dt.datetime, settings: TraitSettings, *, dry_run: bool = False
) -> int:
    """Task 3: traits whose decayed confidence is below ``dissolve_below`` (0.05) → dissolved
    (``dry_run``: counted only)."""
    params: dict[str, Any] = {**trait_decay_params(settings, now), "floor": settings.dissolve_below}
    if dry_run:
        return _count(db, WEAK_TRAITS, params)
    with db.transaction() as conn:
        rows = conn.execute(DISSOLVE_WEAK_TRAITS, params).fetchall()
    return len(rows)


COUNT_TRAITS = sql.SQL("SELECT count(*) AS n FROM memories_trait WHERE {where}")


def _count(db: Database, where: sql.Composable, params: Any) -> int:
    """How many trait rows ``where`` selects (the dry runs of the jobs above)."""
    with scope.suspended(), db.connection() as conn:
        row = conn.execute(COUNT_TRAITS.format(where=where), params).fetchone()
        conn.rollback()
    return int(row["n"]) if row else 0


_ORPHANS = {
    "trait_evidence_without_trait": """SELECT count(*) AS n FROM trait_evidence e WHERE NOT EXISTS
        (SELECT 1 FROM memories m WHERE m.user_id = e.user_id AND m.id = e.trait_id AND m.memory_type = 'trait')""",
    "trait_evidence_without_memory": """SELECT count(*) AS n FROM trait_evidence e WHERE NOT EXISTS
        (SELECT 1 FROM memories m WHERE m.user_id = e.user_id AND m.id = e.memory_id)""",
    "history_without_memory": """SELECT count(*) AS n FROM memory_history h WHERE NOT EXISTS
        (SELECT 1 FROM memories m WHERE m.user_id = h.user_id AND m.id = h.memory_id)""",
    "sources_without_memory": """SELECT count(*) AS n FROM memory_sources s WHERE NOT EXISTS
        (SELECT 1 FROM memories m WHERE m.user_id = s.user_id AND m.id = s.memory_id)""",
    "sources_without_session": """SELECT count(*) AS n FROM memory_sources s WHERE NOT EXISTS
        (SELECT 1 FROM conversation_sessions c WHERE c.user_id = s.user_id AND c.id = s.session_id)""",
    "traits_with_missing_parent": """SELECT count(*) AS n FROM memories_trait t WHERE t.trait_parent_id IS NOT NULL
        AND NOT EXISTS (SELECT 1 FROM memories_trait p WHERE p.user_id = t.user_id AND p.id = t.trait_parent_id)""",
    "reflections_stuck_running": """SELECT count(*) AS n FROM reflection_cycles
        WHERE status = 'running' AND started_at < now() - interval '1 hour'""",
}


def consistency_check(db: Database) -> dict[str, int]:
    """Task 5: count orphaned evidence, history, sources and lineage; a clean database is all zeros.

    Reported, not repaired: history deliberately outlives a hard delete (audit),
    so deciding what to remove is a human's call.
    """
    out: dict[str, int] = {}
    with db.connection() as conn:
        for name, query in _ORPHANS.items():
            row = conn.execute(query).fetchone()
            out[name] = int(row["n"]) if row else 0
        conn.rollback()
    return out


def users_with_unreflected_memories(conn: Conn, *, limit: int) -> list[str]:
    """Users with a current fact or episode newer than their last completed reflection cycle (or with
    none), the longest-waiting first: the candidates of the reflection sweep (seed 001 §4.5)."""
    rows = conn.execute(UNREFLECTED_USERS, (limit,)).fetchall()
    return [r["user_id"] for r in rows]


UNREFLECTED_USERS = """SELECT m.user_id, min(m.created_at) AS oldest FROM memories m
           LEFT JOIN LATERAL (SELECT max(c.started_at) AS at FROM reflection_cycles c
                              WHERE c.user_id = m.user_id AND c.status = 'completed') last ON true
           WHERE m.memory_type IN ('fact', 'episodic') AND m.expired_at IS NULL
             AND (last.at IS NULL OR m.created_at > last.at)
           GROUP BY m.user_id ORDER BY oldest, m.user_id LIMIT %s"""
