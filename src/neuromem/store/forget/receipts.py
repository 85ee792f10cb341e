"""The receipts of forgets (``forget_receipts``): what was deleted, as counts and hashes only."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

from psycopg import sql
from psycopg.types.json import Jsonb

from ...types import ForgetReceipt
from ..db import Conn

_RECEIPT_COLUMNS = (
    "id, user_id, target_kind, target_sha256, actor, counts, content_sha256, id_sha256, digest, "
    "created_at, relations, erased_at"
)


def _receipt(row: dict[str, Any]) -> ForgetReceipt:
    return ForgetReceipt(
        **{
            **row,
            "target_sha256": row["target_sha256"].strip(),
            "digest": row["digest"].strip(),
            "counts": dict(row["counts"]),
            "content_sha256": tuple(row["content_sha256"]),
            "id_sha256": tuple(row["id_sha256"]),
            "relations": tuple(row["relations"]),
        }
    )


INSERT_RECEIPT = sql.SQL("""INSERT INTO forget_receipts (id, user_id, target_kind, target_sha256, actor, counts, content_sha256,
                                         id_sha256, digest, relations)
            VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s) RETURNING {receipt_columns}""").format(
    receipt_columns=sql.SQL(_RECEIPT_COLUMNS)
)


def insert_receipt(
    conn: Conn,
    receipt_id: uuid.UUID,
    user_id: str,
    *,
    target_kind: str,
    target_sha256: str,
    actor: str,
    counts: dict[str, int],
    content_sha256: Sequence[str],
    id_sha256: Sequence[str],
    digest: str,
    relations: Sequence[str] = (),
) -> ForgetReceipt:
    row = conn.execute(
        INSERT_RECEIPT,
        (
            receipt_id,
            user_id,
            target_kind,
            target_sha256,
            actor,
            Jsonb(counts),
            list(content_sha256),
            list(id_sha256),
            digest,
            list(relations),
        ),
    ).fetchone()
    assert row is not None
    return _receipt(row)


GET_RECEIPT = sql.SQL("SELECT {receipt_columns} FROM forget_receipts WHERE user_id = %s AND id = %s").format(
    receipt_columns=sql.SQL(_RECEIPT_COLUMNS)
)


def get_receipt(conn: Conn, user_id: str, receipt_id: uuid.UUID) -> ForgetReceipt | None:
    row = conn.execute(GET_RECEIPT, (user_id, receipt_id)).fetchone()
    return None if row is None else _receipt(row)


LIST_RECEIPTS = sql.SQL(
    "SELECT {receipt_columns} FROM forget_receipts WHERE user_id = %s ORDER BY created_at DESC, id DESC LIMIT %s"
).format(receipt_columns=sql.SQL(_RECEIPT_COLUMNS))


def list_receipts(conn: Conn, user_id: str, limit: int) -> list[ForgetReceipt]:
    rows = conn.execute(LIST_RECEIPTS, (user_id, limit)).fetchall()
    return [_receipt(r) for r in rows]
