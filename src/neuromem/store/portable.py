"""SQL of export and import: every row of one user, every column, as JSON and back.

The tables are read from the catalog (every ordinary or partitioned table of the schema
with a ``user_id`` column), so a table or column added by a later migration is exported
without touching this module. Rows travel as ``to_jsonb(row)``: each value keeps
PostgreSQL's own text form (timestamps with microseconds, ``halfvec`` literals, ``bytea``
hex), and ``jsonb_populate_record`` turns it back into the same value on import —
nothing is rounded on the way. Generated columns (the ``fts`` tsvectors) are left out and
recomputed by the database.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from psycopg import sql
from psycopg.types.json import Jsonb

from .db import Conn

# Written first on import so references resolve in order (sessions before their messages,
# nodes before edges, memories before evidence and sources); any other table follows by name.
LEADING_TABLES = (
    "conversation_sessions",
    "conversation_messages",
    "raw_chunks",
    "document_files",
    "memories",
    "graph_nodes",
    "graph_edges",
    "trait_evidence",
    "memory_sources",
    "memory_history",
)
NOT_EXPORTED = frozenset(
    {"neuromem_meta", "neuromem_migrations", "memory_events"}
)  # derived: the triggers of 0020 write it again from the history


@dataclass(frozen=True, slots=True)
class TableShape:
    """A user table as the catalog describes it: its writable columns and its vector columns."""

    name: str
    columns: tuple[str, ...]
    vector_columns: tuple[str, ...]


USER_TABLE_COLUMNS = """
        SELECT c.relname AS table_name, a.attname AS column_name, t.typname AS type_name
        FROM pg_class c
        JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = current_schema()
        JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
        JOIN pg_type t ON t.oid = a.atttypid
        WHERE c.relkind IN ('r', 'p') AND NOT c.relispartition AND a.attgenerated = ''
          AND EXISTS (SELECT 1 FROM pg_attribute u
                      WHERE u.attrelid = c.oid AND u.attname = 'user_id' AND NOT u.attisdropped)
        ORDER BY c.relname, a.attnum
        """


def user_tables(conn: Conn) -> list[TableShape]:
    """Every table holding per-user rows, in import order."""
    rows = conn.execute(USER_TABLE_COLUMNS).fetchall()
    columns: dict[str, list[str]] = {}
    vectors: dict[str, list[str]] = {}
    for row in rows:
        if row["table_name"] in NOT_EXPORTED:
            continue
        columns.setdefault(row["table_name"], []).append(row["column_name"])
        if row["type_name"] in ("halfvec", "vector"):
            vectors.setdefault(row["table_name"], []).append(row["column_name"])
    order = {name: i for i, name in enumerate(LEADING_TABLES)}
    names = sorted(columns, key=lambda name: (order.get(name, len(order)), name))
    return [TableShape(n, tuple(columns[n]), tuple(vectors.get(n, ()))) for n in names]


READ_ONLY_SNAPSHOT = "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY"


SCHEMA_VERSION = "SELECT neuromem_schema_version() AS version"  # migration 0025: the service role may call it


def schema_version(conn: Conn) -> int:
    """The schema version, readable by the owner and by a service request alike."""
    row = conn.execute(SCHEMA_VERSION).fetchone()
    return int(row["version"]) if row else 0


def snapshot(conn: Conn) -> None:
    """Make the caller's transaction one consistent read-only snapshot (call first)."""
    conn.execute(READ_ONLY_SNAPSHOT)


def dump_rows(conn: Conn, table: TableShape, user_id: str, *, batch: int = 500) -> Iterator[dict[str, Any]]:
    """Every row of ``user_id`` in ``table``, each column in its JSON form, in a stable order."""
    order = ("id",) if "id" in table.columns else table.columns[:3]
    query = sql.SQL("SELECT to_jsonb(t) AS row FROM {} t WHERE t.user_id = %s ORDER BY {}").format(
        sql.Identifier(table.name), sql.SQL(", ").join(sql.Identifier(c) for c in order)
    )
    with conn.cursor(name=f"export_{table.name}") as cur:
        cur.itersize = batch
        cur.execute(query, (user_id,))
        for record in cur:
            row = dict(record["row"])
            for generated in set(row) - set(table.columns):
                del row[generated]
            yield row


def insert_rows(conn: Conn, table: TableShape, rows: Sequence[Mapping[str, Any]]) -> int:
    """Insert rows given in their JSON form; rows already present (any unique key) are skipped.

    Returns how many were inserted, counted from ``RETURNING``: on a Citus cluster this
    INSERT … SELECT runs through the coordinator, whose row count is the rows selected, not
    the rows the workers inserted. Columns missing from a row take their default.
    """
    groups: dict[tuple[str, ...], list[Jsonb]] = {}
    for row in rows:
        groups.setdefault(tuple(c for c in table.columns if c in row), []).append(Jsonb(dict(row)))
    inserted = 0
    for present, params in groups.items():
        statement = sql.SQL(
            "INSERT INTO {table} ({cols}) SELECT {cols} FROM jsonb_populate_record(NULL::{table}, %s) "
            "ON CONFLICT DO NOTHING RETURNING 1"
        ).format(
            table=sql.Identifier(table.name), cols=sql.SQL(", ").join(sql.Identifier(c) for c in present)
        )
        with conn.cursor() as cur:
            cur.executemany(statement, [(p,) for p in params], returning=True)
            inserted += len(cur.fetchall())
            while cur.nextset():
                inserted += len(cur.fetchall())
    return inserted


def count_rows(conn: Conn, table: str, user_id: str) -> int:
    query = sql.SQL("SELECT count(*) AS n FROM {} WHERE user_id = %s").format(sql.Identifier(table))
    return int(conn.execute(query, (user_id,)).fetchone()["n"])  # type: ignore[index]


MEMORIES_WITHOUT_VECTORS = "SELECT id, memory_type, content FROM memories WHERE user_id = %s AND embedding IS NULL ORDER BY created_at"


def memories_without_vectors(conn: Conn, user_id: str) -> list[dict[str, Any]]:
    """Every version of the user's memories with no embedding (expired ones too: time travel needs them)."""
    return conn.execute(MEMORIES_WITHOUT_VECTORS, (user_id,)).fetchall()


FORGET_TOMBSTONES = "SELECT id_sha256, content_sha256, created_at FROM forget_receipts WHERE user_id = %s"


def forget_tombstones(conn: Conn, user_id: str) -> list[dict[str, Any]]:
    """The hashes every forget receipt of ``user_id`` holds, with the receipt's time."""
    return [dict(r) for r in conn.execute(FORGET_TOMBSTONES, (user_id,)).fetchall()]
