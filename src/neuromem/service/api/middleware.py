"""The ASGI middleware in front of every route: request id, body limit, latency metric, access log, span.

Pure ASGI (no ``BaseHTTPMiddleware``), so the route runs in the same task and sees the
request's log context (``neuromem.service.api.logs``).
"""

from __future__ import annotations

import contextlib
import json
import logging
import time
import uuid
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ...errors import PayloadTooLargeError
from . import logs
from .metrics import ServiceMetrics
from .problems import PROBLEM_JSON, problem_response

log = logging.getLogger("neuromem.service.api.access")

try:  # OpenTelemetry spans when the API is installed (no-ops without an SDK configured)
    from opentelemetry import trace as _otel

    _tracer: Any = _otel.get_tracer("neuromem.service.api")
except ImportError:  # pragma: no cover - depends on the environment
    _tracer = None


class ServiceMiddleware:
    def __init__(self, app: ASGIApp, *, metrics: ServiceMetrics, max_body_bytes: int) -> None:
        self.app = app
        self.metrics = metrics
        self.max_body = max_body_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        request_id = headers.get("x-request-id", "")[:64] or uuid.uuid4().hex
        fields: dict[str, Any] = {"request_id": request_id}
        token = logs.request_fields.set(fields)
        started = time.perf_counter()
        status = 500
        length = headers.get("content-length", "")
        if length.isdigit() and int(length) > self.max_body:
            await _too_large(send, self.max_body, request_id)
            self._finish(scope, 413, started, fields)
            logs.request_fields.reset(token)
            return
        if (
            "transfer-encoding" in headers
        ):  # a chunked body announces no length: read it up to the limit first
            buffered = await _read_body(receive, self.max_body)
            if buffered is None:
                await _too_large(send, self.max_body, request_id)
                self._finish(scope, 413, started, fields)
                logs.request_fields.reset(token)
                return
            receive = _replay(buffered, receive)
        received = 0

        async def limited_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_body:
                    raise PayloadTooLargeError(f"the request body is larger than {self.max_body} bytes")
            return message

        async def tagged_send(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message.setdefault("headers", [])
                message["headers"] = [*message["headers"], (b"x-request-id", request_id.encode())]
            await send(message)

        span = (
            _tracer.start_as_current_span(f"{scope['method']} {scope['path']}")
            if _tracer is not None
            else contextlib.nullcontext()
        )
        started_response = False

        async def tracked_send(message: Message) -> None:
            nonlocal started_response
            started_response = started_response or message["type"] == "http.response.start"
            await tagged_send(message)

        try:
            with span as current:
                try:
                    await self.app(scope, limited_receive, tracked_send)
                except Exception:  # a bug, not a typed error: answer 500 problem+json, keep serving
                    log.exception("unexpected error on %s %s", scope["method"], scope["path"])
                    if started_response:
                        raise
                    await problem_response(
                        500,
                        "Internal error",
                        "the server failed unexpectedly; see its log",
                        instance=scope["path"],
                    )(scope, receive, tracked_send)
                if current is not None:
                    current.set_attribute("http.response.status_code", status)
                    current.set_attribute("neuromem.request_id", request_id)
        finally:
            self._finish(scope, status, started, fields)
            logs.request_fields.reset(token)

    def _finish(self, scope: Scope, status: int, started: float, fields: dict[str, Any]) -> None:
        elapsed = time.perf_counter() - started
        route = getattr(scope.get("route"), "path", None) or (
            "/mcp" if scope["path"].startswith("/mcp") else "unmatched"
        )
        self.metrics.requests.labels(scope["method"], route, str(status)).observe(elapsed)
        log.info(
            "%s %s %s",
            scope["method"],
            route,
            status,
            extra={"status": status, "route": route, "ms": round(elapsed * 1000, 2)},
        )
        del fields


async def _read_body(receive: Receive, limit: int) -> list[Message] | None:
    """The request's messages up to the end of its body, or None once the body passes ``limit``
    bytes (issue 23 item 7: a 20 MiB chunked body got 400 — the route's body parser turned the
    limit's error into "malformed body" — instead of 413). At most ``limit`` bytes are held."""
    messages: list[Message] = []
    size = 0
    while True:
        message = await receive()
        messages.append(message)
        if message["type"] != "http.request":
            return messages
        size += len(message.get("body", b""))
        if size > limit:
            return None
        if not message.get("more_body", False):
            return messages


def _replay(messages: list[Message], receive: Receive) -> Receive:
    """A ``receive`` that gives ``messages`` first, then whatever the client sends next (a disconnect)."""
    pending = list(messages)

    async def replayed() -> Message:
        return pending.pop(0) if pending else await receive()

    return replayed


async def _too_large(send: Send, limit: int, request_id: str) -> None:
    body = json.dumps(
        {
            "type": "https://neuromem.dev/problems/payload-too-large-error",
            "title": "Payload too large",
            "status": 413,
            "detail": f"the request body is larger than {limit} bytes",
        }
    ).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [
                (b"content-type", PROBLEM_JSON.encode()),
                (b"content-length", str(len(body)).encode()),
                (b"x-request-id", request_id.encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
