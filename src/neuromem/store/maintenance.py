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

from ..config import TraitSettings
from . import scope
from .db import Database
from .decay import trait_confidence_sql, trait_decay_params


def refresh_trait_view(db: Database) -> None:
    """``REFRESH MATERIALIZED VIEW CONCURRENTLY mv_trait_decayed`` (readers are never blocked)."""
    with scope.suspended(), db.connection() as conn:  # cross-user: runs as owner even in a request
        conn.autocommit = True
        try:
            conn.execute("REFRESH MATERIALIZED VIEW CONCURRENTLY mv_trait_decayed")
        finally:
            conn.autocommit = False


def expire_trends(db: Database, now: dt.datetime, settings: TraitSettings) -> int:
    """Task 2: trends past their window with fewer than ``trend_promote_reinforcements`` → dissolved.

    Trends that earned promotion are left to the next reflection cycle, which
    turns them into candidates (seed 001 §4.1). Each change is versioned and
    recorded in ``memory_history`` (STAGE_CHANGE).
    """
    with db.transaction() as conn:
        rows = conn.execute(
            """WITH gone AS (
                   UPDATE memories_trait
                   SET trait_stage = 'dissolved', version = version + 1, updated_at = now()
                   WHERE trait_stage = 'trend' AND expired_at IS NULL AND trait_window_end < %s
                     AND trait_reinforcement_count < %s
                   RETURNING id, user_id, content, metadata)
               INSERT INTO memory_history (id, user_id, memory_id, memory_type, event, old_content, new_content,
                                           new_metadata, actor)
               SELECT gen_random_uuid(), user_id, id, 'trait', 'STAGE_CHANGE', content, content,
                      metadata || '{"stage": "dissolved", "reason": "trend window ended"}', 'job:expire_trends'
               FROM gone RETURNING memory_id""",
            (now, settings.trend_promote_reinforcements),
        ).fetchall()
    return len(rows)


def dissolve_weak_traits(db: Database, now: dt.datetime, settings: TraitSettings) -> int:
    """Task 3: traits whose decayed confidence is below ``dissolve_below`` (0.05) → dissolved."""
    params: dict[str, Any] = {**trait_decay_params(settings, now), "floor": settings.dissolve_below}
    with db.transaction() as conn:
        rows = conn.execute(
            f"""WITH gone AS (
                    UPDATE memories_trait
                    SET trait_stage = 'dissolved', version = version + 1, updated_at = now()
                    WHERE trait_stage NOT IN ('dissolved', 'trend') AND expired_at IS NULL
                      AND trait_confidence IS NOT NULL AND {trait_confidence_sql('memories_trait')} < %(floor)s
                    RETURNING id, user_id, content, metadata)
                INSERT INTO memory_history (id, user_id, memory_id, memory_type, event, old_content, new_content,
                                            new_metadata, actor)
                SELECT gen_random_uuid(), user_id, id, 'trait', 'STAGE_CHANGE', content, content,
                       metadata || '{{"stage": "dissolved", "reason": "decayed below the floor"}}',
                       'job:dissolve_weak_traits'
                FROM gone RETURNING memory_id""",
            params,
        ).fetchall()
    return len(rows)


_ORPHANS = {
    "trait_evidence_without_trait": """SELECT count(*) AS n FROM trait_evidence e WHERE NOT EXISTS
        (SELECT 1 FROM memories m WHERE m.id = e.trait_id AND m.memory_type = 'trait')""",
    "trait_evidence_without_memory": """SELECT count(*) AS n FROM trait_evidence e WHERE NOT EXISTS
        (SELECT 1 FROM memories m WHERE m.id = e.memory_id)""",
    "history_without_memory": """SELECT count(*) AS n FROM memory_history h WHERE NOT EXISTS
        (SELECT 1 FROM memories m WHERE m.id = h.memory_id)""",
    "sources_without_memory": """SELECT count(*) AS n FROM memory_sources s WHERE NOT EXISTS
        (SELECT 1 FROM memories m WHERE m.id = s.memory_id)""",
    "sources_without_session": """SELECT count(*) AS n FROM memory_sources s WHERE NOT EXISTS
        (SELECT 1 FROM conversation_sessions c WHERE c.id = s.session_id)""",
    "traits_with_missing_parent": """SELECT count(*) AS n FROM memories_trait t WHERE t.trait_parent_id IS NOT NULL
        AND NOT EXISTS (SELECT 1 FROM memories_trait p WHERE p.id = t.trait_parent_id)""",
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
