"""Isolation enforced by PostgreSQL (issue #15): queries without a ``user_id`` predicate, run in a
service scope, see only the scoped user's rows — of every table that holds user data."""

from __future__ import annotations

import psycopg
import pytest

from neuromem import Memory, Settings, StoreError
from neuromem.errors import DatabaseUnavailableError
from neuromem.store import scope
from neuromem.store.tenancy import scope_for
from tests.cluster import databases as cluster_databases

USER_TABLES_SQL = """
    SELECT c.relname, c.relrowsecurity, c.relkind
    FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'user_id' AND NOT a.attisdropped
    WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p', 'm') ORDER BY 1"""


def _seed(memory: Memory) -> None:
    for tenant, user in (("default", "alice"), ("default", "bob"), ("acme", "alice")):
        key = scope_for(tenant, user).user_key
        memory.add(f"{tenant} {user} likes green tea", user_id=key)
        memory.ingest(
            [{"role": "user", "content": f"I am {user} from {tenant} and I work at Initech"}],
            user_id=key,
            session_id="s1",
        )


def test_every_user_table_has_rls_and_a_policy(db_url: str) -> None:
    with psycopg.connect(db_url) as conn:
        tables = conn.execute(USER_TABLES_SQL).fetchall()
        policies = {
            r[0]
            for r in conn.execute(
                "SELECT tablename FROM pg_policies WHERE policyname = 'user_isolation'"
            ).fetchall()
        }
        role = conn.execute(
            "SELECT rolbypassrls, rolsuper FROM pg_roles WHERE rolname = %s", (scope.SERVICE_ROLE,)
        ).fetchone()
        owned = conn.execute(
            "SELECT count(*) FROM pg_class c JOIN pg_roles r ON r.oid = c.relowner WHERE r.rolname = %s",
            (scope.SERVICE_ROLE,),
        ).fetchone()
    assert role == (False, False)
    assert owned == (0,)
    tables_with_rls = [(name, rls) for name, rls, kind in tables if kind != "m"]
    assert len(tables_with_rls) >= 15
    assert all(rls for _, rls in tables_with_rls), [n for n, rls in tables_with_rls if not rls]
    assert {name for name, _ in tables_with_rls} <= policies
    # the one exception: a materialized view cannot carry row-level security (docs/operations.md); on a
    # Citus cluster it is a plain view that runs with the caller's rights, so the policies apply (issue 24)
    with psycopg.connect(db_url) as conn:
        kind, options = conn.execute(
            "SELECT relkind, reloptions FROM pg_class WHERE relname = 'mv_trait_decayed'"
        ).fetchone()  # type: ignore[misc]
    materialized = [name for name, _, kind in tables if kind == "m"]
    assert materialized == (["mv_trait_decayed"] if kind == "m" else [])
    assert kind == "m" or "security_invoker=true" in options


def test_unfiltered_queries_see_only_the_scoped_user(memory: Memory) -> None:
    _seed(memory)
    db = memory.runtime.db
    with db.connection() as conn:  # unscoped: the owner sees every user of every tenant
        everyone = {r["user_id"] for r in conn.execute("SELECT DISTINCT user_id FROM memories").fetchall()}
    assert everyone == {"alice", "bob", "t=acme/alice"}
    with psycopg.connect(db.server.url) as conn:
        tables = [r[0] for r in conn.execute(USER_TABLES_SQL).fetchall() if r[2] != "m"]
    for tenant, user in (("default", "alice"), ("acme", "alice")):
        key = scope_for(tenant, user).user_key
        with scope.bind(scope_for(tenant, user)), db.transaction() as conn:
            assert conn.execute("SELECT current_user AS u").fetchone()["u"] == scope.SERVICE_ROLE
            for table in tables:  # deliberately no WHERE user_id = …
                seen = {
                    r["user_id"] for r in conn.execute(f"SELECT DISTINCT user_id FROM {table}").fetchall()
                }
                assert seen <= {key}, (table, seen)
            assert conn.execute("SELECT count(*) AS n FROM memories").fetchone()["n"] >= 2
            # a partition queried directly is guarded by its own policy
            assert {r["user_id"] for r in conn.execute("SELECT user_id FROM memories_fact").fetchall()} == {
                key
            }


def test_writes_for_another_user_are_refused(memory: Memory) -> None:
    _seed(memory)
    db = memory.runtime.db
    with scope.bind(scope_for("acme", "alice")), db.transaction() as conn:
        assert conn.execute("UPDATE memories SET importance = 0.123").rowcount >= 1  # only acme's alice
        assert conn.execute("DELETE FROM pipeline_events WHERE user_id = 'bob'").rowcount == 0
    with db.connection() as conn:
        touched = conn.execute(
            "SELECT DISTINCT user_id FROM memories WHERE importance = 0.123::real"
        ).fetchall()
    assert [r["user_id"] for r in touched] == ["t=acme/alice"]
    with (
        pytest.raises(StoreError, match="42501"),
        scope.bind(scope_for("acme", "alice")),
        db.transaction() as conn,
    ):
        conn.execute("INSERT INTO raw_chunks (user_id, sha256, data, size_bytes) VALUES ('bob', 'x', 'y', 1)")
    with (
        pytest.raises(StoreError, match="42501"),
        scope.bind(scope_for("acme", "alice")),
        db.transaction() as conn,
    ):
        conn.execute("SELECT * FROM api_keys")


def test_scope_ends_with_the_transaction(memory: Memory) -> None:
    _seed(memory)
    db = memory.runtime.db
    with scope.bind(scope_for("default", "bob")):
        with db.transaction() as conn:
            assert conn.execute("SELECT current_setting('neuromem.user_id') AS u").fetchone()["u"] == "bob"
        results = memory.search("green tea", user_id="alice")  # the library's own call, in bob's scope
    assert len(results) == 0  # RLS hides alice from a request scoped to bob, even with her user_id
    with db.connection() as conn:  # the pooled connection is back to the owner with no user
        row = conn.execute(
            "SELECT current_user AS u, current_setting('neuromem.user_id', true) AS k"
        ).fetchone()
    assert row["u"] != scope.SERVICE_ROLE and not row["k"]
    assert len(memory.search("green tea", user_id="alice")) >= 1


def test_the_service_role_logs_in_and_cannot_leave_its_scope(memory: Memory) -> None:
    """Issue 23 item 6: scoped transactions log in as a role that is neither superuser nor BYPASSRLS, and
    neither ``RESET ROLE`` nor rewriting ``neuromem.user_id`` (or forging its proof) reaches another user."""
    _seed(memory)
    db = memory.runtime.db
    alice = scope_for("acme", "alice")
    with scope.bind(alice), db.transaction() as conn:
        who = conn.execute(
            "SELECT session_user AS s, r.rolsuper, r.rolbypassrls FROM pg_roles r "
            "WHERE r.rolname = session_user"
        ).fetchone()
        assert who == {"s": scope.SERVICE_ROLE, "rolsuper": False, "rolbypassrls": False}
        assert conn.execute("SELECT count(*) AS n FROM memories").fetchone()["n"] >= 2  # its own rows
        conn.execute("RESET ROLE")
        assert conn.execute("SELECT count(*) AS n FROM memories WHERE user_id = 'bob'").fetchone()["n"] == 0
        # unsigned: no one. On a Citus cluster set_config() changes the coordinator's copy only (Citus passes
        # SET LOCAL on to the workers, not a function call), so the workers, where the rows are, keep the
        # signed scope: the statement still sees alice's own rows there, and never another user's
        visible = {alice.user_key} if cluster_databases.cluster_url() else set()
        for local in (True, False):  # the transaction's setting, and the session's
            conn.execute(
                "SELECT set_config('neuromem.user_id', 'bob', %s), set_config('neuromem.tenant', 'default', %s)",
                (local, local),
            )
            for table in ("memories", "raw_chunks"):
                users = {
                    r["user_id"] for r in conn.execute(f"SELECT DISTINCT user_id FROM {table}").fetchall()
                }
                assert users <= visible, table
        forged = scope.proof(b"\0" * 32, scope_for("default", "bob"), conn.info.backend_pid)
        scope.set_signed(conn, "default", "bob", forged)
        assert conn.execute("SELECT count(*) AS n FROM memories WHERE user_id = 'bob'").fetchone()["n"] == 0
        # alice's genuine proof names alice: it cannot be bent to bob
        scope.set_signed(conn, "default", "bob", scope.proof(db.scope_key(), alice, conn.info.backend_pid))
        assert conn.execute("SELECT count(*) AS n FROM memories").fetchone()["n"] == 0
    with db.service_pool().connection() as conn:  # a service login that signed nothing: no one, on every node
        assert conn.execute("SELECT count(*) AS n FROM memories").fetchone()["n"] == 0
        assert conn.execute("SELECT count(*) AS n FROM raw_chunks").fetchone()["n"] == 0
    for escape in (
        "SELECT key FROM neuromem_scope_key",
        "SET ROLE postgres",
        "SELECT * FROM api_keys",
        "SET SESSION AUTHORIZATION postgres",
        "ALTER TABLE memories DISABLE ROW LEVEL SECURITY",
        "CREATE FUNCTION public.planted() RETURNS int LANGUAGE sql AS 'SELECT 1'",
    ):
        with (
            pytest.raises(StoreError, match=r"42501|permission denied"),
            scope.bind(alice),
            db.transaction() as conn,
        ):
            conn.execute(escape)
    with db.connection() as conn:  # the owner's pool is untouched: everyone's rows, for the SDK and jobs
        assert conn.execute("SELECT count(DISTINCT user_id) AS n FROM memories").fetchone()["n"] == 3


def test_a_service_login_that_fails_names_the_setting(settings: Settings) -> None:
    broken = settings.with_updates(
        store={
            "service_database_url": "postgresql://neuromem_service@/none?host=/nonexistent",
            "connect_timeout_s": 1,
        }
    )
    with Memory(broken) as m:
        m.add("the owner's pool still works", user_id="alice")
        with (
            pytest.raises(DatabaseUnavailableError, match="NEUROMEM_STORE__SERVICE_DATABASE_URL"),
            scope.bind(scope_for("default", "alice")),
            m.runtime.db.transaction(),
        ):
            pass
