"""``/v1/documents/upload`` and ``/v1/documents/{id}/status``: a PDF, DOCX, HTML or text file as a document,
and how far its embedding has come (issue 26 item 4; ``Memory.add_document_file``, ``Memory.document_status``).
Text sent as JSON is ``POST /v1/documents`` (``routes.ingest``)."""

from __future__ import annotations

import uuid
from typing import Annotated

from fastapi import APIRouter, Query, Request

from ....errors import InvalidInputError
from ....types import DocumentFile, DocumentStatus
from ..context import READ, WRITE, context
from ..keys import Principal
from ..problems import ERROR_RESPONSES
from ..schemas import DocumentProgress
from .memories import UserQuery

router = APIRouter(prefix="/v1/documents", tags=["documents"], responses=ERROR_RESPONSES)

UPLOAD_MEDIA = (
    "application/pdf",
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    "text/html",
    "text/markdown",
    "text/plain",
    "application/octet-stream",
)


@router.post(
    "/upload",
    status_code=201,
    response_model=DocumentFile,
    summary="Upload a file as a document",
    openapi_extra={
        "requestBody": {
            "required": True,
            "content": {media: {"schema": {"type": "string", "format": "binary"}} for media in UPLOAD_MEDIA},
        }
    },
)
async def upload(
    request: Request,
    user_id: UserQuery,
    file_name: Annotated[str, Query(min_length=1, max_length=255, description="e.g. contract.pdf")],
    principal: Principal = WRITE,
):
    """The body is the file itself. Its chunks keep their page or section in ``metadata.source_ref``; a long
    file returns at once, searchable by full text, and is embedded in the background (poll its status)."""
    media = request.headers.get("content-type", "application/octet-stream").split(";")[0].strip().lower()
    data = await request.body()
    if not data:
        raise InvalidInputError("the body is empty: send the file's bytes")
    mime = None if media == "application/octet-stream" else media
    m = context(request).memory
    return await context(request).call(
        principal,
        user_id,
        lambda uid: m.add_document_file(data, user_id=uid, file_name=file_name, mime_type=mime),
    )


@router.get(
    "/{file_id}/status", response_model=DocumentProgress, summary="How far a document's embedding has come"
)
async def status(file_id: uuid.UUID, request: Request, user_id: UserQuery, principal: Principal = READ):
    m = context(request).memory
    return await context(request).call(
        principal, user_id, lambda uid: progress(m.document_status(file_id, user_id=uid))
    )


def progress(found: DocumentStatus) -> DocumentProgress:
    return DocumentProgress(
        file_id=str(found.file_id),
        chunks=found.chunks,
        embedded=found.embedded,
        failed=found.failed,
        pending=found.pending,
        state=found.state,  # type: ignore[arg-type]
        progress=found.progress,
    )
