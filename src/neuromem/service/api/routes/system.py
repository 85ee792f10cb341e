"""``/healthz``, ``/readyz`` and ``/v1/jobs`` (the operator's scheduled jobs of seed 000 §5.2)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Request
from pydantic_core import to_jsonable_python

from .... import __version__
from ....errors import PermissionDeniedError
from ....lifecycle.jobs import JOBS
from ....store import migrate
from ....store.tenancy import DEFAULT_TENANT
from ..context import ADMIN, context
from ..keys import Principal
from ..problems import ERROR_RESPONSES
from ..schemas import Health, JobRun, Jobs, Ready

router = APIRouter(tags=["system"])


@router.get("/healthz", response_model=Health, summary="The process is up")
async def healthz() -> Health:
    return Health(status="ok", version=__version__)


@router.get(
    "/readyz",
    response_model=Ready,
    responses={503: ERROR_RESPONSES[503]},
    summary="The embedder is loaded and the database answers",
)
async def readyz(request: Request) -> Ready:
    ready = getattr(request.app.state, "ready", None)
    if ready is not None and not ready.is_set():
        raise HTTPException(503, "starting: the embedder is still loading", headers={"Retry-After": "1"})
    ctx = context(request)
    db = ctx.memory.runtime.db

    def probe() -> int:
        with db.connection() as conn:
            return migrate.current_version(conn)

    version = await ctx.unscoped(probe)
    return Ready(
        status="ready", schema_version=version, database="embedded" if db.server.embedded else "external"
    )


jobs_router = APIRouter(prefix="/v1/jobs", tags=["jobs"], responses=ERROR_RESPONSES)


@jobs_router.get("", response_model=Jobs, summary="The scheduled jobs")
async def list_jobs(principal: Principal = ADMIN) -> Jobs:
    return Jobs(jobs=sorted(JOBS))


@jobs_router.post("/{name}/run", response_model=JobRun, summary="Run one scheduled job now")
async def run_job(name: str, request: Request, principal: Principal = ADMIN, dry_run: bool = False) -> JobRun:
    """Jobs work across users, so only an admin key of the ``default`` tenant (the operator) may run them.
    ``?dry_run=true`` reports what the job would change (``memctl job --dry-run``)."""
    if principal.tenant != DEFAULT_TENANT:
        raise PermissionDeniedError(
            "scheduled jobs span every tenant: use an admin key of the 'default' tenant"
        )
    ctx = context(request)
    try:
        result: Any = await ctx.unscoped(lambda: ctx.memory.run_job(name, dry_run=dry_run))
    except Exception:
        if name in JOBS:
            ctx.metrics.jobs.labels(name, "failed").inc()
        raise
    ctx.metrics.jobs.labels(name, "ok").inc()
    return JobRun(name=name, result=to_jsonable_python(result, fallback=str))
