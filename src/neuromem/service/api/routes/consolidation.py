"""``/v1/consolidate`` and ``/v1/memories/{id}/restore``: one user's consolidation now (issue 26 item 4;
seed 004 §2.2, seed 003 §6): compress old episodes, cluster concepts, archive what faded —
the per-user parts of the scheduled jobs — and bring an archived memory back."""

from __future__ import annotations

import uuid
from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel

from ....lifecycle.archive import ArchiveReport
from ....lifecycle.compress import CompressionReport
from ....lifecycle.concepts import ConceptReport
from ....memory import Memory
from ....types import MemoryRecord
from ..context import WRITE, context
from ..keys import Principal
from ..problems import ERROR_RESPONSES
from ..schemas import Consolidate, UserBody

router = APIRouter(prefix="/v1", tags=["consolidation"], responses=ERROR_RESPONSES)


class ConsolidationReport(BaseModel):
    """The report of each step that ran (None: not asked for)."""

    dry_run: bool
    compress: CompressionReport | None = None
    concepts: ConceptReport | None = None
    archive: ArchiveReport | None = None


def consolidate(m: Memory, uid: str, body: Consolidate) -> ConsolidationReport:
    """The asked steps, in the order given, for one user."""
    steps = {
        "compress": lambda: m.compress(user_id=uid, now=body.now, dry_run=body.dry_run),
        "concepts": lambda: m.consolidate_concepts(user_id=uid, dry_run=body.dry_run),
        "archive": lambda: m.archive(user_id=uid, now=body.now, dry_run=body.dry_run),
    }
    return ConsolidationReport(
        dry_run=body.dry_run, **{step: steps[step]() for step in dict.fromkeys(body.steps)}
    )


@router.post("/consolidate", response_model=ConsolidationReport, summary="Consolidate one user's memory now")
async def consolidate_user(body: Consolidate, request: Request, principal: Principal = WRITE):
    """Episodes summarised (originals archived behind the summary, citations kept), related memories
    clustered into concepts, faded memories archived."""
    m = context(request).memory
    return await context(request).call(principal, body.user_id, lambda uid: consolidate(m, uid, body))


@router.post(
    "/memories/{memory_id}/restore",
    response_model=MemoryRecord | dict[str, Any],
    summary="Bring back an archived memory or graph node",
)
async def restore(memory_id: uuid.UUID, body: UserBody, request: Request, principal: Principal = WRITE):
    m = context(request).memory
    return await context(request).call(principal, body.user_id, lambda uid: m.restore(memory_id, user_id=uid))
