"""``create_app``: the FastAPI application of ``memctl serve`` (issue #15).

>>> from neuromem import Memory
>>> from neuromem.service.api.app import create_app
>>> app = create_app(Memory())            # doctest: +SKIP  (then: uvicorn.run(app))

The caller owns ``memory`` (and closes it). Optional routers — the transparency web
page of ``neuromem.service.web``, or your own — are included through ``extra_routers``: each item
is an ``APIRouter`` or a ``(prefix, APIRouter)`` pair. When ``neuromem.service.web`` is importable
and defines ``build_router(service: ServiceContext) -> APIRouter``, it is mounted at
``/ui`` automatically (``include_web=False`` turns that off).
"""

from __future__ import annotations

import contextlib
import importlib
import logging
import threading
from collections.abc import AsyncIterator, Sequence
from typing import Any

from fastapi import APIRouter, FastAPI, Response
from fastapi_offline import FastAPIOffline
from starlette.routing import Route

from ... import __version__
from ...config import Settings
from ...memory import Memory
from ...store.scope import bind
from ...store.tenancy import DEFAULT_TENANT, scope_for
from . import problems
from .context import ServiceContext
from .metrics import CONTENT_TYPE
from .middleware import ServiceMiddleware
from .routes import (
    consolidation,
    documents,
    events,
    graph,
    ingest,
    lifecycle,
    memories,
    portability,
    procedures,
    recall,
    system,
    teams,
    traits,
    webhooks,
)

DESCRIPTION = """Long-term memory for LLM agents: memories, conversations, recall with citations, traits.

Authenticate with `Authorization: Bearer <key>` (`memctl keys create`). Every route acts for one
`user_id` of the key's tenant; PostgreSQL row-level security enforces it. Errors are RFC 9457
`application/problem+json`."""

log = logging.getLogger(__name__)
ExtraRouter = APIRouter | tuple[str, APIRouter]
DOCS_ASSETS = "/docs-assets"  # where the API documentation pages load their scripts and styles from


def create_app(
    memory: Memory,
    settings: Settings | None = None,
    *,
    extra_routers: Sequence[ExtraRouter] = (),
    include_web: bool = True,
    mcp_http: bool | None = None,
    warm_up: bool = True,
) -> FastAPI:
    """The app; with ``warm_up`` its start-up loads and warms the embedder (and the recall path) in a
    thread, and ``/readyz`` answers 503 until that is done (``app.state.ready``, a ``threading.Event``)."""
    settings = settings or memory.settings
    ready = threading.Event()
    service = ServiceContext(memory, settings)
    metrics = service.metrics
    mcp_server = None
    if settings.service.mcp_http if mcp_http is None else mcp_http:
        from ..mcp.server import BearerGuard, build_server

        mcp_server = build_server(service)
        mcp_app = mcp_server.streamable_http_app(
            streamable_http_path="/mcp",
            stateless_http=True,
            json_response=True,
            host=settings.service.host,
            max_request_body_size=settings.service.max_body_bytes,
        )

    proxy = _proxy(service, settings.service.proxy_upstream)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        async with contextlib.AsyncExitStack() as stack:
            if proxy is not None:
                proxy[1].client  # noqa: B018 - made now, in the serving loop: the first chat does not pay for it
                stack.push_async_callback(proxy[1].aclose)
            if mcp_server is not None:
                await stack.enter_async_context(mcp_server.session_manager.run())
            if warm_up:
                threading.Thread(
                    target=warm, args=(memory, ready), name="neuromem-warm-up", daemon=True
                ).start()
            else:
                ready.set()
            yield

    # /docs and /redoc from the Swagger UI and ReDoc files installed with fastapi-offline, never a CDN
    app = FastAPIOffline(
        title="neuromem",
        version=__version__,
        description=DESCRIPTION,
        lifespan=lifespan,
        static_url=DOCS_ASSETS,
    )
    app.state.neuromem = service
    app.state.ready = ready
    app.state.metrics = metrics
    problems.install(app)
    for router in (
        system.router,
        memories.router,
        ingest.router,
        recall.router,
        traits.router,
        system.jobs_router,
        lifecycle.router,
        graph.router,
        events.router,
        teams.router,
        documents.router,
        procedures.router,
        consolidation.router,
        portability.router,
        webhooks.router,
    ):
        app.include_router(router)

    @app.get(
        "/metrics",
        tags=["system"],
        response_class=Response,
        summary="Prometheus metrics",
        responses={200: {"content": {CONTENT_TYPE.split(";")[0]: {"schema": {"type": "string"}}}}},
    )
    def prometheus_metrics() -> Response:
        return Response(metrics.exposition(), media_type=CONTENT_TYPE)

    web = _web_router(service, include_web)
    for extra in [*web, *([proxy[0]] if proxy else []), *extra_routers]:
        prefix, router = extra if isinstance(extra, tuple) else ("", extra)
        app.include_router(router, prefix=prefix)
    # the pages `memctl serve` names in its banner
    app.state.pages = {
        "API docs": "/docs",
        **({"page": "/ui/"} if web else {}),
        **({"MCP": "/mcp"} if mcp_server is not None else {}),
        "metrics": "/metrics",
    }
    if mcp_server is not None:
        app.router.routes.append(
            Route(
                "/mcp",
                endpoint=BearerGuard(mcp_app.routes[0].endpoint, service),  # type: ignore[attr-defined]
                methods=["GET", "POST", "DELETE"],
                include_in_schema=False,
            )
        )
    app.add_middleware(ServiceMiddleware, metrics=metrics, max_body_bytes=settings.service.max_body_bytes)
    return app


WARM_UP_USER = "neuromem-warm-up"  # a user no one has: the warm-up reads nothing and writes nothing


def warm(memory: Memory, ready: threading.Event) -> None:
    """Load the embedder and build one prompt block as a request does — under a request's scope, on the service
    role's connections (their pool opens on first use) — so the first request pays for none of it; then
    ``ready``. A failure is logged and the service is ready all the same (the request will say what fails)."""
    try:
        memory.warm_up()
        with bind(scope_for(DEFAULT_TENANT, WARM_UP_USER)):
            memory.recall_prompt("warm up", user_id=WARM_UP_USER, token_budget=64)
    except Exception:
        log.exception("warming up the embedder and the recall path failed")
    finally:
        ready.set()


def _web_router(service: ServiceContext, enabled: bool) -> list[ExtraRouter]:
    if not enabled:
        return []
    try:
        web = importlib.import_module("neuromem.service.web")
    except ImportError:
        return []
    build = getattr(web, "build_router", None)
    return [] if build is None else [("/ui", build(service))]


def _proxy(service: ServiceContext, upstream: str | None) -> tuple[APIRouter, Any] | None:
    """The memory proxy's router and proxy when ``service.proxy_upstream`` is set (issue 26)."""
    if not upstream:
        return None
    from .routes.proxy import build_router

    return build_router(service, upstream)
