"""Documents (seed 000 §7.3): a file row in ``document_files`` and its chunks as ``document``
memories with ``file_id`` / ``chunk_index``, embedded in one batch and written in one
transaction. Chunks are cut at paragraph, then sentence ends, to about
``ingest.document_chunk_tokens`` tokens; each chunk's text is also a RawChunk that its
memory cites. Uploading the same bytes under the same name again returns the existing file.
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Mapping, Sequence
from typing import Any

from .. import validation as check
from ..core import Runtime
from ..errors import DocumentNotFoundError, InvalidInputError
from ..ids import uuid7
from ..store import documents, graph, memories, raw_chunks
from ..store.db import Conn
from ..store.documents import DocumentFile, DocumentStatus
from ..store.filters import compile_filter
from ..store.memories import NewMemory
from ..store.raw_chunks import TurnChunks, chunk_turn
from ..text.language import detect_language
from ..text.pii import apply_pii_policy
from ..text.spans import split_sentences
from ..text.token_count import count_tokens
from ..text.tokenize import search_text
from ..types import MemoryRecord, MemoryType

MIME_TYPES = frozenset({"text/plain", "text/markdown"})


def chunk_document(text: str, max_tokens: int) -> list[str]:
    """Paragraphs packed into chunks of at most ``max_tokens`` tokens (long paragraphs split at sentences)."""
    units: list[str] = []
    for paragraph in (p.strip() for p in text.replace("\r\n", "\n").split("\n\n")):
        if not paragraph:
            continue
        if count_tokens(paragraph) <= max_tokens:
            units.append(paragraph)
        else:
            units.extend(paragraph[a:b] for a, b in split_sentences(paragraph))
    chunks: list[str] = []
    current: list[str] = []
    size = 0
    for unit in units:
        n = count_tokens(unit)
        if current and size + n > max_tokens:
            chunks.append("\n\n".join(current))
            current, size = [], 0
        current.append(unit)
        size += n
    if current:
        chunks.append("\n\n".join(current))
    return chunks


def add_document(
    runtime: Runtime,
    text: Any,
    *,
    user_id: str,
    file_name: Any,
    mime_type: str = "text/plain",
    metadata: Mapping[str, Any] | None = None,
    background: bool | None = None,
) -> DocumentFile:
    """Validate, chunk and write a document of the (checked) ``user_id`` in one transaction. Its chunks are embedded now, or —
    ``background=True``, or by default when the text is longer than
    ``ingest.document_background_chars`` — left without a vector for the backfill (issue #12
    item 7): searchable by full text at once, by vector as ``document_status`` shows."""
    s = runtime.settings
    if background is not None and not isinstance(background, bool):
        raise InvalidInputError(f"background must be a boolean or None, got {background!r}")
    uid = user_id
    if not isinstance(text, str) or not text.strip():
        raise InvalidInputError("a document needs non-empty text")
    if len(text) > s.ingest.document_max_chars:
        raise InvalidInputError(
            f"document longer than ingest.document_max_chars ({s.ingest.document_max_chars})"
        )
    if not isinstance(file_name, str) or not file_name.strip() or len(file_name) > 255:
        raise InvalidInputError("file_name must be a non-empty string of at most 255 characters")
    check.storable(text, "document text")
    check.storable(file_name, "file_name")
    if not isinstance(mime_type, str) or mime_type not in MIME_TYPES:
        raise InvalidInputError(f"mime_type must be one of {sorted(MIME_TYPES)}, got {mime_type!r}")
    meta = check.metadata(metadata) if metadata is not None else {}
    private = apply_pii_policy(text, s.ingest.pii_mode)
    body = private.text
    pieces = chunk_document(body, s.ingest.document_chunk_tokens)
    defer = len(body) > s.ingest.document_background_chars if background is None else background
    vectors = None if defer else runtime.embed_passages(pieces)
    runtime.embeddings_deferred |= defer
    meta = {**meta, **({"pii": sorted(private.kinds)} if private.matches else {})}
    with runtime.db.transaction() as conn:
        file, _chunks = write_document(
            runtime,
            conn,
            uid,
            body,
            pieces,
            vectors,
            file_name=file_name.strip(),
            mime_type=mime_type,
            metadata=meta,
        )
    return file


def write_document(
    runtime: Runtime,
    conn: Conn,
    uid: str,
    body: str,
    pieces: Sequence[str],
    vectors: Any,
    *,
    file_name: str,
    mime_type: str,
    metadata: dict[str, Any],
) -> tuple[DocumentFile, list[MemoryRecord]]:
    """Inside ``conn``'s transaction: the file row, its chunk memories (``pieces``, embedded as
    ``vectors`` or backfilled later), their raw chunks and DERIVED_FROM edges. The same bytes
    already stored under the same name return the existing file and its current chunks; under
    another name they are a document of their own (issue 23 item 7)."""
    s = runtime.settings
    digest = hashlib.sha256(body.encode("utf-8")).hexdigest()
    existing = documents.find_current(conn, uid, digest, file_name)
    if existing is not None:
        where = compile_filter({"memory_type": "document", "file_id": str(existing.id)})
        return existing, memories.list_memories(conn, uid, where=where, limit=max(1, existing.chunk_count))
    file_id = uuid7()
    chunked = [chunk_turn(p, s.ingest.raw_chunk_max_chars) for p in pieces]
    raw_chunks.put_many(conn, uid, [c for tc in chunked for _, c in tc.pieces], s.ingest.raw_chunk_dir)
    file = documents.insert_file(
        conn,
        file_id=file_id,
        user_id=uid,
        file_name=file_name,
        mime_type=mime_type,
        size_bytes=len(body.encode("utf-8")),
        sha256=digest,
        chunk_count=len(pieces),
        metadata=metadata,
    )
    languages = [detect_language(piece) for piece in pieces]
    rows = [
        NewMemory(
            user_id=uid,
            memory_type=MemoryType.DOCUMENT,
            content=piece,
            content_hash=check.content_hash(piece),
            search_tokens=_tokens_of(piece, chunked[i]),
            token_count=count_tokens(piece),
            embedding=None if vectors is None else vectors[i],
            importance=s.write.default_importance,
            metadata={"file_name": file.file_name, "language": languages[i]},
            language=languages[i],
            file_id=file_id,
            chunk_index=i,
            raw_refs=(chunked[i].ref((0, len(piece))),),
        )
        for i, piece in enumerate(pieces)
    ]
    written = memories.insert_many(conn, rows, runtime.dim)
    node = graph.upsert_nodes(conn, uid, [graph.NodeInput("document", file.file_name, str(file_id))])
    node_id = node[("document", str(file_id))]
    graph.add_edges(
        conn,
        uid,
        [
            graph.EdgeInput(m.id, "memory", node_id, "node", "DERIVED_FROM", properties={"chunk_index": i})
            for i, m in enumerate(written)
        ],
    )
    return file, written


def _tokens_of(piece: str, chunks: TurnChunks) -> str:
    """The search tokens of a chunk's text: its raw chunk's, computed once, when it is one."""
    [(_, first), *rest] = chunks.pieces
    return first.search_tokens if not rest and first.text == piece else search_text(piece)


def document_status(runtime: Runtime, fid: uuid.UUID, uid: str) -> DocumentStatus:
    with runtime.db.connection() as conn:
        if documents.get_file(conn, uid, fid) is None:
            raise DocumentNotFoundError(f"no document {fid} for user {uid!r}")
        return documents.embedding_status(conn, uid, fid)


def list_documents(runtime: Runtime, uid: str, *, limit: int = 100) -> list[DocumentFile]:
    with runtime.db.connection() as conn:
        return documents.list_files(conn, uid, limit=limit)


def delete_document(runtime: Runtime, fid: uuid.UUID, uid: str) -> DocumentFile:
    with runtime.db.transaction() as conn:
        file, chunk_ids = documents.delete_file(conn, uid, fid)
        if file is None:
            raise DocumentNotFoundError(f"no document {fid} for user {uid!r}")
        graph.expire_edges_of(conn, uid, chunk_ids)
    return file
