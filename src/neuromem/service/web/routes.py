"""The memory page's router: the page itself (plain HTML, JS and CSS, no build step) and the
small JSON API it calls.

``build_router(service)`` takes the API's ``ServiceContext`` — then every call needs an API
key (``Authorization: Bearer``; reads need READ, changes WRITE) and runs in its user's
database scope through ``service.call`` — or any object with a ``memory`` attribute, for a
page served without the service (tests, a local tool), where no key is asked.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from importlib import resources
from typing import Any

from fastapi import APIRouter, Body, Depends, HTTPException, Query
from fastapi.responses import HTMLResponse, Response

from ...errors import NeuromemError
from ...memory import Memory
from . import views

STATIC = {"app.js": "text/javascript; charset=utf-8", "app.css": "text/css; charset=utf-8"}


def _asset(name: str) -> str:
    return resources.files("neuromem.service.web").joinpath("static", name).read_text(encoding="utf-8")


def build_router(service: Any) -> APIRouter:
    """The page and its API, to be mounted at ``/ui``."""
    memory: Memory = service.memory
    keyed = hasattr(service, "call")
    if keyed:
        from ..api.context import requires
        from ..api.keys import KeyScope

        read, write = Depends(requires(KeyScope.READ)), Depends(requires(KeyScope.WRITE))
    else:

        async def nobody() -> None:
            return None

        read = write = Depends(nobody)

    async def run(principal: Any, user_id: str, fn: Callable[[str], Any]) -> Any:
        try:
            if keyed:
                return await service.call(principal, user_id, fn)
            return await asyncio.to_thread(fn, user_id)  # every view calls the facade, which checks it
        except NeuromemError as exc:
            raise HTTPException(exc.http_status, f"{type(exc).__name__}: {exc}") from None

    router = APIRouter(include_in_schema=False)

    @router.get("/", response_class=HTMLResponse)
    async def page() -> HTMLResponse:
        return HTMLResponse(_asset("index.html"))

    @router.get("/static/{name}")
    async def static(name: str) -> Response:
        if name not in STATIC:
            raise HTTPException(404, "no such file")
        return Response(_asset(name), media_type=STATIC[name])

    @router.get("/api/config")
    async def config() -> dict[str, Any]:
        return {"features": views.features(memory), "key_required": keyed}

    @router.get("/api/users/{user_id}/traits")
    async def traits(user_id: str, principal: Any = read) -> Any:
        return await run(principal, user_id, lambda u: views.traits(memory, u))

    @router.get("/api/users/{user_id}/traits/{trait_id}")
    async def trait(user_id: str, trait_id: str, principal: Any = read) -> Any:
        return await run(principal, user_id, lambda u: views.trait(memory, u, trait_id))

    @router.get("/api/users/{user_id}/memories")
    async def memories(
        user_id: str, q: str | None = None, limit: int = Query(50, ge=1, le=500), principal: Any = read
    ) -> Any:
        return await run(principal, user_id, lambda u: views.memories(memory, u, q, limit))

    @router.get("/api/users/{user_id}/memories/{memory_id}")
    async def detail(user_id: str, memory_id: str, principal: Any = read) -> Any:
        return await run(principal, user_id, lambda u: views.memory_detail(memory, u, memory_id))

    @router.put("/api/users/{user_id}/memories/{memory_id}")
    async def correct(
        user_id: str, memory_id: str, content: str = Body(..., embed=True), principal: Any = write
    ) -> Any:
        def work(u: str) -> dict[str, Any]:
            record = memory.update(memory_id, user_id=u, content=content)
            return {"id": str(record.id), "content": record.content, "version": record.version}

        return await run(principal, user_id, work)

    @router.delete("/api/users/{user_id}/memories/{memory_id}")
    async def delete(user_id: str, memory_id: str, principal: Any = write) -> Any:
        return await run(
            principal, user_id, lambda u: {"deleted": str(memory.delete(memory_id, user_id=u).id)}
        )

    @router.post("/api/users/{user_id}/memories/{memory_id}/pin")
    async def pin(
        user_id: str, memory_id: str, pinned: bool = Body(True, embed=True), principal: Any = write
    ) -> Any:
        if not views.features(memory)["pin"]:
            raise HTTPException(404, "this neuromem has no pinning")
        act = memory.pin if pinned else memory.unpin  # type: ignore[attr-defined]
        return await run(
            principal, user_id, lambda u: {"id": str(act(memory_id, user_id=u).id), "pinned": pinned}
        )

    @router.post("/api/users/{user_id}/memories/{memory_id}/forget")
    async def forget(user_id: str, memory_id: str, principal: Any = write) -> Any:
        if not views.features(memory)["forget"]:
            raise HTTPException(404, "this neuromem has no forgetting")

        def work(u: str) -> dict[str, Any]:
            receipt = memory.forget(user_id=u, memory_id=memory_id)  # type: ignore[attr-defined]
            return {"forgotten": memory_id, "receipt": str(getattr(receipt, "id", ""))}

        return await run(principal, user_id, work)

    @router.get("/api/users/{user_id}/prompt")
    async def prompt(user_id: str, q: str = Query(..., min_length=1), principal: Any = read) -> Any:
        return await run(principal, user_id, lambda u: views.prompt(memory, u, q))

    return router
