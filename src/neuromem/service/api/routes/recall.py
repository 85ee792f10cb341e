"""``/v1/search`` (hits with score parts and an optional trace) and ``/v1/recall`` (the prompt block)."""

from __future__ import annotations

from fastapi import APIRouter, Request

from ....recall.prompt import PromptBlock
from ....types import SearchResults
from ..context import READ, context
from ..keys import Principal
from ..problems import ERROR_RESPONSES
from ..schemas import Recall, Search

router = APIRouter(prefix="/v1", tags=["recall"], responses=ERROR_RESPONSES)


@router.post("/search", response_model=SearchResults, summary="Search memories")
async def search(body: Search, request: Request, principal: Principal = READ):
    """The memories that matter for ``query``, best first, each with every score component;
    ``trace: true`` records each recall stage."""
    m = context(request).memory
    return await context(request).call(
        principal,
        body.user_id,
        lambda uid: m.search(
            body.query,
            user_id=uid,
            limit=body.limit,
            filters=body.filters,
            memory_types=body.memory_types,
            as_of=body.as_of,
            trace=body.trace,
            recipe=body.recipe,
            reference_time=body.reference_time,
            strict=body.strict,
            agent_id=body.agent_id,
            run_id=body.run_id,
            include_shared=body.include_shared,
        ),
        agent_id=body.agent_id,
        run_id=body.run_id,
    )


@router.post("/recall", response_model=PromptBlock, summary="The memory block for a system prompt")
async def recall(body: Recall, request: Request, principal: Principal = READ):
    """Recall packed into ``token_budget`` tokens: ``text`` with [n] markers, ``citations[n-1]`` for each."""
    m = context(request).memory
    return await context(request).call(
        principal,
        body.user_id,
        lambda uid: m.recall_prompt(
            body.query,
            user_id=uid,
            token_budget=body.token_budget,
            style=body.style,
            limit=body.limit,
            recipe=body.recipe,
            reference_time=body.reference_time,
            agent_id=body.agent_id,
            run_id=body.run_id,
            include_shared=body.include_shared,
        ),
        agent_id=body.agent_id,
        run_id=body.run_id,
    )
