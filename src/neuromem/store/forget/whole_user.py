"""Forget a whole user: every row of every table with a ``user_id`` column, receipts excepted."""

from __future__ import annotations

from pathlib import Path

from psycopg import sql

from ...types import sha256_text
from ..db import Conn
from .erase import Erased
from .work_sets import text_to_hash

#: Tables whose rows carry a user's data but are not reached through the work sets: a whole-user
#: forget clears every table with a ``user_id`` column found in the catalog (so tables added
#: later are covered); receipts stay, they are the proof.
KEEP_ON_FORGET = ("forget_receipts",)


TABLES_WITH_USER_ID = """SELECT c.relname FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace
           JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'user_id' AND NOT a.attisdropped
           WHERE s.nspname = current_schema() AND c.relkind IN ('r', 'p') AND NOT c.relispartition
           ORDER BY c.relname"""


def user_tables(conn: Conn) -> list[str]:
    """Every ordinary or partitioned table of this schema with a ``user_id`` column (from the catalog)."""
    rows = conn.execute(TABLES_WITH_USER_ID).fetchall()
    return [r["relname"] for r in rows if r["relname"] not in KEEP_ON_FORGET]


DELETE_USER_CHUNKS = "DELETE FROM raw_chunks WHERE user_id = %(u)s RETURNING sha256, path"
_ROW_HASHES = sql.SQL("RETURNING {id_sha} AS id_text, {content_sha} AS content_text").format(
    id_sha=text_to_hash("id::text"), content_sha=text_to_hash("content")
)
DELETE_USER_MEMORIES = sql.SQL("DELETE FROM memories WHERE user_id = %(u)s {}").format(_ROW_HASHES)
DELETE_USER_MESSAGES = sql.SQL("DELETE FROM conversation_messages WHERE user_id = %(u)s {}").format(
    _ROW_HASHES
)
DELETE_USER_DOCUMENTS = sql.SQL(
    "DELETE FROM document_files WHERE user_id = %(u)s RETURNING {} AS id_text, sha256"
).format(text_to_hash("id::text"))
DELETE_USER_ROWS = sql.SQL("DELETE FROM {} WHERE user_id = %(u)s")


def erase_user(conn: Conn, user_id: str) -> Erased:
    """Delete every row of ``user_id`` from every user table; hashes of memories, messages, chunks
    and documents are taken on the way out."""
    out = Erased()
    u = {"u": user_id}
    rows = conn.execute(DELETE_USER_MEMORIES, u).fetchall()
    out.add("memories", len(rows))
    out.id_sha256.extend(sha256_text(r["id_text"]) for r in rows)
    out.content_sha256.extend(sha256_text(r["content_text"]) for r in rows)
    rows = conn.execute(DELETE_USER_MESSAGES, u).fetchall()
    out.add("conversation_messages", len(rows))
    out.id_sha256.extend(sha256_text(r["id_text"]) for r in rows)
    out.content_sha256.extend(sha256_text(r["content_text"]) for r in rows)
    rows = conn.execute(DELETE_USER_CHUNKS, u).fetchall()
    out.add("raw_chunks", len(rows))
    out.content_sha256.extend(r["sha256"].strip() for r in rows)
    out.files.extend(Path(r["path"]) for r in rows if r["path"])
    rows = conn.execute(DELETE_USER_DOCUMENTS, u).fetchall()
    out.add("document_files", len(rows))
    out.id_sha256.extend(sha256_text(r["id_text"]) for r in rows)
    out.content_sha256.extend(r["sha256"].strip() for r in rows)
    for table in user_tables(conn):
        n = conn.execute(DELETE_USER_ROWS.format(sql.Identifier(table)), u).rowcount
        out.add(table, n)
    return out


CHUNK_PATHS = "SELECT path FROM raw_chunks WHERE user_id = %s AND path IS NOT NULL"


def chunk_paths(conn: Conn, user_id: str) -> list[Path]:
    """Files of a user's raw chunks kept in a chunk directory."""
    rows = conn.execute(CHUNK_PATHS, (user_id,)).fetchall()
    return [Path(r["path"]) for r in rows]
