"""What a forget left behind, as the import reads it: an old export must not bring back what
``forget`` erased (seed 003 §24 "墓碑": the tombstone outlives the data).

A forget receipt holds the sha256 of every id and every content it deleted, and its time. An
import row is *forgotten* when

- the sha256 of its ``id`` is in a receipt (the very row that was erased), or
- the sha256 of its words (``content``; a raw chunk's or a document's ``sha256``) is in a
  receipt that was written after the row was created (the same words written again after the
  forget are the user's new statement, not the erased one), or
- it points at a forgotten row: any of its values (nested JSON too) is the id of a row already
  found forgotten — history, sources, evidence, edges and logs of an erased memory go with it.

Rows arrive in import order (``store.portable.LEADING_TABLES``: what a row points at comes
first), so one pass finds the dependants. Everything here is pure; the receipts are read by
``store.portable.forget_tombstones``.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Iterable, Mapping
from typing import Any

#: tables whose ``sha256`` column is the hash of their words (the receipt's content hash)
_CONTENT_SHA_TABLES = frozenset({"raw_chunks", "document_files"})


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _time(value: Any) -> dt.datetime | None:
    if isinstance(value, dt.datetime):
        return value
    if isinstance(value, str):
        try:
            return dt.datetime.fromisoformat(value)
        except ValueError:
            return None
    return None


class Tombstones:
    """The hashes of a user's forget receipts, and the ids found forgotten so far in one import."""

    def __init__(self, receipts: Iterable[Mapping[str, Any]]) -> None:
        self.ids: set[str] = set()
        self.contents: dict[str, dt.datetime] = {}  # content sha → the latest receipt that erased it
        for receipt in receipts:
            at = _time(receipt["created_at"])
            assert at is not None
            self.ids.update(receipt["id_sha256"])
            for sha in receipt["content_sha256"]:
                if sha not in self.contents or self.contents[sha] < at:
                    self.contents[sha] = at
        self.forgotten_ids: set[str] = set()

    def __bool__(self) -> bool:
        return bool(self.ids or self.contents)

    def forgotten(self, table: str, row: Mapping[str, Any]) -> bool:
        """Whether ``row`` of ``table`` is something a forget erased (module docstring); a forgotten
        row's id is remembered so that what points at it is forgotten too."""
        row_id = row.get("id")
        hit = (
            (row_id is not None and _sha256(str(row_id)) in self.ids)
            or self._erased_words(table, row)
            or (bool(self.forgotten_ids) and _mentions(row, self.forgotten_ids))
        )
        if hit and row_id is not None:
            self.forgotten_ids.add(str(row_id))
        return hit

    def _erased_words(self, table: str, row: Mapping[str, Any]) -> bool:
        shas = []
        if isinstance(row.get("content"), str):
            shas.append(_sha256(row["content"]))
        if table in _CONTENT_SHA_TABLES and isinstance(row.get("sha256"), str):
            shas.append(row["sha256"].strip())
        created = _time(row.get("created_at"))
        for sha in shas:
            erased_at = self.contents.get(sha)
            if erased_at is not None and (created is None or created <= erased_at):
                return True
        return False


def _mentions(value: Any, ids: set[str]) -> bool:
    """Whether any string inside ``value`` (a row, nested JSON) is one of ``ids``."""
    if isinstance(value, str):
        return value in ids
    if isinstance(value, Mapping):
        return any(_mentions(v, ids) for v in value.values())
    if isinstance(value, list):
        return any(_mentions(v, ids) for v in value)
    return False


__all__ = ["Tombstones"]
