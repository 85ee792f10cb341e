"""``/v1/teams``: team membership (issue 26 item 2). A memory of visibility ``team`` is seen by every member
of its team in the tenant, so making members takes an admin key; listing a user's teams, a read key."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Request
from pydantic import BaseModel

from ..context import ADMIN, READ, context
from ..keys import Principal
from ..problems import ERROR_RESPONSES
from .memories import UserQuery

router = APIRouter(prefix="/v1/teams", tags=["teams"], responses=ERROR_RESPONSES)

TeamPath = Annotated[str, Path(min_length=1, max_length=255, description="The team's id")]
UserPath = Annotated[str, Path(min_length=1, max_length=255, description="The tenant's own user id")]


class Membership(BaseModel):
    team_id: str
    user_id: str
    changed: bool


@router.put("/{team_id}/members/{user_id}", response_model=Membership, summary="Add a user to a team")
async def add_member(team_id: TeamPath, user_id: UserPath, request: Request, principal: Principal = ADMIN):
    m = context(request).memory
    changed = await context(request).call(
        principal, user_id, lambda uid: m.add_team_member(team_id, user_id=uid)
    )
    return Membership(team_id=team_id, user_id=user_id, changed=changed)


@router.delete("/{team_id}/members/{user_id}", response_model=Membership, summary="Remove a user from a team")
async def remove_member(team_id: TeamPath, user_id: UserPath, request: Request, principal: Principal = ADMIN):
    m = context(request).memory
    changed = await context(request).call(
        principal, user_id, lambda uid: m.remove_team_member(team_id, user_id=uid)
    )
    return Membership(team_id=team_id, user_id=user_id, changed=changed)


@router.get("", response_model=list[str], summary="The teams a user belongs to")
async def teams_of(request: Request, user_id: UserQuery, principal: Principal = READ):
    m = context(request).memory
    return await context(request).call(principal, user_id, lambda uid: m.teams(user_id=uid))
