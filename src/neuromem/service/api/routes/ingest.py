"""``/v1/ingest``, ``/v1/sessions/{id}/end``, ``/v1/imports``: conversations in; ``/v1/documents``."""

from __future__ import annotations

import tempfile
import uuid
from pathlib import Path
from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.encoders import jsonable_encoder
from fastapi.responses import JSONResponse

from ....errors import InvalidInputError
from ....ingest.async_jobs import IngestJob
from ....ingest.chat_export import ImportSummary
from ....ingest.pipeline import IngestReport, SessionEnd
from ....store.documents import DocumentFile
from ..context import READ, WRITE, context
from ..keys import Principal
from ..problems import ERROR_RESPONSES
from ..schemas import AddDocument, IngestTurns, UserBody
from .memories import UserQuery

router = APIRouter(prefix="/v1", tags=["ingest"], responses=ERROR_RESPONSES)

_EXPORT_TYPES = {"application/json": ".json", "application/x-ndjson": ".jsonl", "application/jsonl": ".jsonl"}


@router.post(
    "/ingest",
    response_model=IngestReport,
    summary="Ingest conversation turns",
    responses={202: {"model": IngestJob, "description": "Queued (`async=true`): poll `/v1/jobs/{id}`"}},
)
async def ingest(
    body: IngestTurns,
    request: Request,
    principal: Principal = WRITE,
    run_async: Annotated[bool, Query(alias="async")] = False,
):
    """Turns → raw chunks → extraction → ADD/UPDATE/NOOP decisions, with drops counted by reason.
    ``async=true``: the batch is stored on the job queue and 202 returns its job at once (issue 27)."""
    messages = [t.model_dump(exclude_none=True) for t in body.messages]
    m = context(request).memory
    result = await context(request).call(
        principal,
        body.user_id,
        lambda uid: m.ingest(
            messages,
            user_id=uid,
            session_id=body.session_id,
            metadata=body.metadata,
            wait=not run_async,
            agent_id=body.agent_id,
            run_id=body.run_id,
            visibility=body.visibility,
            team_id=body.team_id,
        ),
        agent_id=body.agent_id,
        run_id=body.run_id,
    )
    return JSONResponse(jsonable_encoder(result), status_code=202) if run_async else result


@router.get("/jobs/{job_id}", response_model=IngestJob, summary="Progress and result of an async ingest")
async def job_status(job_id: uuid.UUID, request: Request, user_id: UserQuery, principal: Principal = READ):
    m = context(request).memory
    return await context(request).call(principal, user_id, lambda uid: m.job_status(job_id, user_id=uid))


@router.post("/sessions/{session_id}/end", response_model=SessionEnd, summary="End a conversation session")
async def end_session(session_id: str, body: UserBody, request: Request, principal: Principal = WRITE):
    m = context(request).memory
    return await context(request).call(
        principal, body.user_id, lambda uid: m.end_session(user_id=uid, session_id=session_id)
    )


@router.post(
    "/imports",
    response_model=ImportSummary,
    summary="Upload a chat export (JSON or JSON Lines)",
    openapi_extra={
        "requestBody": {
            "required": True,
            "content": {t: {"schema": {"type": "string", "format": "binary"}} for t in _EXPORT_TYPES},
        }
    },
)
async def import_chat_export(request: Request, user_id: UserQuery, principal: Principal = WRITE):
    """The body is the export file itself; a repeated upload resumes without duplicates."""
    media = request.headers.get("content-type", "application/json").split(";")[0].strip().lower()
    if media not in _EXPORT_TYPES:
        raise InvalidInputError(f"content-type must be one of {', '.join(_EXPORT_TYPES)}")
    data = await request.body()
    m = context(request).memory

    def run(uid: str) -> ImportSummary:
        with tempfile.TemporaryDirectory(prefix="neuromem-import-") as tmp:
            path = Path(tmp) / f"upload{_EXPORT_TYPES[media]}"
            path.write_bytes(data)
            return m.import_chat_export(path, user_id=uid)

    return await context(request).call(principal, user_id, run)


@router.post(
    "/documents",
    status_code=201,
    response_model=DocumentFile,
    tags=["documents"],
    summary="Add a text or markdown document",
)
async def add_document(body: AddDocument, request: Request, principal: Principal = WRITE):
    m = context(request).memory
    return await context(request).call(
        principal,
        body.user_id,
        lambda uid: m.add_document(
            body.text, user_id=uid, file_name=body.file_name, mime_type=body.mime_type, metadata=body.metadata
        ),
    )


@router.get("/documents", response_model=list[DocumentFile], tags=["documents"], summary="List documents")
async def list_documents(
    request: Request,
    user_id: UserQuery,
    principal: Principal = READ,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
):
    m = context(request).memory
    return await context(request).call(
        principal, user_id, lambda uid: m.list_documents(user_id=uid, limit=limit)
    )


@router.delete(
    "/documents/{file_id}",
    response_model=DocumentFile,
    tags=["documents"],
    summary="Delete a document and its chunks",
)
async def delete_document(
    file_id: uuid.UUID, request: Request, user_id: UserQuery, principal: Principal = WRITE
):
    m = context(request).memory
    return await context(request).call(
        principal, user_id, lambda uid: m.delete_document(file_id, user_id=uid)
    )
