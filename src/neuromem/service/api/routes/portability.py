"""``/v1/export``, ``/v1/import`` and ``/v1/markdown/sync``: a user's memory out and back in (issue 26 item 4;
``Memory.export``, ``Memory.import_file``, ``Memory.sync_markdown``).

An export names its user by the stored user key (``t=<tenant>/<user_id>`` outside the default tenant), so an
import is accepted only for the caller's own user. Markdown sync keeps, per user, the server's copy of
``memory.md`` and ``learnings.md`` (and the sync's base) under ``<data_dir>/markdown-sync``: the caller
sends its edited copies and gets both files back as written after the sync.
"""

from __future__ import annotations

import hashlib
import io
from pathlib import Path
from typing import Annotated, Literal

from fastapi import APIRouter, Query, Request, Response

from ....errors import InvalidInputError
from ....memory import Memory
from ....portability.format import read_export
from ....portability.importer import ImportReport
from ..context import ADMIN, READ, WRITE, context
from ..keys import Principal
from ..problems import ERROR_RESPONSES
from ..schemas import MarkdownFiles, MarkdownSync
from .memories import UserQuery

router = APIRouter(prefix="/v1", tags=["portability"], responses=ERROR_RESPONSES)

EXPORT_MEDIA = {"jsonl": "application/x-ndjson", "json": "application/json", "markdown": "text/markdown"}
IMPORT_MEDIA = ("application/x-ndjson", "application/jsonl", "application/json")
MARKDOWN_FILES = ("memory.md", "learnings.md")
SYNC_FOLDER = "markdown-sync"  # under the store's data_dir


@router.get(
    "/export",
    summary="Export a user's memory",
    response_class=Response,
    responses={
        200: {
            "content": {
                media: {"schema": {"type": "object" if fmt == "json" else "string"}}
                for fmt, media in EXPORT_MEDIA.items()
            },
            "description": "The export file",
        }
    },
)
async def export(
    request: Request,
    user_id: UserQuery,
    principal: Principal = READ,
    format: Annotated[
        Literal["jsonl", "json", "markdown"],
        Query(description="jsonl (full fidelity, importable), json (readable) or markdown (for people)"),
    ] = "jsonl",
    mask_pii: Annotated[
        bool, Query(description="For someone other than the user: personal data masked")
    ] = False,
) -> Response:
    """Everything stored for the user, from one snapshot: memories with their versions and history,
    conversations, documents, traits with their evidence."""
    m = context(request).memory

    def run(uid: str) -> str:
        out = io.StringIO()
        m.export(out, user_id=uid, format=format, mask_pii=mask_pii)
        return out.getvalue()

    text = await context(request).call(principal, user_id, run)
    suffix = "md" if format == "markdown" else format
    return Response(
        text,
        media_type=EXPORT_MEDIA[format],
        headers={"content-disposition": f'attachment; filename="neuromem-export.{suffix}"'},
    )


@router.post(
    "/import",
    response_model=ImportReport,
    summary="Import an export of this user's memory",
    openapi_extra={
        "requestBody": {
            "required": True,
            "content": {media: {"schema": {"type": "string", "format": "binary"}} for media in IMPORT_MEDIA},
        }
    },
)
async def import_export(
    request: Request,
    user_id: UserQuery,
    principal: Principal = ADMIN,
    include_forgotten: Annotated[
        bool,
        Query(description=("Bring back what a forget erased since the export (the owner's own restore)")),
    ] = False,
):
    """The body is a file from ``GET /v1/export`` (jsonl or json) of the same user; idempotent, all or nothing.
    An admin key: a file restores every table of the user as written — team memberships and forget receipts
    included — which a write key may not change otherwise."""
    media = request.headers.get("content-type", "application/x-ndjson").split(";")[0].strip().lower()
    if media not in IMPORT_MEDIA:
        raise InvalidInputError(f"content-type must be one of {', '.join(IMPORT_MEDIA)}")
    try:
        text = (await request.body()).decode("utf-8")
    except UnicodeDecodeError:
        raise InvalidInputError("the export must be UTF-8 text") from None
    m = context(request).memory

    def run(uid: str) -> ImportReport:
        header, _ = read_export(io.StringIO(text))
        if header.user_id != uid:
            raise InvalidInputError("this export is of another user: import it as that user")
        return m.import_file(io.StringIO(text), include_forgotten=include_forgotten)

    return await context(request).call(principal, user_id, run)


@router.post(
    "/markdown/sync", response_model=MarkdownFiles, summary="Two-way sync with memory.md and learnings.md"
)
async def markdown_sync(body: MarkdownSync, request: Request, principal: Principal = WRITE) -> MarkdownFiles:
    """Your added, edited and removed lines become adds, updates and deletes (history actor ``file``); both files
    come back rewritten from the memory; a line changed on both sides stays in the file, marked as a conflict."""
    ctx = context(request)
    return await ctx.call(principal, body.user_id, lambda uid: sync_files(ctx.memory, uid, body))


def sync_files(m: Memory, uid: str, body: MarkdownSync) -> MarkdownFiles:
    """``body.files`` over the user's server-side copies, one ``Memory.sync_markdown``, both files back."""
    folder = (
        m.settings.store.data_dir.expanduser() / SYNC_FOLDER / hashlib.sha256(uid.encode()).hexdigest()[:32]
    )
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in body.files.items():
        (folder / name).write_text(text, encoding="utf-8")
    report = m.sync_markdown(folder, user_id=uid, language=body.language)
    return MarkdownFiles(
        added=report.added,
        updated=report.updated,
        deleted=report.deleted,
        conflicts=report.conflicts,
        files={name: _read(folder / name) for name in MARKDOWN_FILES},
    )


def _read(path: Path) -> str:
    return path.read_text(encoding="utf-8") if path.exists() else ""
