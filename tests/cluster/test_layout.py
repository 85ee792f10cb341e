"""The cluster layout (issue 24 item 2), with its adaptations of migrations 0020 and 0022.

The trigger swap is plain PostgreSQL, so its tests run on the single node of ``make test`` too
(on a migrated database, inside a transaction that is rolled back); the layout itself is checked
on the cluster (``cluster`` marker).
"""

from __future__ import annotations

import uuid
from typing import Any

import psycopg
import pytest

from neuromem import Memory, Settings
from neuromem.errors import StoreError
from neuromem.store import distributed

ROW_LEVEL = 1  # pg_trigger.tgtype bit: FOR EACH ROW
_TRIGGERS = """SELECT c.relname, t.tgname, p.proname, t.tgtype & 1 AS per_row,
                      t.tgnewtable IS NOT NULL OR t.tgoldtable IS NOT NULL AS transition
    FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_proc p ON p.oid = t.tgfoid
    WHERE c.relname IN ('memory_history', 'memory_conflicts') AND NOT t.tgisinternal ORDER BY 1, 2"""
_ADD_HISTORY = """INSERT INTO memory_history (id, user_id, memory_id, memory_type, event, actor)
    VALUES (%s, 'alice', %s, 'fact', %s, 'user')"""


def _url(settings: Settings) -> str:
    return settings.store.database_url.get_secret_value()  # type: ignore[union-attr]


def _events(conn: psycopg.Connection[Any]) -> list[tuple[Any, ...]]:
    return conn.execute(
        "SELECT kind, source_id FROM memory_events WHERE user_id = 'alice' ORDER BY id"
    ).fetchall()


def test_transition_table_triggers_become_their_per_row_twins_with_the_same_events(
    settings: Settings,
) -> None:
    with psycopg.connect(_url(settings)) as conn:
        before = conn.execute(_TRIGGERS).fetchall()
        assert before and all(
            row[4] and not row[3] for row in before
        )  # 0020: statement-level, transition tables
        replaced = distributed._triggers_per_row(conn, ["memory_conflicts", "memory_history"])
        after = conn.execute(_TRIGGERS).fetchall()
        assert sorted(replaced) == sorted(f"{t}.{n}" for t, n, *_ in before)
        assert [(t, n, f"{p}{distributed.PER_ROW_SUFFIX}") for t, n, p, *_ in before] == [
            (t, n, p) for t, n, p, *_ in after
        ]
        assert all(row[3] == ROW_LEVEL and not row[4] for row in after)
        # the twins tell what the statement triggers told: an added memory, then its deletion withdraws
        # the events of that memory (0020's rule), and a FORGET tombstone's event names no memory
        added, deleted, memory = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
        conn.execute(_ADD_HISTORY, (added, memory, "ADD"))
        assert _events(conn) == [("memory.added", added)]
        conn.execute(_ADD_HISTORY, (deleted, memory, "DELETE"))
        assert _events(conn) == [("memory.added", added), ("memory.deleted", deleted)]
        conn.execute("DELETE FROM memory_history WHERE id = %s", (added,))
        assert _events(conn) == []
        conn.rollback()


def test_a_transition_table_trigger_without_a_per_row_twin_is_refused(settings: Settings) -> None:
    with psycopg.connect(_url(settings)) as conn:
        conn.execute("CREATE TABLE probe (user_id text)")
        conn.execute(
            "CREATE FUNCTION probe_count() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$"
        )
        conn.execute(
            "CREATE TRIGGER trg_probe AFTER INSERT ON probe REFERENCING NEW TABLE AS added "
            "FOR EACH STATEMENT EXECUTE FUNCTION probe_count()"
        )
        with pytest.raises(StoreError, match="probe_count_per_row"):
            distributed._triggers_per_row(conn, ["probe"])
        conn.rollback()


@pytest.mark.cluster
def test_the_cluster_layout(memory: Memory, settings: Settings) -> None:
    with psycopg.connect(_url(settings)) as conn:
        kinds = dict(
            conn.execute(
                "SELECT logicalrelid::regclass::text, partmethod FROM pg_dist_partition "
                "WHERE logicalrelid::regclass::text IN ('team_members', 'memory_events', 'webhooks', 'memory_history')"
            ).fetchall()
        )
        colocated = conn.execute(
            "SELECT count(DISTINCT colocationid) FROM pg_dist_partition "
            "WHERE logicalrelid::regclass::text IN ('memory_events', 'memory_history', 'memories')"
        ).fetchone()
        triggers = conn.execute(_TRIGGERS).fetchall()
        view = conn.execute("SELECT relkind FROM pg_class WHERE relname = 'mv_trait_decayed'").fetchone()
        history_key = conn.execute(
            "SELECT pg_get_constraintdef(oid) FROM pg_constraint WHERE conname = 'memory_history_pkey'"
        ).fetchone()
    assert view == ("v",)  # a materialized view over shards would route nothing: a plain view
    assert history_key == ("PRIMARY KEY (id, user_id)",)  # every key holds the distribution column
    assert kinds == {"team_members": "n", "webhooks": "n", "memory_events": "h", "memory_history": "h"}
    assert colocated == (1,)
    assert triggers and all(
        row[3] == ROW_LEVEL and row[2].endswith(distributed.PER_ROW_SUFFIX) for row in triggers
    )
