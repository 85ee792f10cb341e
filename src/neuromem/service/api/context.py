"""What every route shares: the one ``Memory``, key checks, and running a call in its user's scope.

``ServiceContext.call`` is the single door from a request to the library: it checks the
key's bound user, binds the request's database scope (``neuromem.store.scope``: RLS
role and user for each transaction), runs the blocking call in a worker thread under the
request timeout, and translates stored user keys back to the tenant's own user ids.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic_core import to_jsonable_python

from ... import validation as check
from ...config import Settings
from ...errors import AuthenticationError, NeuromemError, PermissionDeniedError, RequestTimeoutError
from ...ingest.chat_export import ImportSummary
from ...ingest.pipeline import IngestReport
from ...memory import Memory
from ...recall.prompt import PromptBlock
from ...store.scope import bind
from ...store.tenancy import DEFAULT_TENANT, external_user_id, scope_for
from ...types import SearchResults
from . import logs
from .keys import KeyScope, KeyStore, Principal

T = TypeVar("T")

bearer = HTTPBearer(auto_error=False, description="An API key from `memctl keys create`")
_BEARER = Depends(bearer)


class ServiceContext:
    """The service's one ``Memory`` with its keys and metrics; routers (and ``neuromem.service.web``) use ``call``."""

    def __init__(self, memory: Memory, settings: Settings) -> None:
        from .metrics import ServiceMetrics

        self.memory = memory
        self.settings = settings
        self.keys = KeyStore(memory.runtime.db, clock=memory.runtime.now)
        self.metrics = ServiceMetrics(memory)

    def observe(self, result: Any) -> None:
        """Feed the metrics from what the library returned (recall stage timings, ingest counts)."""
        if isinstance(result, PromptBlock):
            result = result.results
        if isinstance(result, SearchResults):
            self.metrics.observe_recall(result.trace)
            span = current_span()
            if span is not None:  # recall stage timings on the request's span (OpenTelemetry)
                for stage, ms in (result.trace.get("timings_ms") or {}).items():
                    span.set_attribute(f"neuromem.recall.{stage}_ms", float(ms))
        elif isinstance(result, IngestReport):
            self.metrics.observe_ingest(result.turns, result.results, dict(result.dropped))
        elif isinstance(result, ImportSummary):
            self.metrics.ingest_turns.inc(result.turns_ingested)
            for reason, n in result.dropped.items():
                self.metrics.ingest_dropped.labels(reason).inc(n)

    async def authenticate(self, token: str | None) -> Principal:
        if not token:
            raise AuthenticationError("missing API key (Authorization: Bearer nmk_…)")
        return await asyncio.to_thread(self.keys.authenticate, token)

    def user_key(self, principal: Principal, user_id: str) -> str:
        """The stored id of the tenant's ``user_id`` after the key's binding is checked."""
        check.user_id(user_id, self.settings.write)  # errors name the caller's id, not the stored key
        if principal.bound_user is not None and user_id != principal.bound_user:
            raise PermissionDeniedError("this API key is bound to another user_id")
        return scope_for(principal.tenant, user_id).user_key

    async def call(
        self,
        principal: Principal,
        user_id: str,
        fn: Callable[[str], T],
        *,
        agent_id: str | None = None,
        run_id: str | None = None,
    ) -> Any:
        """``fn(user_key)`` in a worker thread, as the service role scoped to this tenant's user — and, when
        given, to one of its agents and/or runs (the database then shows only what they may see)."""
        key = self.user_key(principal, user_id)
        scope = dataclasses.replace(
            scope_for(principal.tenant, user_id),
            agent_id=check.scope_id(agent_id, "agent_id", self.settings.write),
            run_id=check.scope_id(run_id, "run_id", self.settings.write),
        )

        logs.annotate(tenant=principal.tenant, user_id=user_id)

        def work() -> T:
            with bind(scope):
                result = fn(key)
            self.observe(result)
            return result

        try:
            result = await asyncio.wait_for(asyncio.to_thread(work), self.settings.service.request_timeout_s)
        except TimeoutError:
            raise RequestTimeoutError(
                f"the request took longer than {self.settings.service.request_timeout_s:g} s"
            ) from None
        except NeuromemError as exc:  # messages name the caller's user id, never the stored key
            if key != user_id:
                exc.args = tuple(a.replace(key, user_id) if isinstance(a, str) else a for a in exc.args)
            raise
        return externalize(result, principal.tenant)

    async def unscoped(self, fn: Callable[[], T]) -> T:
        """Operator work that is not about one user (health, jobs): runs as the owner."""
        return await asyncio.wait_for(asyncio.to_thread(fn), self.settings.service.request_timeout_s)


def externalize(value: Any, tenant: str) -> Any:
    """Public types as JSON-ready data, with stored user keys shown as the tenant's user ids."""
    if tenant == DEFAULT_TENANT:
        return value
    return _rename(to_jsonable_python(value, fallback=_jsonable), tenant)


def _jsonable(value: Any) -> Any:
    if isinstance(value, NeuromemError):
        return value.as_problem()
    raise TypeError(f"{type(value).__name__} is not JSON-serialisable")


def _rename(data: Any, tenant: str) -> Any:
    if isinstance(data, dict):
        return {
            k: (external_user_id(tenant, v) if k == "user_id" and isinstance(v, str) else _rename(v, tenant))
            for k, v in data.items()
        }
    if isinstance(data, list):
        return [_rename(v, tenant) for v in data]
    return data


def current_span() -> Any:
    """The current OpenTelemetry span, or None without the API installed."""
    try:
        from opentelemetry import trace
    except ImportError:  # pragma: no cover - depends on the environment
        return None
    return trace.get_current_span()


def context(request: Request) -> ServiceContext:
    return request.app.state.neuromem


def requires(level: KeyScope) -> Callable[..., Any]:
    """A dependency: the caller's principal, if its key has at least ``level``."""

    async def dependency(
        request: Request, credentials: HTTPAuthorizationCredentials | None = _BEARER
    ) -> Principal:
        ctx = context(request)
        principal = await ctx.authenticate(None if credentials is None else credentials.credentials)
        if principal.scope < level:
            raise PermissionDeniedError(
                f"this API key has scope {principal.scope.label}; {level.label} is needed"
            )
        request.state.principal = principal
        return principal

    return dependency


READ = Depends(requires(KeyScope.READ))
WRITE = Depends(requires(KeyScope.WRITE))
ADMIN = Depends(requires(KeyScope.ADMIN))
