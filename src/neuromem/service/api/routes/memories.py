"""``/v1/memories``: add, get, list (filters, ``as_of``), update (``If-Match``), delete, history, sources."""

from __future__ import annotations

import datetime as dt
import json
import uuid
from typing import Annotated

from fastapi import APIRouter, Header, Query, Request

from ....errors import InvalidFilterError, InvalidInputError
from ....ingest.provenance import Provenance
from ....types import HistoryEntry, MemoryRecord, WriteResult
from ..context import READ, WRITE, context
from ..keys import Principal
from ..problems import ERROR_RESPONSES
from ..schemas import AddMemory, UpdateMemory

router = APIRouter(prefix="/v1/memories", tags=["memories"], responses=ERROR_RESPONSES)

UserQuery = Annotated[str, Query(min_length=1, max_length=255, description="The tenant's own user id")]


@router.post("", status_code=201, response_model=list[WriteResult], summary="Add one memory")
async def add_memory(body: AddMemory, request: Request, principal: Principal = WRITE):
    """Store one memory as given; the result says ADD, NOOP (already known) or UPDATE (new version)."""
    m = context(request).memory
    return await context(request).call(
        principal,
        body.user_id,
        lambda uid: m.add(
            body.content,
            user_id=uid,
            memory_type=body.memory_type,
            metadata=body.metadata,
            importance=body.importance,
            category=body.category,
            valid_at=body.valid_at,
            invalid_at=body.invalid_at,
            tags=body.tags,
            agent_id=body.agent_id,
            run_id=body.run_id,
            visibility=body.visibility,
            team_id=body.team_id,
        ),
        agent_id=body.agent_id,
        run_id=body.run_id,
    )


@router.get("", response_model=list[MemoryRecord], summary="List memories")
async def list_memories(
    request: Request,
    user_id: UserQuery,
    principal: Principal = READ,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
    as_of: dt.datetime | None = None,
    include_inactive: bool = False,
    filters: Annotated[
        str | None, Query(max_length=4096, description="A JSON filter object (see the SDK)")
    ] = None,
    agent_id: Annotated[str | None, Query(description="List as this agent of the user")] = None,
    run_id: Annotated[str | None, Query(description="List as this run")] = None,
    include_shared: Annotated[
        bool, Query(description="With other users' team (of the user's teams) and public memories")
    ] = False,
):
    """Current memories, newest first; ``as_of`` travels back in time; ``filters`` as in ``Memory.get_all``."""
    parsed = _filters(filters)
    m = context(request).memory
    return await context(request).call(
        principal,
        user_id,
        lambda uid: m.get_all(
            user_id=uid,
            filters=parsed,
            limit=limit,
            offset=offset,
            as_of=as_of,
            include_inactive=include_inactive,
            agent_id=agent_id,
            run_id=run_id,
            include_shared=include_shared,
        ),
        agent_id=agent_id,
        run_id=run_id,
    )


@router.get("/{memory_id}", response_model=MemoryRecord, summary="Get one memory")
async def get_memory(memory_id: uuid.UUID, request: Request, user_id: UserQuery, principal: Principal = READ):
    m = context(request).memory
    return await context(request).call(principal, user_id, lambda uid: m.get(memory_id, user_id=uid))


@router.patch("/{memory_id}", response_model=MemoryRecord, summary="Update a memory")
async def update_memory(
    memory_id: uuid.UUID,
    body: UpdateMemory,
    request: Request,
    principal: Principal = WRITE,
    if_match: Annotated[str | None, Header(description='The version you read, e.g. "3"')] = None,
):
    """New content makes a new version superseding the old one; a stale version gets 409."""
    expected = body.expected_version if if_match is None else _version(if_match)
    m = context(request).memory
    return await context(request).call(
        principal,
        body.user_id,
        lambda uid: m.update(
            memory_id,
            user_id=uid,
            content=body.content,
            metadata=body.metadata,
            importance=body.importance,
            valid_at=body.valid_at,
            ends_previous=body.ends_previous,
            expected_version=expected,
            tags=body.tags,
        ),
    )


@router.delete("/{memory_id}", response_model=MemoryRecord, summary="Delete a memory (soft)")
async def delete_memory(
    memory_id: uuid.UUID, request: Request, user_id: UserQuery, principal: Principal = WRITE
):
    m = context(request).memory
    return await context(request).call(principal, user_id, lambda uid: m.delete(memory_id, user_id=uid))


@router.get("/{memory_id}/history", response_model=list[HistoryEntry], summary="History of a memory")
async def memory_history(
    memory_id: uuid.UUID, request: Request, user_id: UserQuery, principal: Principal = READ
):
    m = context(request).memory
    return await context(request).call(principal, user_id, lambda uid: m.history(memory_id, user_id=uid))


@router.get("/{memory_id}/sources", response_model=Provenance, summary="Where a memory came from")
async def memory_sources(
    memory_id: uuid.UUID, request: Request, user_id: UserQuery, principal: Principal = READ
):
    m = context(request).memory
    return await context(request).call(principal, user_id, lambda uid: m.sources(memory_id, user_id=uid))


def _filters(text: str | None) -> dict | None:
    if text is None:
        return None
    try:
        value = json.loads(text)
    except ValueError as exc:
        raise InvalidFilterError(f"filters is not JSON: {exc}") from None
    if not isinstance(value, dict):
        raise InvalidFilterError("filters must be a JSON object")
    return value


def _version(header: str) -> int:
    text = header.strip().removeprefix("W/").strip('"')
    if not text.isdigit() or not 0 < int(text) < 2**31:
        raise InvalidInputError(f'If-Match must be a memory version such as "3", got {header!r}')
    return int(text)
