"""The work sets of one forget: temporary tables, dropped at commit, that name what goes."""

from __future__ import annotations

from psycopg import sql

from ..db import Conn

WORK_SETS = {
    "_forget_mem": "id uuid NOT NULL, memory_type varchar(50) NOT NULL, PRIMARY KEY (id, memory_type)",
    "_forget_msg": "id uuid PRIMARY KEY",
    "_forget_session": "id uuid PRIMARY KEY",
    "_forget_chunk": "sha256 char(64) PRIMARY KEY",
    "_forget_doc": "id uuid PRIMARY KEY",
    "_forget_node": "id uuid PRIMARY KEY",
}


def text_to_hash(expr: str) -> sql.Composed:
    """The text a statement returns for hashing: ``sha256_text`` runs in Python, since on a Citus cluster
    a RETURNING clause may call only immutable functions (``convert_to`` is stable)."""
    return sql.Composed([sql.SQL(expr)])


CREATE_SET = sql.SQL("CREATE TEMP TABLE IF NOT EXISTS {name} ({columns}) ON COMMIT DROP")
TRUNCATE_SET = sql.SQL("TRUNCATE {name}")
COUNT_SET = sql.SQL("SELECT count(*) AS n FROM {name}")


def open_sets(conn: Conn) -> None:
    """Create the empty work sets for this transaction."""
    for name, columns in WORK_SETS.items():
        conn.execute(CREATE_SET.format(name=sql.Identifier(name), columns=sql.SQL(columns)))
        conn.execute(TRUNCATE_SET.format(name=sql.Identifier(name)))


def grow(conn: Conn, statement: str, user_id: str) -> int:
    """Run one ``INSERT INTO _forget_*`` statement for ``user_id`` (``%(u)s``); the rows it added."""
    return conn.execute(statement, {"u": user_id}).rowcount
