"""SQL over ``raw_chunks``: immutable, content-addressed original text (seed 003 §3.0).

A chunk is identified by the sha256 of its UTF-8 text, per user. It is stored
zstd-compressed either in the ``data`` column or, when a directory is
configured (``ingest.raw_chunk_dir``), as ``<dir>/<user hash>/<sha[:2]>/<sha>.zst``
with only the path in the row. Writing the same text twice is a no-op (CAS).

``raw_refs`` items on memories are ``{"sha256": ..., "offset": ..., "length": ...}``
where offset and length count **characters** (Python ``str`` indices) of the
decoded chunk text; :func:`quote` returns exactly those words.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import zstandard

from .db import Conn

_COMPRESSION_LEVEL = 3


@dataclass(frozen=True, slots=True)
class RawChunk:
    """One chunk to store: its text and the tokens for full-text search."""

    sha256: str
    text: str
    search_tokens: str = ""


def sha256_of(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _path_for(directory: Path, user_id: str, sha: str) -> Path:
    user_dir = hashlib.sha256(user_id.encode("utf-8")).hexdigest()[:16]  # no user text in file names
    return directory / user_dir / sha[:2] / f"{sha}.zst"


KNOWN_SHAS = "SELECT sha256 FROM raw_chunks WHERE user_id = %s AND sha256 = ANY(%s)"


INSERT_CHUNKS = """INSERT INTO raw_chunks (user_id, sha256, compression, data, path, size_bytes, search_tokens)
                   VALUES (%s, %s, %s, %s, %s, %s, %s) ON CONFLICT (user_id, sha256) DO NOTHING"""


def put_many(conn: Conn, user_id: str, chunks: Sequence[RawChunk], directory: Path | None = None) -> int:
    """Store chunks not stored yet (same user, same sha256 → skipped). Returns rows inserted."""
    if not chunks:
        return 0
    unique = {c.sha256: c for c in chunks}
    known = {
        r["sha256"]
        for r in conn.execute(
            KNOWN_SHAS, (user_id, list(unique))
        ).fetchall()
    }
    compressor = zstandard.ZstdCompressor(level=_COMPRESSION_LEVEL)
    rows: list[tuple[Any, ...]] = []
    for sha, chunk in unique.items():
        if sha in known:
            continue
        raw = chunk.text.encode("utf-8")
        blob = compressor.compress(raw)
        path: str | None = None
        data: bytes | None = blob
        if directory is not None:
            target = _path_for(directory, user_id, sha)
            target.parent.mkdir(parents=True, exist_ok=True)
            if not target.exists():
                tmp = target.with_suffix(".tmp")
                tmp.write_bytes(blob)
                tmp.replace(target)
            path, data = str(target), None
        rows.append((user_id, sha, "zstd", data, path, len(raw), chunk.search_tokens))
    if rows:
        with conn.cursor() as cur:
            cur.executemany(
                INSERT_CHUNKS,
                rows,
            )
    return len(rows)


GET_TEXTS = "SELECT sha256, compression, data, path FROM raw_chunks WHERE user_id = %s AND sha256 = ANY(%s)"


def get_texts(conn: Conn, user_id: str, shas: Sequence[str]) -> dict[str, str]:
    """Decoded text of the chunks that exist, by sha256."""
    if not shas:
        return {}
    rows = conn.execute(GET_TEXTS, (user_id, list(set(shas)))).fetchall()
    decompressor = zstandard.ZstdDecompressor()
    out: dict[str, str] = {}
    for r in rows:
        blob = bytes(r["data"]) if r["data"] is not None else Path(r["path"]).read_bytes()
        raw = decompressor.decompress(blob) if r["compression"] == "zstd" else blob
        out[r["sha256"].strip()] = raw.decode("utf-8")
    return out


def quote(conn: Conn, user_id: str, ref: Mapping[str, Any]) -> str | None:
    """The exact original words a ``raw_refs`` item points to, or None if the chunk is gone."""
    sha = str(ref["sha256"])
    text = get_texts(conn, user_id, [sha]).get(sha)
    if text is None:
        return None
    offset = int(ref.get("offset", 0))
    length = int(ref.get("length", len(text) - offset))
    return text[offset : offset + length]


COUNT_CHUNKS = "SELECT count(*) AS n FROM raw_chunks WHERE user_id = %s"


def count(conn: Conn, user_id: str) -> int:
    row = conn.execute(COUNT_CHUNKS, (user_id,)).fetchone()
    return int(row["n"]) if row else 0
