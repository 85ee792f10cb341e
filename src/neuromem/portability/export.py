"""Export one user's whole memory: every row of every user table, from one snapshot.

Formats (``EXPORT_FORMATS``): ``jsonl`` — the full-fidelity, importable form (vectors included);
``json`` — the same rows as one indented document without vectors (readable, and importable
with re-embedding); ``markdown`` — a page for people (``readable.render_markdown``).
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from ..errors import InvalidInputError
from ..store import portable
from ..text.pii import mask
from .format import EXPORT_FORMATS, ExportHeader
from .readable import render_markdown

if TYPE_CHECKING:
    from ..core import Runtime

_SUFFIXES = {
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".json": "json",
    ".md": "markdown",
    ".markdown": "markdown",
}


@dataclass(frozen=True, slots=True)
class ExportReport:
    """What an export wrote: the format and the rows per table."""

    user_id: str
    format: str
    rows: dict[str, int]
    path: str | None = None

    @property
    def total(self) -> int:
        return sum(self.rows.values())


def choose_format(target: str | Path | IO[str], fmt: str | None) -> str:
    """The format asked for, or the one the file name implies (``jsonl`` by default)."""
    if fmt is None:
        suffix = Path(target).suffix.lower() if isinstance(target, str | Path) else ""
        return _SUFFIXES.get(suffix, "jsonl")
    if fmt not in EXPORT_FORMATS:
        raise InvalidInputError(f"unknown export format {fmt!r}; choose one of {', '.join(EXPORT_FORMATS)}")
    return fmt


def export_user(
    runtime: Runtime,
    target: str | Path | IO[str],
    uid: str,
    *,
    fmt: str | None = None,
    mask_pii: bool = False,
) -> ExportReport:
    """Write the (checked) user ``uid``'s memory to ``target`` (a path or a text stream) in one snapshot.
    ``mask_pii``: an export for someone other than the user — personal data in every text is
    replaced by placeholders (``text.pii.mask``) and raw chunk bytes are left out."""
    chosen = choose_format(target, fmt)
    with runtime.db.transaction() as conn:
        portable.snapshot(conn)
        tables = portable.user_tables(conn)
        counts = {t.name: portable.count_rows(conn, t.name, uid) for t in tables}
        header = ExportHeader(
            user_id=uid,
            embedding_dim=runtime.dim,
            embedder=runtime.embedder.name,
            schema_version=portable.schema_version(conn),
            vectors=chosen == "jsonl",
            tables=counts,
            exported_at=runtime.now().isoformat(),
        )
        with _open(target) as out:
            if chosen == "jsonl":
                out.write(json.dumps(header.to_json(), ensure_ascii=False) + "\n")
                for table in tables:
                    for row in _rows(conn, table, uid, mask_pii):
                        out.write(json.dumps({"table": table.name, "row": row}, ensure_ascii=False) + "\n")
            else:
                rows = {
                    t.name: [_without(row, t.vector_columns) for row in _rows(conn, t, uid, mask_pii)]
                    for t in tables
                }
                if chosen == "json":
                    json.dump({"header": header.to_json(), "tables": rows}, out, ensure_ascii=False, indent=2)
                    out.write("\n")
                else:
                    out.write(render_markdown(header, rows))
    path = str(target) if isinstance(target, str | Path) else None
    return ExportReport(user_id=uid, format=chosen, rows=counts, path=path)


def _rows(conn: Any, table: Any, uid: str, masked: bool) -> Iterator[dict[str, Any]]:
    for row in portable.dump_rows(conn, table, uid):
        yield {k: _masked(v) for k, v in row.items()} if masked else row


def _masked(value: Any) -> Any:
    """Personal data replaced in every string of a column's JSON form; bytes (``\\x…``) left out."""
    if isinstance(value, str):
        return None if value.startswith("\\x") else mask(value)
    if isinstance(value, dict):
        return {k: _masked(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_masked(v) for v in value]
    return value


def _without(row: dict[str, Any], columns: tuple[str, ...]) -> dict[str, Any]:
    return {k: v for k, v in row.items() if k not in columns}


@contextlib.contextmanager
def _open(target: str | Path | IO[str]) -> Iterator[IO[str]]:
    if isinstance(target, str | Path):
        path = Path(target)
        partial = path.with_name(path.name + ".partial")
        try:
            with partial.open("w", encoding="utf-8") as out:
                yield out
        except BaseException:
            partial.unlink(missing_ok=True)
            raise
        partial.replace(path)  # a crash never leaves a truncated file under the real name
    else:
        yield target
