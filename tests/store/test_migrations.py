"""Migrations: step by step equals from scratch; idempotent; refuses newer schemas and other dimensions."""

from __future__ import annotations

import psycopg
import pytest

from neuromem import Memory, StoreError
from neuromem.errors import EmbeddingDimensionError, ExtensionError, SchemaVersionError
from neuromem.store import migrate
from neuromem.store.reembed import reembed
from tests.conftest import TEST_DIM, base_settings, fresh_database

CATALOG_QUERIES = {
    "columns": """SELECT table_name, column_name, data_type, udt_name, is_nullable, column_default,
                         is_generated, generation_expression, character_maximum_length
                  FROM information_schema.columns WHERE table_schema = 'public' ORDER BY 1, 2""",
    "indexes": "SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY 1, 2",
    "constraints": """SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid) FROM pg_constraint
                      WHERE connamespace = 'public'::regnamespace ORDER BY 1, 2""",
    "reloptions": """SELECT relname, relkind, reloptions FROM pg_class
                     WHERE relnamespace = 'public'::regnamespace ORDER BY 1""",
    "views": "SELECT matviewname, definition FROM pg_matviews WHERE schemaname = 'public' ORDER BY 1",
    "partitions": """SELECT inhrelid::regclass::text, pg_get_expr(c.relpartbound, c.oid) FROM pg_inherits
                     JOIN pg_class c ON c.oid = inhrelid WHERE c.relkind = 'r' ORDER BY 1""",
    "versions": "SELECT version, name FROM neuromem_migrations ORDER BY 1",
    "policies": """SELECT tablename, policyname, roles::text, cmd, qual, with_check FROM pg_policies
                   WHERE schemaname = 'public' ORDER BY 1, 2""",
    "row_security": """SELECT relname, relrowsecurity, relforcerowsecurity FROM pg_class
                       WHERE relnamespace = 'public'::regnamespace AND relkind IN ('r', 'p') ORDER BY 1""",
}


def catalog(url: str) -> dict[str, list[tuple]]:
    with psycopg.connect(url) as conn:
        return {name: conn.execute(q).fetchall() for name, q in CATALOG_QUERIES.items()}  # type: ignore[arg-type]


def test_step_by_step_equals_from_scratch(pg_server: str) -> None:
    settings = base_settings()
    stepwise = fresh_database(pg_server, template=False)
    with psycopg.connect(stepwise, autocommit=True) as conn:
        for version in [m.version for m in migrate.migrations()]:  # numbers may have gaps between branches
            assert migrate.migrate(conn, settings, target=version) == [version]
        assert migrate.migrate(conn, settings) == []  # idempotent
    scratch = fresh_database(pg_server, template=False)
    with psycopg.connect(scratch, autocommit=True) as conn:
        migrate.create_from_scratch(conn, settings)
    a, b = catalog(stepwise), catalog(scratch)
    for name in CATALOG_QUERIES:
        assert a[name] == b[name], f"{name} differ between migrations and schema.sql"
    assert any(row[1] == "idx_trait_embedding" and "m='24'" in row[2] for row in a["indexes"])


def test_seed_storage_parameters_and_partitions(db_url: str) -> None:
    cat = catalog(db_url)
    options = {name: opts for name, _, opts in cat["reloptions"]}
    assert "fillfactor=80" in options["memories_trait"]
    assert "fillfactor=90" in options["memories_fact"]
    assert options["memories_episodic"] == ["fillfactor=95"]
    assert {p for p, _ in cat["partitions"] if p.startswith("memories_")} == {
        "memories_fact",
        "memories_episodic",
        "memories_trait",
        "memories_document",
    }
    pk = [c for c in cat["constraints"] if c[0] == "memories" and c[2].startswith("PRIMARY KEY")]
    assert pk[0][2] == "PRIMARY KEY (id, memory_type)"
    assert [v[0] for v in cat["views"]] == ["mv_trait_decayed"]


def test_newer_schema_is_refused(db_url: str) -> None:
    with psycopg.connect(db_url, autocommit=True) as conn:
        conn.execute("INSERT INTO neuromem_migrations (version, name) VALUES (9999, 'from_the_future')")
    with pytest.raises(SchemaVersionError, match="newer"):
        Memory(base_settings(store={"database_url": db_url})).close()


def test_a_schema_that_skipped_a_migration_is_refused_by_name(db_url: str) -> None:
    """A database made by a build whose migrations came in another order (22 before 21): 21 would never run, and
    the first use of its table failed deep inside a call ("relation ingest_jobs does not exist")."""
    with psycopg.connect(db_url, autocommit=True) as conn:
        conn.execute("DELETE FROM neuromem_migrations WHERE version = 21")
    with pytest.raises(SchemaVersionError, match=r"misses migration\(s\) \[21\].*NEUROMEM_STORE__DATA_DIR"):
        Memory(base_settings(store={"database_url": db_url})).close()


def test_other_dimension_is_refused_and_reembed_fixes_it(db_url: str) -> None:
    with Memory(base_settings(store={"database_url": db_url})) as m:
        m.add("Ivy collects vinyl records", user_id="ivy")
    wider = base_settings(dim=96, store={"database_url": db_url})
    with pytest.raises(EmbeddingDimensionError, match="memctl reembed --dim 96"):
        Memory(wider)
    reembed(wider, 96)
    with Memory(wider) as m:
        assert m.pending_embeddings() == 1
        assert m.flush() == 1
        hits = m.search("vinyl records", user_id="ivy")
        assert hits[0].memory.content == "Ivy collects vinyl records" and "vector" in hits[0].retrievers
        # turns take the new dimension too (migration 0011): ingest writes and recall reads their vectors
        m.ingest(
            [{"role": "assistant", "content": "The record fair opens on Sunday"}],
            user_id="ivy",
            session_id="s",
        )
        m.flush()  # the turn's vector, from the backfill (ingest.turn_vectors="background")
        fair = m.search("record fair Sunday", user_id="ivy")
        assert any("vector_turns" in h.retrievers for h in fair)


@pytest.mark.parametrize(
    ("server", "available", "installed", "error"),
    [
        (150004, "0.8.0", None, StoreError),
        (180000, None, None, ExtensionError),
        (170000, "0.6.2", "0.6.2", ExtensionError),
    ],
)
def test_incapable_servers_are_refused(
    server: int, available: str | None, installed: str | None, error: type
) -> None:
    with pytest.raises(error):
        migrate.require_capable_server(server, available=available, installed=installed)
    migrate.require_capable_server(160000, available="0.7.0", installed=None)  # the minimum passes


def test_dimension_constant_matches_fixture() -> None:
    assert base_settings().store.embedding_dim == TEST_DIM


# a real error of the class Citus raises when two writes of one role meet on a node (SQLSTATE XX000)
_LOST_ROLE_RACE = "DO $$ BEGIN RAISE EXCEPTION 'tuple concurrently updated' USING ERRCODE = 'XX000'; END $$"
_OTHER_INTERNAL_ERROR = "DO $$ BEGIN RAISE EXCEPTION 'could not read block 7' USING ERRCODE = 'XX000'; END $$"


def test_a_step_that_lost_a_role_race_is_rolled_back_and_tried_again(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(migrate, "ROLE_RACE_PAUSE_S", 0.0)
    attempts: list[int] = []
    with psycopg.connect(db_url, autocommit=True) as conn:
        conn.execute("CREATE TABLE race_marks (attempt int)")

        def step() -> str:
            attempts.append(len(attempts) + 1)
            conn.execute("INSERT INTO race_marks VALUES (%s)", (attempts[-1],))
            if len(attempts) < migrate.ROLE_RACE_ATTEMPTS:
                conn.execute(_LOST_ROLE_RACE)
            return "laid out"

        assert migrate._retrying_role_races(conn, step) == "laid out"
        # each lost attempt wrote nothing: only the last one's row is there
        assert conn.execute("SELECT attempt FROM race_marks").fetchall() == [(migrate.ROLE_RACE_ATTEMPTS,)]
    assert attempts == list(range(1, migrate.ROLE_RACE_ATTEMPTS + 1))


@pytest.mark.parametrize(
    ("statement", "calls"),
    [(_OTHER_INTERNAL_ERROR, 1), (_LOST_ROLE_RACE, migrate.ROLE_RACE_ATTEMPTS)],
    ids=["another-internal-error-is-not-retried", "a-race-lost-every-time-is-raised"],
)
def test_role_race_retries_are_bounded_to_that_race(
    db_url: str, monkeypatch: pytest.MonkeyPatch, statement: str, calls: int
) -> None:
    monkeypatch.setattr(migrate, "ROLE_RACE_PAUSE_S", 0.0)
    attempts: list[int] = []
    with psycopg.connect(db_url, autocommit=True) as conn:

        def step() -> None:
            attempts.append(1)
            conn.execute(statement)

        with pytest.raises(psycopg.errors.InternalError_):
            migrate._retrying_role_races(conn, step)
    assert len(attempts) == calls
