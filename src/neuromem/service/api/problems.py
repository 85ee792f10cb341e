"""RFC 9457 problem details: every error of the service is ``application/problem+json``.

The status comes from the typed error's class (``NeuromemError.http_status``, the one
mapping in ``neuromem.errors``), never from its message text (STYLE.md habit 11).
Unexpected exceptions become a 500 problem whose detail reveals nothing internal
(``neuromem.service.api.middleware``, which keeps the server answering).
"""

from __future__ import annotations

import logging
import re

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from starlette.exceptions import HTTPException as StarletteHTTPException

from ...errors import NeuromemError

log = logging.getLogger("neuromem.service.api")

PROBLEM_JSON = "application/problem+json"
_TYPE_BASE = "https://neuromem.dev/problems/"


class Problem(BaseModel):
    """RFC 9457 problem details; ``type`` names the neuromem error class."""

    type: str = "about:blank"
    title: str
    status: int
    detail: str = ""
    instance: str | None = None
    errors: list[dict] | None = None  # request validation: one entry per invalid field


def _kebab(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "-", name).lower()


def problem_response(
    status: int,
    title: str,
    detail: str,
    *,
    type_: str = "about:blank",
    instance: str | None = None,
    errors: list[dict] | None = None,
) -> JSONResponse:
    body = Problem(type=type_, title=title, status=status, detail=detail, instance=instance, errors=errors)
    return JSONResponse(body.model_dump(exclude_none=True), status_code=status, media_type=PROBLEM_JSON)


def from_error(exc: NeuromemError, instance: str | None = None) -> JSONResponse:
    name = type(exc).__name__
    return problem_response(
        exc.http_status,
        _kebab(name).replace("-", " ").capitalize(),
        str(exc),
        type_=_TYPE_BASE + _kebab(name),
        instance=instance,
    )


def install(app: FastAPI) -> None:
    """Register the handlers that turn every error into problem+json."""

    @app.exception_handler(NeuromemError)
    async def _neuromem(request: Request, exc: NeuromemError) -> JSONResponse:
        if exc.http_status >= 500:
            log.warning("request failed: %s", type(exc).__name__, extra={"error": str(exc)})
        return from_error(exc, request.url.path)

    @app.exception_handler(RequestValidationError)
    async def _validation(request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = [
            {"loc": [str(p) for p in e.get("loc", ())], "msg": str(e.get("msg", ""))} for e in exc.errors()
        ]
        detail = "; ".join(f"{'.'.join(e['loc'])}: {e['msg']}" for e in errors)
        return problem_response(
            422,
            "Invalid request",
            detail,
            type_=_TYPE_BASE + "invalid-request",
            instance=request.url.path,
            errors=errors,
        )

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        response = problem_response(
            exc.status_code, str(exc.detail), str(exc.detail), instance=request.url.path
        )
        for name, value in (exc.headers or {}).items():
            response.headers[name] = value
        return response


ERROR_RESPONSES: dict[int | str, dict] = {
    status: {"model": Problem, "content": {PROBLEM_JSON: {}}, "description": text}
    for status, text in {
        400: "Bad input; nothing was written",
        401: "Missing, unknown or revoked API key",
        403: "The key's scope or bound user does not allow this",
        404: "Not found for this tenant and user",
        409: "Version conflict (optimistic locking)",
        413: "Request body too large",
        422: "Request does not match the schema",
        502: "A model provider failed",
        503: "The database is unavailable",
        504: "The request timed out",
    }.items()
}
"""The problem responses every route documents in the OpenAPI document."""
