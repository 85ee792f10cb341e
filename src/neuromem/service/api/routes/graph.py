"""``GET /v1/memories/{id}/related``: a memory's neighbours in the graph and the kinds of the edges (issue 26)."""

from __future__ import annotations

import uuid
from typing import Annotated

from fastapi import APIRouter, Query, Request

from ....recall.related import Related
from ..context import READ, context
from ..keys import Principal
from ..problems import ERROR_RESPONSES
from .memories import UserQuery

router = APIRouter(prefix="/v1/memories", tags=["memories"], responses=ERROR_RESPONSES)


@router.get("/{memory_id}/related", response_model=Related, summary="A memory's neighbours in the graph")
async def related(
    memory_id: uuid.UUID,
    request: Request,
    user_id: UserQuery,
    principal: Principal = READ,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
):
    """Memories, entities and concepts joined to this memory by a current edge, heaviest first, each with
    the edge's kind (MENTIONS, ABOUT, SIMILAR_TO, SUPPORTS, CONTRADICTS…) and direction."""
    m = context(request).memory
    return await context(request).call(
        principal, user_id, lambda uid: m.related(memory_id, user_id=uid, limit=limit)
    )
