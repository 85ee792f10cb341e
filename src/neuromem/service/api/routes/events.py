"""``GET /v1/events``: a user's change feed (issue 26 item 5; ``neuromem.lifecycle.webhooks``)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request

from ....lifecycle.webhooks import EventKind, EventPage
from ..context import READ, context
from ..keys import Principal
from ..problems import ERROR_RESPONSES
from .memories import UserQuery

router = APIRouter(prefix="/v1", tags=["events"], responses=ERROR_RESPONSES)


@router.get("/events", response_model=EventPage, summary="A user's change feed")
async def events(
    request: Request,
    user_id: UserQuery,
    principal: Principal = READ,
    after: Annotated[str | None, Query(max_length=41, description="`next` of the previous page")] = None,
    kind: Annotated[list[EventKind] | None, Query(description="Only these kinds (repeatable)")] = None,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
):
    """Events after the cursor ``after``, oldest first: memories added, updated, invalidated, deleted,
    forgotten; conflicts opened; traits formed, changing stage, dissolved. Ids and kinds, no content."""
    m = context(request).memory
    return await context(request).call(
        principal, user_id, lambda uid: m.events(user_id=uid, after=after, kinds=kind, limit=limit)
    )
