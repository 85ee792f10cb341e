"""``/v1/traits``: what the system believes about a user, with the evidence; correct or delete it
(seed 001 §8.2 "Trait Transparency"); ``/v1/reflect`` runs a reflection cycle now."""

from __future__ import annotations

import uuid

from fastapi import APIRouter, Request

from ....reflect.engine import ReflectionReport
from ....reflect.service import TraitDetail, TraitGroups
from ....types import MemoryRecord
from ..context import READ, WRITE, context
from ..keys import Principal
from ..problems import ERROR_RESPONSES
from ..schemas import CorrectTrait, UserBody
from .memories import UserQuery

router = APIRouter(prefix="/v1", tags=["traits"], responses=ERROR_RESPONSES)


@router.get("/traits", response_model=TraitGroups, summary="A user's traits, grouped")
async def list_traits(request: Request, user_id: UserQuery, principal: Principal = READ):
    m = context(request).memory
    return await context(request).call(principal, user_id, lambda uid: m.traits(user_id=uid))


@router.get("/traits/{trait_id}", response_model=TraitDetail, summary="One trait with its evidence chain")
async def trait_detail(
    trait_id: uuid.UUID, request: Request, user_id: UserQuery, principal: Principal = READ
):
    m = context(request).memory
    return await context(request).call(principal, user_id, lambda uid: m.trait(trait_id, user_id=uid))


@router.post("/traits/{trait_id}/correct", response_model=MemoryRecord, summary="Correct a trait")
async def correct_trait(
    trait_id: uuid.UUID, body: CorrectTrait, request: Request, principal: Principal = WRITE
):
    """The user's own wording replaces the trait's statement as a new version (history keeps the old)."""
    m = context(request).memory

    def run(uid: str) -> MemoryRecord:
        m.trait(trait_id, user_id=uid)  # 404 unless it is one of this user's traits
        return m.update(trait_id, user_id=uid, content=body.content)

    return await context(request).call(principal, body.user_id, run)


@router.delete("/traits/{trait_id}", response_model=MemoryRecord, summary="Delete a trait")
async def delete_trait(
    trait_id: uuid.UUID, request: Request, user_id: UserQuery, principal: Principal = WRITE
):
    m = context(request).memory

    def run(uid: str) -> MemoryRecord:
        m.trait(trait_id, user_id=uid)
        return m.delete(trait_id, user_id=uid)

    return await context(request).call(principal, user_id, run)


@router.post("/reflect", response_model=ReflectionReport, summary="Run a reflection cycle now")
async def reflect(body: UserBody, request: Request, principal: Principal = WRITE):
    m = context(request).memory
    return await context(request).call(principal, body.user_id, lambda uid: m.reflect(user_id=uid))
