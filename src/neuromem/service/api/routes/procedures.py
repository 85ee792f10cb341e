"""``/v1/procedures``: record a way of doing a task that worked, and list the user's procedures
(issue 26 item 4; ``Memory.record_procedure``, seed 004 §2.1 Layer 3)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request

from ....procedural.record import CATEGORY, METADATA_KEY, Procedure
from ....types import MemoryRecord, WriteResult
from ..context import READ, WRITE, context
from ..keys import Principal
from ..problems import ERROR_RESPONSES
from ..schemas import ProcedureOut, RecordProcedure
from .memories import UserQuery

router = APIRouter(prefix="/v1/procedures", tags=["procedures"], responses=ERROR_RESPONSES)


@router.post("", status_code=201, response_model=WriteResult, summary="Record a procedure that worked")
async def record(body: RecordProcedure, request: Request, principal: Principal = WRITE):
    """A new name is stored (ADD); a known one (same name) counts one more success (UPDATE). Alike tasks
    get it in the prompt block's "Proven skills"."""
    m = context(request).memory
    return await context(request).call(
        principal,
        body.user_id,
        lambda uid: m.record_procedure(
            body.name,
            body.steps,
            user_id=uid,
            preconditions=body.preconditions,
            outcome=body.outcome,
            tools=body.tools,
            metadata=body.metadata,
        ),
    )


@router.get("", response_model=list[ProcedureOut], summary="The user's procedures")
async def procedures(
    request: Request,
    user_id: UserQuery,
    principal: Principal = READ,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
):
    """Current procedures, newest first, with their steps and how often they worked."""
    m = context(request).memory
    return await context(request).call(
        principal,
        user_id,
        lambda uid: [
            procedure_out(r) for r in m.get_all(user_id=uid, filters={"category": CATEGORY}, limit=limit)
        ],
    )


def procedure_out(record: MemoryRecord) -> ProcedureOut:
    """A procedure memory as its parts."""
    p = Procedure.from_metadata(record.metadata[METADATA_KEY])
    return ProcedureOut(
        id=str(record.id),
        name=p.name,
        steps=list(p.steps),
        preconditions=list(p.preconditions),
        outcome=p.outcome,
        successes=p.successes,
        tools=list(p.tools),
        importance=record.importance,
        content=record.content,
    )
