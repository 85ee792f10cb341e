"""SQL over ``document_files`` (seed 000 §7.3); the chunks themselves are ``memories`` rows of
type ``document`` carrying ``file_id`` and ``chunk_index``.
"""

from __future__ import annotations

import uuid
from typing import Any

from psycopg import sql
from psycopg.types.json import Jsonb

from ..types import DocumentFile, DocumentStatus
from .db import Conn

__all__ = ["DocumentFile", "DocumentStatus"]  # the domain values (neuromem.types) its rows become

_COLUMNS = (
    "id, user_id, file_name, mime_type, size_bytes, sha256, chunk_count, metadata, created_at, deleted_at"
)


EMBEDDING_STATUS = """SELECT count(*) AS chunks, count(embedding) AS embedded,
                  count(*) FILTER (WHERE embedding IS NULL AND embed_error IS NOT NULL) AS failed
           FROM memories WHERE user_id = %s AND memory_type = 'document' AND file_id = %s AND expired_at IS NULL"""


def embedding_status(conn: Conn, user_id: str, file_id: uuid.UUID) -> DocumentStatus:
    row = conn.execute(EMBEDDING_STATUS, (user_id, file_id)).fetchone()
    assert row is not None
    return DocumentStatus(file_id, int(row["chunks"]), int(row["embedded"]), int(row["failed"]))


def _file(row: dict[str, Any]) -> DocumentFile:
    return DocumentFile(**{**row, "sha256": row["sha256"].strip(), "metadata": dict(row["metadata"] or {})})


INSERT_FILE = sql.SQL("""INSERT INTO document_files (id, user_id, file_name, mime_type, size_bytes, sha256, chunk_count, metadata)
            VALUES (%s, %s, %s, %s, %s, %s, %s, %s) RETURNING {columns}""").format(columns=sql.SQL(_COLUMNS))


def insert_file(
    conn: Conn,
    *,
    file_id: uuid.UUID,
    user_id: str,
    file_name: str,
    mime_type: str,
    size_bytes: int,
    sha256: str,
    chunk_count: int,
    metadata: dict[str, Any],
) -> DocumentFile:
    row = conn.execute(
        INSERT_FILE,
        (file_id, user_id, file_name, mime_type, size_bytes, sha256, chunk_count, Jsonb(metadata)),
    ).fetchone()
    assert row is not None
    return _file(row)


FIND_CURRENT = sql.SQL(
    "SELECT {columns} FROM document_files WHERE user_id = %s AND sha256 = %s AND file_name = %s AND deleted_at IS NULL"
).format(columns=sql.SQL(_COLUMNS))


def find_current(conn: Conn, user_id: str, sha256: str, file_name: str) -> DocumentFile | None:
    """The user's current document with these bytes under this name (an upload repeated)."""
    row = conn.execute(FIND_CURRENT, (user_id, sha256, file_name)).fetchone()
    return None if row is None else _file(row)


GET_FILE = sql.SQL("SELECT {columns} FROM document_files WHERE user_id = %s AND id = %s").format(
    columns=sql.SQL(_COLUMNS)
)


def get_file(conn: Conn, user_id: str, file_id: uuid.UUID) -> DocumentFile | None:
    row = conn.execute(GET_FILE, (user_id, file_id)).fetchone()
    return None if row is None else _file(row)


_LIST_FILES = sql.SQL(
    "SELECT {columns} FROM document_files WHERE user_id = %s{live} ORDER BY created_at DESC, id LIMIT %s"
)
LIST_LIVE_FILES = _LIST_FILES.format(columns=sql.SQL(_COLUMNS), live=sql.SQL(" AND deleted_at IS NULL"))
LIST_FILES = _LIST_FILES.format(columns=sql.SQL(_COLUMNS), live=sql.SQL(""))


def list_files(
    conn: Conn, user_id: str, *, include_deleted: bool = False, limit: int = 100
) -> list[DocumentFile]:
    rows = conn.execute(LIST_FILES if include_deleted else LIST_LIVE_FILES, (user_id, limit)).fetchall()
    return [_file(r) for r in rows]


EXPIRE_FILE_CHUNKS = """UPDATE memories SET expired_at = now(), updated_at = now()
           WHERE user_id = %s AND memory_type = 'document' AND file_id = %s AND expired_at IS NULL
           RETURNING id"""


MARK_FILE_DELETED = sql.SQL("""UPDATE document_files SET deleted_at = now() WHERE user_id = %s AND id = %s AND deleted_at IS NULL
            RETURNING {columns}""").format(columns=sql.SQL(_COLUMNS))


def delete_file(conn: Conn, user_id: str, file_id: uuid.UUID) -> tuple[DocumentFile | None, list[uuid.UUID]]:
    """Soft-delete a file and expire its chunk memories; returns the file and the expired chunk ids."""
    row = conn.execute(MARK_FILE_DELETED, (user_id, file_id)).fetchone()
    if row is None:
        return None, []
    chunks = conn.execute(EXPIRE_FILE_CHUNKS, (user_id, file_id)).fetchall()
    return _file(row), [c["id"] for c in chunks]
