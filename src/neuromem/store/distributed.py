"""The distributed layout of the schema on a Citus cluster (issue 24, MISSION decision 2).

When the database has the ``citus`` extension, ``migrate`` runs ``lay_out`` after the migrations.
Everything is derived from the catalog, so tables added by later migrations are covered without
edits:

- **user tables** — every table of ``public`` with a ``user_id`` column — are distributed by
  ``user_id`` and co-located, so one user's rows of every table live on one node and every
  statement that names its user runs there as a single task. Citus requires the distribution
  column in every primary key, unique constraint, unique index and foreign key of a distributed
  table, so keys that lack it get ``user_id`` appended first (ids are UUIDv7, globally unique:
  the wider keys accept exactly the same rows);
- **shared tables** (no ``user_id``: API keys, webhooks) become reference tables, a copy on every
  node, so joins with them stay on the user's node; so does ``team_members`` (``REFERENCE_USER_TABLES``),
  which the ``shared_visibility`` policy of migration 0022 reads for the viewer on the owner's shard;
- a **statement-level trigger with transition tables** (0020's change feed) becomes a row-level
  trigger of the same name calling its function's ``_per_row`` twin (migration 0024): Citus fires a
  distributed table's triggers on the shards, where its planner cannot read a transition table;
- the **job queues** (procrastinate's tables, and ``ingest_jobs``, whose runner claims any user's
  oldest job with ``FOR UPDATE SKIP LOCKED``) and the migrations' bookkeeping stay on the coordinator;
- a **materialized view** cannot be refreshed over shards, so each becomes a plain view with the
  same definition (``security_invoker``: the service role's row-level security applies); a
  query on it with ``user_id = …`` is routed like one on its tables (docs/architecture.md,
  "Scale-out");
- neuromem's SQL functions (``neuromem_*``) are created on every node, since routed queries call
  them on the workers;
- a function that binds a scope's proof to the session (``neuromem_scoped_user()``, migration 0017,
  reads ``pg_backend_pid()``) reads ``citus_backend_gpid()`` instead: the coordinator session's global
  pid, which the workers' backends serving that session report too, so the proof the service signed
  (``store.scope.session_id``) holds where the policies run;
- the service role (``store.scope``) may log in: Citus runs a routed statement on the worker as the
  coordinator session's current role, and the service's transactions ``SET LOCAL ROLE`` to it
  (docs/operations.md says how workers authenticate it).

Row-level security policies, triggers and indexes of a distributed table are carried to its
shards by Citus itself (triggers only with ``citus.enable_unsafe_triggers``, set for this step: the
per-row triggers touch their own user's rows, on co-located shards of the same node). The step is idempotent: a second run finds nothing to do.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import psycopg
from psycopg import sql
from psycopg.rows import tuple_row

from .scope import SERVICE_ROLE

DISTRIBUTION_COLUMN = "user_id"
QUEUE_TABLE_PREFIX = "procrastinate_"  # the job queue (lifecycle.worker): stays on the coordinator
# the migrations' bookkeeping, and the queue of ingest(wait=False) batches (0021): its runner claims the
# oldest job of any user with FOR UPDATE SKIP LOCKED, which Citus cannot run over shards; a queue, like
# procrastinate's, whose statements touch no other table
COORDINATOR_TABLES = ("neuromem_migrations", "neuromem_meta", "ingest_jobs")
# tables with a user_id that are read across users: who belongs to which team (0022) is read by the
# policy shared_visibility of every memory shard, for the viewer, not the owner, of the rows; a copy
# on every node lets each shard check membership locally (a small table, written rarely)
REFERENCE_USER_TABLES = ("team_members",)
FUNCTION_PREFIX = "neuromem_"

HAS_CITUS = "SELECT 1 FROM pg_extension WHERE extname = 'citus'"
# tables of public that are not partitions, with or without the distribution column
_TABLES = """
    SELECT c.relname,
           EXISTS (SELECT 1 FROM pg_attribute a
                   WHERE a.attrelid = c.oid AND a.attname = %(col)s AND NOT a.attisdropped) AS per_user
    FROM pg_class c
    WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p') AND NOT c.relispartition
      AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = c.oid AND d.deptype = 'e')
    ORDER BY c.relname"""
_LAID_OUT = "SELECT logicalrelid::regclass::text, partmethod FROM pg_dist_partition"
# primary keys and unique constraints with their columns, in key order
_KEYS = """
    SELECT con.conname, con.contype, array_agg(a.attname ORDER BY k.ord)
    FROM pg_constraint con
    CROSS JOIN unnest(con.conkey) WITH ORDINALITY AS k(attnum, ord)
    JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.attnum
    WHERE con.conrelid = %s::regclass AND con.contype IN ('p', 'u')
    GROUP BY con.conname, con.contype"""
_UNIQUE_INDEXES = """
    SELECT c.relname, pg_get_indexdef(i.indexrelid),
           EXISTS (SELECT 1 FROM unnest(i.indkey) k
                   JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k
                   WHERE a.attname = %s)
    FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
    WHERE i.indrelid = %s::regclass AND i.indisunique
      AND NOT EXISTS (SELECT 1 FROM pg_constraint con WHERE con.conindid = i.indexrelid)"""
_FOREIGN_KEYS = """
    SELECT con.conname, con.conrelid::regclass::text, con.confrelid::regclass::text,
           pg_get_constraintdef(con.oid)
    FROM pg_constraint con
    WHERE con.contype = 'f' AND con.connamespace = 'public'::regnamespace
      AND con.conrelid::regclass::text = ANY(%s) AND con.conparentid = 0"""
_MATERIALIZED_VIEWS = """
    SELECT c.relname, pg_get_viewdef(c.oid)
    FROM pg_class c WHERE c.relnamespace = 'public'::regnamespace AND c.relkind = 'm' ORDER BY c.relname"""
_DISTRIBUTABLE_FUNCTIONS = """
    SELECT p.oid::regprocedure::text
    FROM pg_proc p
    WHERE p.pronamespace = 'public'::regnamespace AND p.proname LIKE %s
      AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = p.oid AND d.deptype = 'e')
      AND NOT EXISTS (SELECT 1 FROM pg_dist_object o
                      WHERE o.classid = 'pg_proc'::regclass AND o.objid = p.oid)"""
# neuromem's functions that read the session's backend pid (the scope proof of migration 0017)
_SESSION_BOUND_FUNCTIONS = """
    SELECT p.oid::regprocedure::text, pg_get_functiondef(p.oid) FROM pg_proc p
    WHERE p.pronamespace = 'public'::regnamespace AND p.proname LIKE %s AND p.prosrc LIKE '%%pg_backend_pid()%%'"""
# row-level security policies of the user tables: Citus refuses a subquery in a distributed table's
# policy, and 0017's read the scoped user once per statement as ``(SELECT neuromem_scoped_user())``
_POLICIES = """SELECT tablename, policyname, qual, with_check, cmd FROM pg_policies
    WHERE schemaname = 'public' AND (qual LIKE '%%SELECT%%' OR with_check LIKE '%%SELECT%%')"""  # partitions too
_SCALAR_SUBQUERY = re.compile(r"\( SELECT (\w+\([^()]*\)) AS \w+\)")
# 0017's policy, ``user_id = (SELECT neuromem_scoped_user())``, as the catalog prints it
_SCOPED_USER_POLICY = re.compile(r"\(\(user_id\)::text = \( SELECT neuromem_scoped_user\(\) AS \w+\)\)")
# the same rows, in a form that does not split the planner's equivalence classes: an equality of user_id
# with an expression makes PostgreSQL put each table's user_id in its own class with that expression, and
# Citus then no longer sees the tables of a semi-join, an outer join or a join with a temporary table as
# joined on user_id ("complex joins are only supported …", citusdata/citus#7969). ``IS TRUE`` keeps the
# comparison out of any class; the proof, a qual without columns, is checked once per scan on each node
CLUSTER_SCOPED_USER_POLICY = (
    "(((user_id)::text = current_setting('neuromem.user_id', true)) IS TRUE"
    " AND neuromem_scoped_user() IS NOT NULL)"
)
ALLOW_NESTED = sql.SQL("ALTER FUNCTION {} SET citus.allow_nested_distributed_execution = on")
ALTER_POLICY = sql.SQL("ALTER POLICY {} ON {} USING ({}) WITH CHECK ({})")
ALTER_POLICY_USING = sql.SQL("ALTER POLICY {} ON {} USING ({})")  # a SELECT or DELETE policy: no WITH CHECK
_READING_FUNCTIONS = """
    SELECT p.oid::regprocedure::text FROM pg_proc p
    WHERE p.pronamespace = 'public'::regnamespace AND p.proname LIKE %s AND p.provolatile <> 'i'
      AND NOT coalesce(p.proconfig, '{}') @> ARRAY['citus.allow_nested_distributed_execution=on']"""
_COLUMN_TYPE = """
    SELECT format_type(a.atttypid, a.atttypmod) FROM pg_attribute a
    WHERE a.attrelid = %s::regclass AND a.attname = %s"""
# statement-level triggers with transition tables on user tables (0020's change feed): Citus fires a
# distributed table's triggers on its shards, where its planner cannot read a transition table
_TRANSITION_TRIGGERS = """
    SELECT t.tgname, c.relname, p.proname, t.tgtype
    FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_proc p ON p.oid = t.tgfoid
    WHERE c.relnamespace = 'public'::regnamespace AND c.relname = ANY(%s) AND NOT t.tgisinternal
      AND (t.tgoldtable IS NOT NULL OR t.tgnewtable IS NOT NULL)
    ORDER BY c.relname, t.tgname"""
PER_ROW_SUFFIX = "_per_row"  # the per-row twin of a statement-level trigger function (migration 0024)
FUNCTION_EXISTS = "SELECT to_regprocedure(%s) IS NOT NULL"
DROP_TRIGGER = sql.SQL("DROP TRIGGER {} ON {}")
CREATE_ROW_TRIGGER = sql.SQL(
    "CREATE TRIGGER {name} AFTER {events} ON {table} FOR EACH ROW EXECUTE FUNCTION {fn}({arg})"
)
# pg_trigger.tgtype bits (PostgreSQL's trigger.h)
_TRIGGER_EVENTS = {4: "INSERT", 8: "DELETE", 16: "UPDATE"}
# Citus refuses to distribute a table with triggers unless told (its triggers run on the shards): the
# per-row triggers above only touch rows of their own user, on co-located shards of the same node
ALLOW_TRIGGERS = "SET LOCAL citus.enable_unsafe_triggers = on"
DISTRIBUTE = "SELECT create_distributed_table(%s, %s, colocate_with => %s)"
MAKE_REFERENCE = "SELECT create_reference_table(%s)"
DISTRIBUTE_FUNCTION = "SELECT create_distributed_function(%s)"
ROLE_CANNOT_LOG_IN = "SELECT 1 FROM pg_roles WHERE rolname = %s AND NOT rolcanlogin"
LET_ROLE_LOG_IN = sql.SQL("ALTER ROLE {} LOGIN")
ADD_CONSTRAINT = sql.SQL("ALTER TABLE {} ADD {}")
DROP_CONSTRAINT = sql.SQL("ALTER TABLE {} DROP CONSTRAINT {}")
REPLACE_KEY = sql.SQL("ALTER TABLE {t} DROP CONSTRAINT {n}, ADD CONSTRAINT {n} {k} ({cols})")
PRIMARY_KEY = sql.SQL("PRIMARY KEY")
UNIQUE = sql.SQL("UNIQUE")
DROP_INDEX = sql.SQL("DROP INDEX {}")
DROP_MATERIALIZED_VIEW = sql.SQL("DROP MATERIALIZED VIEW {}")
CREATE_PLAIN_VIEW = sql.SQL("CREATE VIEW {} WITH (security_invoker = true) AS {}")


@dataclass
class Layout:
    """What one ``lay_out`` run changed (empty when the schema was already laid out)."""

    distributed: list[str] = field(default_factory=list)
    reference: list[str] = field(default_factory=list)
    rekeyed: list[str] = field(default_factory=list)
    views: list[str] = field(default_factory=list)
    triggers: list[str] = field(default_factory=list)
    functions: list[str] = field(default_factory=list)


def has_citus(conn: psycopg.Connection[Any]) -> bool:
    return _rows(conn, HAS_CITUS) != []


def lay_out(conn: psycopg.Connection[Any]) -> Layout:
    """Distribute the user tables, replicate the shared ones, and adapt what cannot be distributed.

    Runs inside the caller's transaction (which holds the migrations' advisory lock).
    """
    layout = Layout()
    # before any distributed operation: Citus runs function commands over one connection per node
    for _signature, definition in _rows(conn, _SESSION_BOUND_FUNCTIONS, (FUNCTION_PREFIX + "%",)):
        cluster_wide = sql.SQL(definition.replace("pg_backend_pid()", "citus_backend_gpid()"))  # type: ignore[arg-type]
        conn.execute(cluster_wide)
    # functions that read tables (the scope key, the history clock of 0016) run inside a routed statement
    # on the worker: their reads name one user, whose shards are co-located there
    for (signature,) in _rows(conn, _READING_FUNCTIONS, (FUNCTION_PREFIX + "%",)):
        conn.execute(ALLOW_NESTED.format(sql.SQL(signature)))  # type: ignore[arg-type]
    done = {name: method for name, method in _rows(conn, _LAID_OUT)}
    tables = [(name, bool(per_user)) for name, per_user in _rows(conn, _TABLES, {"col": DISTRIBUTION_COLUMN})]
    user_tables = [
        name
        for name, per_user in tables
        if per_user and name not in done and name not in REFERENCE_USER_TABLES and _is_shared(name)
    ]
    shared = [
        name
        for name, per_user in tables
        if (not per_user or name in REFERENCE_USER_TABLES) and name not in done and _is_shared(name)
    ]
    if user_tables:
        _require_one_column_type(conn, user_tables + [n for n, m in done.items() if m == "h"])
        foreign_keys = _drop_foreign_keys(conn, user_tables)
        _policies_without_subqueries(conn)
        layout.triggers = _triggers_per_row(conn, user_tables)
        conn.execute(ALLOW_TRIGGERS)
        for table in user_tables:
            if _widen_keys(conn, table):
                layout.rekeyed.append(table)
        anchor = next((n for n, m in sorted(done.items()) if m == "h"), None)
        for table in user_tables:
            conn.execute(DISTRIBUTE, (table, DISTRIBUTION_COLUMN, anchor or "default"))
            anchor = anchor or table
            layout.distributed.append(table)
        for table, definition in foreign_keys:
            conn.execute(ADD_CONSTRAINT.format(sql.Identifier(table), sql.SQL(definition)))
    for table in shared:
        conn.execute(MAKE_REFERENCE, (table,))
        layout.reference.append(table)
    layout.views = _materialized_to_plain_views(conn)
    if _rows(conn, ROLE_CANNOT_LOG_IN, (SERVICE_ROLE,)):
        conn.execute(LET_ROLE_LOG_IN.format(sql.Identifier(SERVICE_ROLE)))
    for signature in [row[0] for row in _rows(conn, _DISTRIBUTABLE_FUNCTIONS, (FUNCTION_PREFIX + "%",))]:
        conn.execute(DISTRIBUTE_FUNCTION, (signature,))
        layout.functions.append(signature)
    return layout


def _policies_without_subqueries(conn: psycopg.Connection[Any]) -> None:
    """0017's policy → ``CLUSTER_SCOPED_USER_POLICY``; any other ``(SELECT f())`` → ``f()`` (a stable
    function: the same value, evaluated per row instead of once per statement)."""
    for table, name, qual, check, command in _rows(conn, _POLICIES):
        using = _cluster_policy(qual or "true")
        if command in ("SELECT", "DELETE"):
            conn.execute(
                ALTER_POLICY_USING.format(sql.Identifier(name), sql.Identifier(table), sql.SQL(using))
            )  # type: ignore[arg-type]
            continue
        with_check = _cluster_policy(check) if check else using
        conn.execute(
            ALTER_POLICY.format(
                sql.Identifier(name),
                sql.Identifier(table),
                sql.SQL(using),  # type: ignore[arg-type]
                sql.SQL(with_check),
            )
        )  # type: ignore[arg-type]


def _triggers_per_row(conn: psycopg.Connection[Any], tables: list[str]) -> list[str]:
    """Replace each statement-level trigger with transition tables by a row-level trigger of the same
    name and events calling ``<function>_per_row(<table>)`` (migration 0024); a trigger without such a
    twin cannot run on a cluster, and the layout says which."""
    replaced = []
    for name, table, function, tgtype in _rows(conn, _TRANSITION_TRIGGERS, (tables,)):
        twin = function + PER_ROW_SUFFIX
        if not _rows(conn, FUNCTION_EXISTS, (f"{twin}()",))[0][0]:
            from ..errors import StoreError

            raise StoreError(
                f"trigger {name} on {table} reads a transition table, which Citus cannot plan on a "
                f"shard, and {twin}() (its per-row form) does not exist"
            )
        events = sql.SQL(" OR ").join(sql.SQL(e) for bit, e in _TRIGGER_EVENTS.items() if tgtype & bit)  # type: ignore[arg-type]
        conn.execute(DROP_TRIGGER.format(sql.Identifier(name), sql.Identifier(table)))
        conn.execute(
            CREATE_ROW_TRIGGER.format(
                name=sql.Identifier(name),
                events=events,
                table=sql.Identifier(table),
                fn=sql.Identifier(twin),
                arg=sql.Literal(table),
            )
        )
        replaced.append(f"{table}.{name}")
    return replaced


def _cluster_policy(expression: str) -> str:
    return _SCALAR_SUBQUERY.sub(r"\1", _SCOPED_USER_POLICY.sub(CLUSTER_SCOPED_USER_POLICY, expression))


def _is_shared(table: str) -> bool:
    """Whether the table goes to the workers (distributed or replicated), not stays on the coordinator."""
    return not table.startswith(QUEUE_TABLE_PREFIX) and table not in COORDINATOR_TABLES


def _require_one_column_type(conn: psycopg.Connection[Any], tables: list[str]) -> None:
    """Co-location needs one type for every table's ``user_id``; say which table differs."""
    types = {t: _rows(conn, _COLUMN_TYPE, (t, DISTRIBUTION_COLUMN))[0][0] for t in tables}
    if len(set(types.values())) > 1:
        from ..errors import StoreError

        raise StoreError(
            f"user_id must have one type in every table to co-locate them on Citus, found {types}"
        )


def _drop_foreign_keys(conn: psycopg.Connection[Any], tables: list[str]) -> list[tuple[str, str]]:
    """Drop the foreign keys between user tables; return them rewritten to include ``user_id`` on both
    sides (Citus accepts a foreign key between co-located tables only on the distribution column)."""
    rewritten = []
    for name, table, referenced, definition in _rows(conn, _FOREIGN_KEYS, (tables,)):
        if referenced not in tables:
            continue  # to a shared table: allowed as it is once that table is a reference table
        conn.execute(DROP_CONSTRAINT.format(sql.Identifier(table), sql.Identifier(name)))
        rewritten.append((table, f"CONSTRAINT {_quote(name)} {_with_user_id_fk(definition)}"))
    return rewritten


_FK = re.compile(
    r"^FOREIGN KEY \((?P<cols>[^)]*)\) REFERENCES (?P<ref>[^(]+)\((?P<refcols>[^)]*)\)(?P<rest>.*)$"
)


def _with_user_id_fk(definition: str) -> str:
    match = _FK.match(definition)
    if match is None:
        raise ValueError(f"unexpected foreign key definition: {definition}")
    cols, refcols = match["cols"], match["refcols"]
    if DISTRIBUTION_COLUMN in [c.strip() for c in cols.split(",")]:
        return definition
    return (
        f"FOREIGN KEY ({cols}, {DISTRIBUTION_COLUMN}) REFERENCES {match['ref']}"
        f"({refcols}, {DISTRIBUTION_COLUMN}){match['rest']}"
    )


def _widen_keys(conn: psycopg.Connection[Any], table: str) -> bool:
    """Append ``user_id`` to every primary key, unique constraint and unique index that lacks it,
    keeping names (``ON CONFLICT ON CONSTRAINT`` and the catalog stay the same on both layouts)."""
    changed = False
    for name, kind, columns in _rows(conn, _KEYS, (table,)):
        if DISTRIBUTION_COLUMN in columns:
            continue
        conn.execute(
            REPLACE_KEY.format(
                t=sql.Identifier(table),
                n=sql.Identifier(name),
                k=PRIMARY_KEY if kind == "p" else UNIQUE,
                cols=sql.SQL(", ").join(sql.Identifier(c) for c in [*columns, DISTRIBUTION_COLUMN]),
            )
        )
        changed = True
    for name, definition, has_column in _rows(conn, _UNIQUE_INDEXES, (DISTRIBUTION_COLUMN, table)):
        if has_column:
            continue
        conn.execute(DROP_INDEX.format(sql.Identifier(name)))
        recreated = sql.SQL(_with_user_id_index(definition))  # type: ignore[arg-type]  # the catalog's own text
        conn.execute(recreated)
        changed = True
    return changed


def _with_user_id_index(definition: str) -> str:
    """``CREATE UNIQUE INDEX … USING btree (a, b) WHERE …`` → ``… (a, b, user_id) WHERE …``."""
    start = definition.index(" (", definition.index(" USING ")) + 2
    depth, end = 1, start
    while depth:
        depth += {"(": 1, ")": -1}.get(definition[end], 0)
        end += 1
    return f"{definition[: end - 1]}, {DISTRIBUTION_COLUMN}{definition[end - 1 :]}"


def _materialized_to_plain_views(conn: psycopg.Connection[Any]) -> list[str]:
    replaced = []
    for name, definition in _rows(conn, _MATERIALIZED_VIEWS):
        conn.execute(DROP_MATERIALIZED_VIEW.format(sql.Identifier(name)))
        conn.execute(CREATE_PLAIN_VIEW.format(sql.Identifier(name), sql.SQL(definition.rstrip().rstrip(";"))))  # type: ignore[arg-type]
        replaced.append(name)
    return replaced


def _quote(identifier: str) -> str:
    return '"' + identifier.replace('"', '""') + '"'


def _rows(conn: psycopg.Connection[Any], query: str, params: Any = None) -> list[tuple[Any, ...]]:
    with conn.cursor(row_factory=tuple_row) as cur:
        return cur.execute(query, params).fetchall()  # type: ignore[arg-type]
