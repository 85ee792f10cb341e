"""Import an export file: every row back with its ids, timestamps and versions, in one transaction.

- **Idempotent.** Rows whose key already exists are skipped (``ON CONFLICT DO NOTHING``),
  so importing the same file twice changes nothing the second time.
- **All or nothing.** The header is checked first (a newer format version raises
  ``ExportVersionError``), then every line inside one transaction: an unknown table or
  column, a row of another user or a row count that differs from the header raises
  ``ExportFormatError`` and nothing is written.
- **Forgotten stays forgotten.** A row that a ``forget`` erased after the export was written
  (its id or words in a forget receipt, or pointing at such a row: ``portability.tombstones``)
  is skipped and counted in ``ImportReport.forgotten``. ``include_forgotten=True`` is the
  owner's own restore of an export they made: those rows come back too.
- **Re-embedding.** When the file's vectors were made with another dimension or embedder
  than this database's (or the file has none, the readable JSON form), the vectors are
  dropped and the rows embedded again by this embedder after the commit: the memories at once,
  the conversation turns by the backfill thread right after (as an ingest leaves them,
  ``ingest.turn_vectors``), which ``Memory.flush`` waits for.
"""

from __future__ import annotations

import logging
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from ..errors import EmbedderError, ExportFormatError, InvalidInputError
from ..store import memories, portable
from ..store.maintenance import refresh_trait_view
from .format import ExportHeader, read_export
from .tombstones import Tombstones

if TYPE_CHECKING:
    from ..core import Runtime

log = logging.getLogger(__name__)

_BATCH = 200


@dataclass(frozen=True, slots=True)
class ImportReport:
    """What an import did, per table: rows inserted, rows already present, and rows left out
    because a forget erased them (``forgotten``)."""

    user_id: str
    inserted: dict[str, int]
    skipped: dict[str, int]
    reembedded: int
    forgotten: dict[str, int] = field(default_factory=dict)

    @property
    def total_inserted(self) -> int:
        return sum(self.inserted.values())

    @property
    def total_forgotten(self) -> int:
        return sum(self.forgotten.values())


def import_file(
    runtime: Runtime, source: str | Path | IO[str], *, include_forgotten: bool = False
) -> ImportReport:
    """Import an export (path or text stream) written by ``export_user``; what a forget erased
    since stays out unless ``include_forgotten``."""
    if not isinstance(include_forgotten, bool):
        raise InvalidInputError(f"include_forgotten must be a boolean, got {include_forgotten!r}")
    if isinstance(source, str | Path):
        with Path(source).open(encoding="utf-8") as stream:
            return _import(runtime, stream, include_forgotten)
    return _import(runtime, source, include_forgotten)


def _import(runtime: Runtime, stream: IO[str], include_forgotten: bool) -> ImportReport:
    header, rows = read_export(stream)
    reembed = (
        not header.vectors or header.embedding_dim != runtime.dim or header.embedder != runtime.embedder.name
    )
    seen: Counter[str] = Counter()
    inserted: Counter[str] = Counter()
    forgotten: Counter[str] = Counter()
    with runtime.db.transaction() as conn:
        shapes = {t.name: t for t in portable.user_tables(conn)}
        tombstones = Tombstones([] if include_forgotten else portable.forget_tombstones(conn, header.user_id))
        pending: dict[str, list[dict[str, Any]]] = {}
        for table, row in rows:
            shape = _check_row(shapes, header, table, row)
            seen[table] += 1
            if tombstones and tombstones.forgotten(table, row):
                forgotten[table] += 1
                continue
            if reembed:
                row = _drop_vectors(row, shape)
            pending.setdefault(table, []).append(row)
            if len(pending[table]) >= _BATCH:
                _flush(conn, shapes, pending, inserted)
        _flush(conn, shapes, pending, inserted)
        _check_counts(header, seen)
    reembedded = 0
    if reembed and inserted.get("conversation_messages"):
        runtime.embeddings_deferred = True  # the turns wait for the backfill: the facade starts its thread
    if inserted.get("memories"):
        if reembed:
            reembedded = _embed_again(runtime, header.user_id)
        refresh_trait_view(runtime.db)  # imported traits become recallable
    return ImportReport(
        user_id=header.user_id,
        inserted={t: inserted[t] for t in header.tables},
        skipped={t: seen[t] - inserted[t] - forgotten[t] for t in header.tables},
        reembedded=reembedded,
        forgotten={t: n for t, n in forgotten.items() if n},
    )


def _embed_again(runtime: Runtime, user_id: str) -> int:
    """Embed every imported version with this database's embedder; on failure the current
    rows stay for the backfill (searchable by full text meanwhile)."""
    with runtime.db.connection() as conn:
        rows = portable.memories_without_vectors(conn, user_id)
    size = runtime.settings.embedder.batch_size
    done = 0
    for start in range(0, len(rows), size):
        batch = rows[start : start + size]
        try:
            vectors = runtime.embedder.embed_passages([r["content"] for r in batch], batch_size=size)
        except EmbedderError as exc:
            log.warning("re-embedding imported rows failed, the backfill will retry: %s", exc)
            break
        with runtime.db.transaction() as conn:
            done += memories.set_embeddings(
                conn,
                user_id,
                [(r["id"], r["memory_type"], v) for r, v in zip(batch, vectors, strict=True)],
                runtime.dim,
            )
    return done


def _flush(
    conn: Any,
    shapes: dict[str, portable.TableShape],
    pending: dict[str, list[dict[str, Any]]],
    inserted: Counter[str],
) -> None:
    """Write every pending row, tables in import order (what a row points at is written before it)."""
    for name, shape in shapes.items():
        if pending.get(name):
            inserted[name] += portable.insert_rows(conn, shape, pending[name])
            pending[name].clear()


def _check_row(
    shapes: dict[str, portable.TableShape], header: ExportHeader, table: str, row: dict[str, Any]
) -> portable.TableShape:
    shape = shapes.get(table)
    if shape is None:
        raise ExportFormatError(
            f"the export holds rows of table {table!r}, which this database does not have"
        )
    unknown = set(row) - set(shape.columns)
    if unknown:
        raise ExportFormatError(
            f"rows of {table!r} have columns this database lacks ({', '.join(sorted(unknown))}): "
            "the export comes from a newer neuromem; upgrade before importing"
        )
    if row.get("user_id") != header.user_id:
        raise ExportFormatError(
            f"a row of {table!r} belongs to user {row.get('user_id')!r}, not to the export's {header.user_id!r}"
        )
    return shape


def _drop_vectors(row: dict[str, Any], shape: portable.TableShape) -> dict[str, Any]:
    if not shape.vector_columns:
        return row
    kept = {k: v for k, v in row.items() if k not in shape.vector_columns}
    if "embed_attempts" in kept:
        kept["embed_attempts"] = 0
        kept["embed_error"] = None
    return kept


def _check_counts(header: ExportHeader, seen: Counter[str]) -> None:
    for table in set(header.tables) | set(seen):
        expected, found = header.tables.get(table, 0), seen.get(table, 0)
        if expected != found:
            raise ExportFormatError(
                f"the export is incomplete or altered: its header announces {expected} rows of {table!r}, "
                f"the file holds {found}; nothing was imported"
            )
