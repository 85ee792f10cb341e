"""A generic trace scanner for the forgetting tests (modelled on MEME's deletion tasks).

Every table and materialized view of the schema is read from the catalog — so a table
added later by anyone is covered — and each row is matched as text (all columns: text,
jsonb, arrays, uuids, tsvectors); bytea values are also read zstd-decompressed. The chunk
directory's files are decompressed and matched, and their names checked.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import psycopg
import zstandard


def _decoded(blob: bytes) -> str:
    try:
        return zstandard.ZstdDecompressor().decompress(blob).decode("utf-8", "replace")
    except zstandard.ZstdError:
        return blob.decode("utf-8", "replace")


def find_traces(db_url: str, needles: Iterable[object], chunk_dir: Path | None = None) -> list[str]:
    """Every place (table or file) that still holds one of ``needles`` (case-insensitive)."""
    words = [str(n).lower() for n in needles]
    found: list[str] = []
    with psycopg.connect(db_url) as conn:
        relations = conn.execute(
            """SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
               WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'm') ORDER BY 1"""
        ).fetchall()
        assert len(relations) > 15, relations  # the scan really reads the schema
        for (name,) in relations:
            for (row,) in conn.execute(f'SELECT t::text FROM "{name}" t').fetchall():
                low = row.lower()
                found.extend(f"{name}: {w}" for w in words if w in low)
            blobs = conn.execute(
                """SELECT a.attname FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
                   WHERE c.relname = %s AND a.atttypid = 'bytea'::regtype AND a.attnum > 0 AND NOT a.attisdropped""",
                (name,),
            ).fetchall()
            for (column,) in blobs:
                for (blob,) in conn.execute(f'SELECT "{column}" FROM "{name}" WHERE "{column}" IS NOT NULL'):
                    low = _decoded(bytes(blob)).lower()
                    found.extend(f"{name}.{column} (decompressed): {w}" for w in words if w in low)
    if chunk_dir is not None and chunk_dir.exists():
        for path in chunk_dir.rglob("*"):
            if path.is_file():
                low = (path.name + _decoded(path.read_bytes())).lower()
                found.extend(f"file {path.name}: {w}" for w in words if w in low)
    return found


def chunk_files(chunk_dir: Path) -> list[Path]:
    return [p for p in chunk_dir.rglob("*") if p.is_file()] if chunk_dir.exists() else []
