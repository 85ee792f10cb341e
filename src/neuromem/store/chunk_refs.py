"""Where each chunk of a PDF / DOCX / HTML document comes from (issue 27 item 4): ``metadata.source_ref``."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

from psycopg.types.json import Jsonb

from .db import Conn

SET_REF = """UPDATE memories SET metadata = metadata || jsonb_build_object('source_ref', %s::jsonb)
             WHERE user_id = %s AND id = %s AND memory_type = 'document'"""


def set_refs(conn: Conn, user_id: str, refs: Sequence[tuple[uuid.UUID, dict[str, Any]]]) -> None:
    """Record each chunk's page / section reference (inside the transaction that wrote the chunks)."""
    with conn.cursor() as cur:
        cur.executemany(SET_REF, [(Jsonb(ref), user_id, chunk_id) for chunk_id, ref in refs if ref])
