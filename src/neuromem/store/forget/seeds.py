"""Seeds: the rows a forget target names first (a memory, a session, a document, a window,
a scope, a text, graph nodes, soft-deleted or expired rows), put into the work sets; and the
lock that serialises a user's forgets with reflection.
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Sequence

from psycopg import sql

from ..db import Conn
from ..traits import ADVISORY_NAMESPACE as REFLECTION_LOCK_NAMESPACE
from .work_sets import grow

LOCK_USER = "SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))"


def lock_user(conn: Conn, user_id: str) -> None:
    """One forget of a user at a time, until the transaction ends; and no reflection cycle of the
    user meanwhile: a running cycle commits first (its log then names the rows, and ``erase`` scrubs
    it), a later one waits and never sees the forgotten rows."""
    conn.execute(LOCK_USER, (f"forget:{user_id}",))
    conn.execute(LOCK_USER, (REFLECTION_LOCK_NAMESPACE + user_id,))


def seed_user(conn: Conn, user_id: str) -> int:
    return grow(
        conn, "INSERT INTO _forget_mem SELECT id, memory_type FROM memories WHERE user_id = %(u)s", user_id
    )


SEED_TRAITS = "INSERT INTO _forget_mem SELECT unnest(%s::uuid[]), 'trait'"


def seed_traits(conn: Conn, ids: Sequence[uuid.UUID]) -> int:
    return conn.execute(SEED_TRAITS, (list(ids),)).rowcount


SEED_MEMORY = """INSERT INTO _forget_mem SELECT id, memory_type FROM memories
           WHERE user_id = %s AND id = %s ON CONFLICT DO NOTHING"""


def seed_memory(conn: Conn, user_id: str, memory_id: uuid.UUID) -> int:
    """One memory of any type (a trait named on purpose goes with its evidence links)."""
    cur = conn.execute(SEED_MEMORY, (user_id, memory_id))
    return cur.rowcount


SEED_SESSION_ROW = (
    "INSERT INTO _forget_session SELECT id FROM conversation_sessions WHERE user_id = %s AND external_id = %s"
)
SEED_SESSION_MESSAGES = """INSERT INTO _forget_msg SELECT m.id FROM conversation_messages m JOIN _forget_session s
           ON s.id = m.session_id WHERE m.user_id = %s ON CONFLICT DO NOTHING"""
SEED_SESSION_MEMORIES = """INSERT INTO _forget_mem SELECT DISTINCT m.id, m.memory_type FROM memory_sources ms
           JOIN _forget_session s ON s.id = ms.session_id
           JOIN memories m ON m.id = ms.memory_id AND m.user_id = ms.user_id
           WHERE ms.user_id = %s AND m.memory_type <> 'trait' ON CONFLICT DO NOTHING"""


def seed_session(conn: Conn, user_id: str, external_id: str) -> int:
    cur = conn.execute(SEED_SESSION_ROW, (user_id, external_id))
    conn.execute(SEED_SESSION_MESSAGES, (user_id,))
    conn.execute(SEED_SESSION_MEMORIES, (user_id,))
    return cur.rowcount


SEED_DOCUMENT_FILE = "INSERT INTO _forget_doc SELECT id FROM document_files WHERE user_id = %s AND id = %s"
SEED_DOCUMENT_CHUNKS = """INSERT INTO _forget_mem SELECT id, memory_type FROM memories
           WHERE user_id = %s AND memory_type = 'document' AND file_id = %s ON CONFLICT DO NOTHING"""


def seed_document(conn: Conn, user_id: str, file_id: uuid.UUID) -> int:
    cur = conn.execute(SEED_DOCUMENT_FILE, (user_id, file_id))
    conn.execute(SEED_DOCUMENT_CHUNKS, (user_id, file_id))
    return cur.rowcount


SEED_WINDOW_MESSAGES = """INSERT INTO _forget_msg SELECT id FROM conversation_messages
           WHERE user_id = %s AND sent_at >= %s AND sent_at < %s ON CONFLICT DO NOTHING"""
SEED_WINDOW_MEMORIES = """INSERT INTO _forget_mem SELECT id, memory_type FROM memories
           WHERE user_id = %s AND memory_type <> 'trait' AND created_at >= %s AND created_at < %s
           ON CONFLICT DO NOTHING"""
SEED_WINDOW_DOCUMENTS = """INSERT INTO _forget_doc SELECT id FROM document_files
           WHERE user_id = %s AND created_at >= %s AND created_at < %s ON CONFLICT DO NOTHING"""
SEED_WINDOW_DOCUMENT_CHUNKS = """INSERT INTO _forget_mem SELECT m.id, m.memory_type FROM memories m JOIN _forget_doc d ON d.id = m.file_id
           WHERE m.user_id = %s AND m.memory_type = 'document' ON CONFLICT DO NOTHING"""


def seed_window(conn: Conn, user_id: str, since: dt.datetime | None, until: dt.datetime | None) -> int:
    """Everything recorded in ``[since, until)``: messages by ``sent_at``, memories and documents by
    ``created_at`` (traits excluded: they are recomputed from what is left)."""
    lo = since or dt.datetime.min.replace(tzinfo=dt.UTC)
    hi = until or dt.datetime.max.replace(tzinfo=dt.UTC)
    n = conn.execute(SEED_WINDOW_MESSAGES, (user_id, lo, hi)).rowcount
    n += conn.execute(SEED_WINDOW_MEMORIES, (user_id, lo, hi)).rowcount
    n += conn.execute(SEED_WINDOW_DOCUMENTS, (user_id, lo, hi)).rowcount
    conn.execute(SEED_WINDOW_DOCUMENT_CHUNKS, (user_id,))
    return n


SEED_SCOPE_MEMORIES = """INSERT INTO _forget_mem SELECT id, memory_type FROM memories
           WHERE user_id = %(u)s AND (%(agent)s::text IS NULL OR agent_id = %(agent)s)
             AND (%(run)s::text IS NULL OR run_id = %(run)s) ON CONFLICT DO NOTHING"""


def seed_scope(conn: Conn, user_id: str, agent_id: str | None, run_id: str | None) -> int:
    """Every version of the memories an agent (and/or a run) of the user wrote (issue 26 item 2)."""
    return conn.execute(SEED_SCOPE_MEMORIES, {"u": user_id, "agent": agent_id, "run": run_id}).rowcount


SEED_TEXT_MEMORIES = """INSERT INTO _forget_mem SELECT id, memory_type FROM memories
           WHERE user_id = %s AND memory_type <> 'trait' AND fts @@ to_tsquery('simple', %s)
           ON CONFLICT DO NOTHING"""
SEED_TEXT_CHUNKS = """INSERT INTO _forget_chunk SELECT sha256 FROM raw_chunks
           WHERE user_id = %s AND fts @@ to_tsquery('simple', %s) ON CONFLICT DO NOTHING"""


def seed_text(conn: Conn, user_id: str, tsquery: str) -> int:
    """Every memory version (not traits) and raw chunk whose full text matches ``tsquery``."""
    n = conn.execute(SEED_TEXT_MEMORIES, (user_id, tsquery)).rowcount
    n += conn.execute(SEED_TEXT_CHUNKS, (user_id, tsquery)).rowcount
    return n


def seed_nodes(
    conn: Conn,
    user_id: str,
    names: Sequence[str],
    node_types: Sequence[str] | None,
    edge_types: Sequence[str] | None,
) -> int:
    """Graph nodes named ``names`` (or with such an alias), of ``node_types`` (None: any but the
    user and raw-chunk nodes), and the memories linked to them by ``edge_types`` (None: any)."""
    types = _OF_NODE_TYPES if node_types else _NOT_KEPT_NODE_TYPES
    n = conn.execute(
        SEED_NODES.format(types=types), {"u": user_id, "types": list(node_types or ()), "names": list(names)}
    ).rowcount
    edges = _OF_EDGE_TYPES if edge_types else sql.SQL("")
    conn.execute(SEED_NODE_MEMORIES.format(edges=edges), {"u": user_id, "edges": list(edge_types or ())})
    return n


SEED_NODES = sql.SQL(
    """INSERT INTO _forget_node SELECT id FROM graph_nodes
       WHERE user_id = %(u)s AND {types}
         AND (normalized_name = ANY(%(names)s) OR aliases && %(names)s) ON CONFLICT DO NOTHING"""
)
_OF_NODE_TYPES = sql.SQL("node_type = ANY(%(types)s)")
_NOT_KEPT_NODE_TYPES = sql.SQL("node_type NOT IN ('user', 'raw_chunk')")
_OF_EDGE_TYPES = sql.SQL("AND e.edge_type = ANY(%(edges)s)")
SEED_NODE_MEMORIES = sql.SQL(
    """INSERT INTO _forget_mem
            SELECT DISTINCT m.id, m.memory_type FROM graph_edges e
            JOIN _forget_node n ON n.id = e.target_id OR n.id = e.source_id
            JOIN memories m ON m.user_id = e.user_id
             AND ((e.source_kind = 'memory' AND m.id = e.source_id)
               OR (e.target_kind = 'memory' AND m.id = e.target_id)
               OR m.id::text = e.properties->>'memory_id')
            WHERE e.user_id = %(u)s AND m.memory_type <> 'trait' {edges}
            ON CONFLICT DO NOTHING"""
)


SEED_SOFT_DELETED_MEMORIES = """INSERT INTO _forget_mem SELECT id, memory_type FROM memories
           WHERE user_id = %s AND expired_at < %s AND superseded_by IS NULL AND archived_at IS NULL
           ON CONFLICT DO NOTHING"""
SEED_DELETED_DOCUMENTS = """INSERT INTO _forget_doc SELECT id FROM document_files
           WHERE user_id = %s AND deleted_at < %s ON CONFLICT DO NOTHING"""


def seed_soft_deleted(conn: Conn, user_id: str, before: dt.datetime) -> int:
    """Rows soft-deleted (``expired_at`` without a successor, not archived) before ``before``, and deleted
    documents."""
    n = conn.execute(SEED_SOFT_DELETED_MEMORIES, (user_id, before)).rowcount
    n += conn.execute(SEED_DELETED_DOCUMENTS, (user_id, before)).rowcount
    return n


_RETENTION_COLUMNS = {"type": "memory_type", "category": "category"}
SEED_OLDER_THAN_OF = sql.SQL(
    """INSERT INTO _forget_mem SELECT id, memory_type FROM memories
       WHERE user_id = %s AND {column} = %s AND created_at < %s ON CONFLICT DO NOTHING"""
)
USERS_WITH_OLDER_THAN = sql.SQL(
    "SELECT DISTINCT user_id FROM memories WHERE {column} = %s AND created_at < %s ORDER BY user_id LIMIT %s"
)
SEED_OLDER_THAN = """INSERT INTO _forget_doc SELECT id FROM document_files
               WHERE user_id = %s AND created_at < %s ON CONFLICT DO NOTHING"""


def seed_older_than(conn: Conn, user_id: str, field: str, value: str, before: dt.datetime) -> int:
    """Retention (issue 16): every version of the memories of one type (``field="type"``) or category
    (``"category"``) written before ``before``; for documents, their files too."""
    column = sql.Identifier(_RETENTION_COLUMNS[field])
    n = conn.execute(SEED_OLDER_THAN_OF.format(column=column), (user_id, value, before)).rowcount
    if field == "type" and value == "document":
        n += conn.execute(SEED_OLDER_THAN, (user_id, before)).rowcount
    return n


def users_with_older_than(conn: Conn, field: str, value: str, before: dt.datetime, limit: int) -> list[str]:
    column = sql.Identifier(_RETENTION_COLUMNS[field])
    rows = conn.execute(USERS_WITH_OLDER_THAN.format(column=column), (value, before, limit)).fetchall()
    return [r["user_id"] for r in rows]


USERS_WITH_SOFT_DELETED = """SELECT user_id FROM (
               SELECT user_id FROM memories WHERE expired_at < %(b)s AND superseded_by IS NULL AND archived_at IS NULL
               UNION SELECT user_id FROM document_files WHERE deleted_at < %(b)s) u
           ORDER BY user_id LIMIT %(n)s"""


def users_with_soft_deleted(conn: Conn, before: dt.datetime, limit: int) -> list[str]:
    rows = conn.execute(USERS_WITH_SOFT_DELETED, {"b": before, "n": limit}).fetchall()
    return [r["user_id"] for r in rows]
