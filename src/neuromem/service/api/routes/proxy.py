"""The memory proxy (issue 26 item 1): ``POST /v1/chat/completions`` in OpenAI's wire format.

``memctl serve --proxy UPSTREAM_URL`` puts neuromem in front of any OpenAI-compatible model:

1. the user is the request's ``user`` field, else the ``X-Neuromem-User`` header, else the
   user the neuromem key is bound to (a bound key refuses any other user);
2. recall for the last user message; its prompt block goes into a system message
   (``chat_wire.with_memory``);
3. the request goes to ``UPSTREAM_URL/chat/completions`` with the caller's own upstream key
   (its ``Authorization`` header), and the answer comes back unchanged, streamed or not;
4. the exchange is ingested after the answer is sent.

The neuromem key travels in ``X-Neuromem-Key`` (``Authorization`` belongs to the upstream);
a bearer token starting with ``nmk_`` is taken as the neuromem key when that header is absent,
and then nothing is sent upstream as ``Authorization``.

A failing recall or ingest never breaks the chat: it goes through without memory and
``neuromem_proxy_degraded_total{stage}`` counts it. An unreachable or failing (5xx) upstream
is a 502 problem naming it; a malformed request a 400 in OpenAI's error shape; neither
stores anything. The upstream's own 4xx answers pass through unchanged, and store nothing.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator
from typing import Any

import httpx
from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse, StreamingResponse
from starlette.background import BackgroundTask

from ....errors import ConfigError, InvalidInputError, LLMError, PermissionDeniedError
from ..chat_wire import StreamCollector, WireError, answer_text, last_user_text, parse_request, with_memory
from ..context import ServiceContext
from ..keys import KeyScope, Principal

log = logging.getLogger("neuromem.service.api.proxy")

KEY_HEADER = "x-neuromem-key"
USER_HEADER = "x-neuromem-user"
SESSION_HEADER = "x-neuromem-session"
_FORWARDED_HEADERS = ("openai-organization", "openai-project", "anthropic-version")


class MemoryProxy:
    """One upstream, one pooled HTTP client (made on first use in the serving event loop)."""

    def __init__(self, service: ServiceContext, upstream: str) -> None:
        if not upstream.startswith(("http://", "https://")):
            raise ConfigError(
                f"the proxy's upstream must be an http(s) base URL such as https://api.openai.com/v1, "
                f"got {upstream!r}"
            )
        self.service = service
        self.upstream = upstream.rstrip("/")
        self.endpoint = f"{self.upstream}/chat/completions"
        self._client: httpx.AsyncClient | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    @property
    def client(self) -> httpx.AsyncClient:
        loop = asyncio.get_running_loop()
        if self._client is None or self._loop is not loop:  # a test client may run several loops
            timeout = self.service.settings.service.request_timeout_s
            self._client = httpx.AsyncClient(timeout=httpx.Timeout(timeout, connect=min(10.0, timeout)))
            self._loop = loop
        return self._client

    async def aclose(self) -> None:
        if self._client is not None:
            await self._client.aclose()
            self._client = None

    async def chat(self, request: Request) -> Response:
        try:
            body = parse_request(await request.body())
        except WireError as exc:
            return JSONResponse(exc.body(), status_code=400)
        principal, upstream_auth = await self._principal(request)
        try:
            user_id = self._user(body, request, principal)
        except WireError as exc:
            return JSONResponse(exc.body(), status_code=400)
        query = last_user_text(body["messages"])
        block = await self._recall(principal, user_id, query) if query else ""
        forwarded = {**body, "messages": with_memory(body["messages"], block)}
        headers = self._headers(request, upstream_auth)
        exchange = Exchange(self, principal, user_id, query, request.headers.get(SESSION_HEADER))
        if body.get("stream"):
            return await self._stream(forwarded, headers, exchange)
        return await self._once(forwarded, headers, exchange)

    # -- the steps --------------------------------------------------------------------------------

    async def _principal(self, request: Request) -> tuple[Principal, str | None]:
        """The neuromem principal and the ``Authorization`` header to send upstream."""
        auth = request.headers.get("authorization")
        token = request.headers.get(KEY_HEADER)
        if token is None and auth and auth.lower().startswith("bearer nmk_"):
            token, auth = auth.split(None, 1)[1], None
        principal = await self.service.authenticate(token)
        if principal.scope < KeyScope.WRITE:
            raise PermissionDeniedError(
                f"this API key has scope {principal.scope.label}; write is needed "
                "(the proxy stores each exchange)"
            )
        request.state.principal = principal
        return principal, auth

    def _user(self, body: dict[str, Any], request: Request, principal: Principal) -> str:
        user_id = body.get("user") or request.headers.get(USER_HEADER) or principal.bound_user
        if not user_id:
            raise WireError(
                "whose memory? set 'user' in the request, the X-Neuromem-User header, or use a key "
                "bound to a user",
                "user",
            )
        try:
            self.service.user_key(principal, user_id)  # a bound key refuses another user (403)
        except InvalidInputError as exc:
            raise WireError(str(exc), "user") from None
        return str(user_id)

    async def _recall(self, principal: Principal, user_id: str, query: str) -> str:
        settings = self.service.settings.service
        memory = self.service.memory
        try:
            block = await asyncio.wait_for(
                self.service.call(
                    principal,
                    user_id,
                    lambda uid: memory.recall_prompt(
                        query, user_id=uid, token_budget=settings.proxy_token_budget
                    ),
                ),
                settings.proxy_recall_timeout_s,
            )
        except Exception as exc:  # never break the chat: go on without memory, and count it
            self._degraded("recall", exc)
            return ""
        return str(block["text"] if isinstance(block, dict) else block.text)

    def _headers(self, request: Request, upstream_auth: str | None) -> dict[str, str]:
        headers = {
            "content-type": "application/json",
            "accept": request.headers.get("accept", "application/json"),
        }
        if upstream_auth:
            headers["authorization"] = upstream_auth
        for name in _FORWARDED_HEADERS:
            if name in request.headers:
                headers[name] = request.headers[name]
        return headers

    async def _once(self, body: dict[str, Any], headers: dict[str, str], exchange: Exchange) -> Response:
        try:
            reply = await self.client.post(self.endpoint, content=json.dumps(body).encode(), headers=headers)
        except httpx.HTTPError as exc:
            raise self._unreachable(exc) from None
        self._check(reply)
        task = None
        if reply.is_success:
            try:
                task = BackgroundTask(exchange.remember, answer_text(reply.json()))
            except ValueError:
                task = None
        return Response(
            reply.content,
            status_code=reply.status_code,
            background=task,
            media_type=reply.headers.get("content-type", "application/json"),
        )

    async def _stream(self, body: dict[str, Any], headers: dict[str, str], exchange: Exchange) -> Response:
        request = self.client.build_request(
            "POST", self.endpoint, content=json.dumps(body).encode(), headers=headers
        )
        try:
            reply = await self.client.send(request, stream=True)
        except httpx.HTTPError as exc:
            raise self._unreachable(exc) from None
        if not reply.is_success:
            try:
                await reply.aread()
            except httpx.HTTPError as exc:
                raise self._unreachable(exc) from None
            finally:
                await reply.aclose()
            self._check(reply)
            return Response(
                reply.content,
                status_code=reply.status_code,
                media_type=reply.headers.get("content-type", "application/json"),
            )
        collector = StreamCollector()

        async def relay() -> AsyncIterator[bytes]:
            try:
                async for chunk in reply.aiter_bytes():  # decoded: no Content-Encoding is passed on
                    collector.feed(chunk)
                    yield chunk
            except httpx.HTTPError as exc:  # the upstream broke off mid-answer: end the stream, store nothing
                self.service.metrics.proxy_upstream_errors.inc()
                log.warning("upstream %s broke off a streamed answer: %s", self.upstream, type(exc).__name__)
            finally:
                await reply.aclose()

        async def remember() -> None:
            if collector.done:
                await exchange.remember(collector.text)

        return StreamingResponse(
            relay(),
            status_code=reply.status_code,
            background=BackgroundTask(remember),
            media_type=reply.headers.get("content-type", "text/event-stream"),
        )

    def _check(self, reply: httpx.Response) -> None:
        if reply.status_code >= 500:
            self.service.metrics.proxy_upstream_errors.inc()
            raise LLMError(f"the upstream model {self.endpoint} answered {reply.status_code}")

    def _unreachable(self, exc: httpx.HTTPError) -> LLMError:
        self.service.metrics.proxy_upstream_errors.inc()
        reason = (
            "timed out"
            if isinstance(exc, httpx.TimeoutException)
            else f"is unreachable ({type(exc).__name__})"
        )
        return LLMError(f"the upstream model {self.endpoint} {reason}")

    def _degraded(self, stage: str, exc: BaseException) -> None:
        self.service.metrics.proxy_degraded.labels(stage).inc()
        log.warning("proxy %s failed; the chat goes on without it: %s", stage, type(exc).__name__)


class Exchange:
    """One proxied exchange, stored after the answer is sent."""

    def __init__(
        self, proxy: MemoryProxy, principal: Principal, user_id: str, question: str, session_id: str | None
    ) -> None:
        self.proxy, self.principal, self.user_id = proxy, principal, user_id
        self.question, self.session_id = question, session_id

    async def remember(self, answer: str) -> None:
        if not self.question:
            return
        turns = [{"role": "user", "content": self.question}]
        if answer.strip():
            turns.append({"role": "assistant", "content": answer})
        memory, session = self.proxy.service.memory, self.session_id
        try:
            await self.proxy.service.call(
                self.principal,
                self.user_id,
                lambda uid: memory.ingest(turns, user_id=uid, session_id=session, strict=True),
            )
        except Exception as exc:  # the answer is already with the caller: count it, never raise
            self.proxy._degraded("ingest", exc)


def build_router(service: ServiceContext, upstream: str) -> tuple[APIRouter, MemoryProxy]:
    """The proxy's router (to include in the app) and the proxy (to close on shutdown)."""
    proxy = MemoryProxy(service, upstream)
    router = APIRouter(tags=["proxy"])
    router.add_api_route(
        "/v1/chat/completions",
        proxy.chat,
        methods=["POST"],
        summary="Chat with memory (proxy)",
        description=__doc__,
        response_class=Response,
    )
    return router, proxy
