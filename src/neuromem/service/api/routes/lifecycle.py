"""``/v1/forget``, ``/v1/conflicts`` and ``/v1/memories/{id}/feedback`` (issue 16): forgetting with a
receipt (seed 003 §24), the conflict review queue (§7.2) and feedback (§9.1)."""

from __future__ import annotations

import datetime as dt
import uuid
from typing import Any, Literal

from fastapi import APIRouter, Request
from pydantic import Field

from ....conflicts import Conflict
from ....lifecycle.forget import ForgetPreview, ForgetReceipt
from ....types import MemoryRecord
from ..context import READ, WRITE, context
from ..keys import Principal
from ..problems import ERROR_RESPONSES
from ..schemas import UserId, _Body
from .memories import UserQuery

router = APIRouter(prefix="/v1", tags=["lifecycle"], responses=ERROR_RESPONSES)


class ForgetBody(_Body):
    user_id: str = UserId
    memory_id: uuid.UUID | None = None
    session_id: str | None = Field(default=None, max_length=255)
    document_id: uuid.UUID | None = None
    since: dt.datetime | None = None
    until: dt.datetime | None = None
    query: str | None = Field(default=None, max_length=2000)
    entity: str | None = Field(default=None, max_length=255)
    concept: str | None = Field(default=None, max_length=255)
    agent_id: str | None = Field(
        default=None, description="A scope: every memory this agent of the user wrote"
    )
    run_id: str | None = Field(
        default=None, description="A scope: every memory of this run (with agent_id: of it)"
    )
    everything: bool = False
    dry_run: bool = False


class ResolveBody(_Body):
    user_id: str = UserId
    keep: uuid.UUID


class FeedbackBody(_Body):
    user_id: str = UserId
    kind: Literal["pin", "unpin", "upvote", "downvote"]


@router.post(
    "/forget", response_model=ForgetReceipt | ForgetPreview, summary="Forget one target, with a receipt"
)
async def forget(body: ForgetBody, request: Request, principal: Principal = WRITE):
    """Hard-deletes every trace of exactly one target (memory, session, document, time window, query,
    entity, concept, a scope — agent_id and/or run_id — or everything); ``dry_run`` previews what would go."""
    m = context(request).memory
    target: dict[str, Any] = body.model_dump(exclude={"user_id", "dry_run"})
    return await context(request).call(
        principal,
        body.user_id,
        lambda uid: m.forget(user_id=uid, dry_run=body.dry_run, actor="api", **target),
    )


@router.get("/forget/receipts", response_model=list[ForgetReceipt], summary="A user's forget receipts")
async def receipts(request: Request, user_id: UserQuery, principal: Principal = READ):
    m = context(request).memory
    return await context(request).call(principal, user_id, lambda uid: m.forget_receipts(user_id=uid))


@router.get("/conflicts", response_model=list[Conflict], summary="Conflicts between facts (the review queue)")
async def conflicts(
    request: Request,
    user_id: UserQuery,
    status: Literal["open", "auto", "resolved", "all"] = "open",
    principal: Principal = READ,
):
    m = context(request).memory
    return await context(request).call(
        principal, user_id, lambda uid: m.conflicts(user_id=uid, status=status)
    )


@router.post("/conflicts/{conflict_id}/resolve", response_model=Conflict, summary="Resolve a conflict")
async def resolve(conflict_id: uuid.UUID, body: ResolveBody, request: Request, principal: Principal = WRITE):
    m = context(request).memory
    return await context(request).call(
        principal,
        body.user_id,
        lambda uid: m.resolve_conflict(conflict_id, user_id=uid, keep=body.keep, actor="api"),
    )


@router.post("/memories/{memory_id}/feedback", response_model=MemoryRecord, summary="Pin, upvote or downvote")
async def feedback(memory_id: uuid.UUID, body: FeedbackBody, request: Request, principal: Principal = WRITE):
    m = context(request).memory
    return await context(request).call(
        principal, body.user_id, lambda uid: m.feedback(memory_id, user_id=uid, kind=body.kind)
    )
