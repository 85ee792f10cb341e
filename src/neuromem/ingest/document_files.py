"""PDF, DOCX and HTML files as documents (issue 27 item 4): read into sections (``ingest.readers``),
each section chunked on its own so that every chunk has one page or section, written like a text
document (``ingest.documents.write_document``), and each chunk's reference kept in its
``metadata.source_ref`` — ``{"page": 3}`` or ``{"section": "Pricing"}`` — for citations."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .. import validation as check
from ..core import Runtime
from ..errors import InvalidInputError
from ..store import chunk_refs
from ..store.documents import DocumentFile
from ..text.pii import apply_pii_policy
from .documents import chunk_document, write_document
from .readers import mime_of, read_sections


def add_document_file(
    runtime: Runtime,
    data: bytes,
    *,
    user_id: str,
    file_name: Any,
    mime_type: str | None = None,
    metadata: Mapping[str, Any] | None = None,
    background: bool | None = None,
) -> DocumentFile:
    s = runtime.settings
    uid = user_id  # checked by the facade
    if not isinstance(file_name, str) or not file_name.strip() or len(file_name) > 255:
        raise InvalidInputError("file_name must be a non-empty string of at most 255 characters")
    if background is not None and not isinstance(background, bool):
        raise InvalidInputError(f"background must be a boolean or None, got {background!r}")
    meta = check.metadata(metadata) if metadata is not None else {}
    mime = mime_type if mime_type is not None else mime_of(file_name)
    pieces: list[str] = []
    refs: list[dict[str, Any]] = []
    kinds: set[str] = set()
    texts = []
    for section in read_sections(data, mime):
        private = apply_pii_policy(section.text, s.ingest.pii_mode)
        kinds |= set(private.kinds)
        texts.append(private.text)
        for chunk in chunk_document(private.text, s.ingest.document_chunk_tokens):
            pieces.append(chunk)
            refs.append(section.ref)
    body = "\n\n".join(texts)
    if len(body) > s.ingest.document_max_chars:
        raise InvalidInputError(
            f"document longer than ingest.document_max_chars ({s.ingest.document_max_chars})"
        )
    check.storable(body, "document text")
    check.storable(file_name, "file_name")
    defer = len(body) > s.ingest.document_background_chars if background is None else background
    vectors = None if defer else runtime.embed_passages(pieces)
    runtime.embeddings_deferred |= defer
    meta = {**meta, **({"pii": sorted(kinds)} if kinds else {})}
    with runtime.db.transaction() as conn:
        file, chunks = write_document(
            runtime,
            conn,
            uid,
            body,
            pieces,
            vectors,
            file_name=file_name.strip(),
            mime_type=mime,
            metadata=meta,
        )
        if not any(
            "source_ref" in c.metadata for c in chunks
        ):  # new chunks, in order (else: the same bytes again)
            chunk_refs.set_refs(conn, uid, [(c.id, ref) for c, ref in zip(chunks, refs, strict=True)])
    return file
