"""SQL over ``raw_chunks``: immutable, content-addressed original text (seed 003 §3.0).

A chunk is identified by the sha256 of its UTF-8 text, per user. It is stored
zstd-compressed and then encrypted (AES-256-GCM, compression ``zstd-gcm``) under a key of
its user, either in the ``data`` column or, when a directory is configured
(``ingest.raw_chunk_dir``), as ``<dir>/<user hash>/<sha[:2]>/<sha>.zst`` with only the path
in the row. Writing the same text twice is a no-op (CAS).

Crypto-shredding (issue 23 item 4): the keys live in ``raw_chunk_keys`` (one per user, made on
the user's first chunk; the row names its ``key_id``). Forgetting everything of a user deletes
the user's keys with the rest, so a chunk file, or a copy of one, that outlives the forget —
a file-system backup of the chunk directory, a stray copy — can no longer be read. The blob is
``nonce (12 bytes) ‖ ciphertext ‖ tag`` with the chunk's sha256 as associated data (a blob moved
to another chunk does not decrypt). ``search_tokens`` (the jieba tokens that BM25 and the raw
fallback search) stay plaintext: they are the index, and forgetting removes them with the row.
Rows written before migration 0017 (compression ``zstd``) are read as they are.

``raw_refs`` items on memories are ``{"sha256": ..., "offset": ..., "length": ...}``
where offset and length count **characters** (Python ``str`` indices) of the
decoded chunk text; :func:`quote` returns exactly those words.
"""

from __future__ import annotations

import hashlib
import os
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import zstandard
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from ..ids import uuid7
from ..text.spans import split_sentences
from ..text.tokenize import search_text
from .db import Conn

_COMPRESSION_LEVEL = 3
ENCRYPTED = "zstd-gcm"  # the ``compression`` of an encrypted chunk
_NONCE_BYTES = 12


@dataclass(frozen=True, slots=True)
class RawChunk:
    """One chunk to store: its text and the tokens for full-text search."""

    sha256: str
    text: str
    search_tokens: str = ""


def sha256_of(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True, slots=True)
class TurnChunks:
    """The chunks of one turn: ``(start offset in the turn, chunk)`` in order."""

    pieces: tuple[tuple[int, RawChunk], ...]

    @property
    def first_sha(self) -> str:
        return self.pieces[0][1].sha256

    def ref(self, span: tuple[int, int]) -> dict[str, Any]:
        start, end = span
        for offset, chunk in reversed(self.pieces):
            if start >= offset:
                length = min(end, offset + len(chunk.text)) - start
                return {"sha256": chunk.sha256, "offset": start - offset, "length": max(0, length)}
        offset, chunk = self.pieces[0]
        return {"sha256": chunk.sha256, "offset": 0, "length": min(end - start, len(chunk.text))}


def _chunk(text: str) -> RawChunk:
    return RawChunk(sha256_of(text), text, search_text(text))


def chunk_turn(text: str, max_chars: int) -> TurnChunks:
    """Cut a turn into chunks of at most ``max_chars`` characters (``ingest.raw_chunk_max_chars``), at
    sentence ends when possible; a span of the turn maps to a ``raw_refs`` item by ``TurnChunks.ref``."""
    if len(text) <= max_chars:
        return TurnChunks(((0, _chunk(text)),))
    pieces: list[tuple[int, RawChunk]] = []
    start = 0
    cut = 0
    for _a, b in split_sentences(text):
        if b - start > max_chars and cut > start:
            pieces.append((start, _chunk(text[start:cut])))
            start = cut
        while b - start > max_chars:  # one sentence longer than a chunk
            pieces.append((start, _chunk(text[start : start + max_chars])))
            start += max_chars
        cut = b
    if start < len(text):
        pieces.append((start, _chunk(text[start:])))
    return TurnChunks(tuple(pieces))


def _path_for(directory: Path, user_id: str, sha: str) -> Path:
    user_dir = hashlib.sha256(user_id.encode("utf-8")).hexdigest()[:16]  # no user text in file names
    return directory / user_dir / sha[:2] / f"{sha}.zst"


KNOWN_SHAS = "SELECT sha256 FROM raw_chunks WHERE user_id = %s AND sha256 = ANY(%s)"


INSERT_CHUNKS = """INSERT INTO raw_chunks (user_id, sha256, compression, data, path, size_bytes, search_tokens, key_id)
                   VALUES (%s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT (user_id, sha256) DO NOTHING"""
USER_KEY = (
    "SELECT key_id, key FROM raw_chunk_keys WHERE user_id = %s ORDER BY created_at DESC, key_id DESC LIMIT 1"
)
INSERT_USER_KEY = "INSERT INTO raw_chunk_keys (user_id, key_id, key) VALUES (%s, %s, %s)"


def user_key(conn: Conn, user_id: str) -> tuple[uuid.UUID, bytes]:
    """The user's chunk key, made on first use (256 random bits)."""
    row = conn.execute(USER_KEY, (user_id,)).fetchone()
    if row is not None:
        return row["key_id"], bytes(row["key"])
    key_id, key = uuid7(), AESGCM.generate_key(bit_length=256)
    conn.execute(INSERT_USER_KEY, (user_id, key_id, key))
    return key_id, key


def seal(key: bytes, sha: str, plain: bytes) -> bytes:
    nonce = os.urandom(_NONCE_BYTES)
    return nonce + AESGCM(key).encrypt(nonce, plain, sha.encode("ascii"))


def unseal(key: bytes, sha: str, blob: bytes) -> bytes:
    return AESGCM(key).decrypt(blob[:_NONCE_BYTES], blob[_NONCE_BYTES:], sha.encode("ascii"))


def put_many(conn: Conn, user_id: str, chunks: Sequence[RawChunk], directory: Path | None = None) -> int:
    """Store chunks not stored yet (same user, same sha256 → skipped). Returns rows inserted."""
    if not chunks:
        return 0
    unique = {c.sha256: c for c in chunks}
    known = {r["sha256"] for r in conn.execute(KNOWN_SHAS, (user_id, list(unique))).fetchall()}
    if len(known) == len(unique):
        return 0
    compressor = zstandard.ZstdCompressor(level=_COMPRESSION_LEVEL)
    key_id, key = user_key(conn, user_id)
    rows: list[tuple[Any, ...]] = []
    for sha, chunk in unique.items():
        if sha in known:
            continue
        raw = chunk.text.encode("utf-8")
        blob = seal(key, sha, compressor.compress(raw))
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
        rows.append((user_id, sha, ENCRYPTED, data, path, len(raw), chunk.search_tokens, key_id))
    if rows:
        with conn.cursor() as cur:
            cur.executemany(
                INSERT_CHUNKS,
                rows,
            )
    return len(rows)


GET_TEXTS = """SELECT r.sha256, r.compression, r.data, r.path, k.key FROM raw_chunks r
               LEFT JOIN raw_chunk_keys k ON k.user_id = r.user_id AND k.key_id = r.key_id
               WHERE r.user_id = %s AND r.sha256 = ANY(%s)"""


def get_texts(conn: Conn, user_id: str, shas: Sequence[str]) -> dict[str, str]:
    """Decoded text of the chunks that exist and can be read, by sha256 (decrypted here: the one
    place raw text is read — sources, quotes, turn recall and the raw fallback all come through)."""
    if not shas:
        return {}
    rows = conn.execute(GET_TEXTS, (user_id, list(set(shas)))).fetchall()
    decompressor = zstandard.ZstdDecompressor()
    out: dict[str, str] = {}
    for r in rows:
        sha = r["sha256"].strip()
        blob = bytes(r["data"]) if r["data"] is not None else Path(r["path"]).read_bytes()
        if r["compression"] == ENCRYPTED:
            if r["key"] is None:
                continue  # its key was destroyed: shredded
            try:
                blob = unseal(bytes(r["key"]), sha, blob)
            except InvalidTag:
                continue
        raw = decompressor.decompress(blob) if r["compression"] in ("zstd", ENCRYPTED) else blob
        out[sha] = raw.decode("utf-8")
    return out


def quote(conn: Conn, user_id: str, ref: Mapping[str, Any]) -> str | None:
    """The exact original words a ``raw_refs`` item points to, or None if the chunk is gone."""
    sha = str(ref["sha256"])
    return cut(get_texts(conn, user_id, [sha]).get(sha), ref)


def cut(text: str | None, ref: Mapping[str, Any]) -> str | None:
    """The words of the chunk ``text`` that a ``raw_refs`` item points to (None for a chunk that is gone)."""
    if text is None:
        return None
    offset = int(ref.get("offset", 0))
    length = int(ref.get("length", len(text) - offset))
    return text[offset : offset + length]


COUNT_CHUNKS = "SELECT count(*) AS n FROM raw_chunks WHERE user_id = %s"


def count(conn: Conn, user_id: str) -> int:
    row = conn.execute(COUNT_CHUNKS, (user_id,)).fetchone()
    return int(row["n"]) if row else 0
