"""The one HTTP call shared by every OpenAI-compatible adapter (STYLE habit 5).

``post_json`` posts a JSON body, retries what is worth retrying (connection
errors, timeouts, HTTP 429 and 5xx) with a small exponential backoff, and turns
every failure into the caller's error class (``EmbedderError`` or ``LLMError``)
with the provider, the URL and the cause in the message — never a raw httpx
exception. The API key never appears in a message.

``deadline_s`` bounds the whole call, retries and back-off included: every attempt's
connect/read/write timeout is cut to the time left, and no retry starts after it (issue #12
item 5). Inside a public call it is one deadline for every request to the same kind of model
(``neuromem.deadlines.model_left``, issue 23 item 3): extraction, decisions and judgements share
it. A ``CircuitBreaker`` stops calling a provider that keeps failing: while it is open the call
raises at once, so callers fall back without waiting.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..deadlines import model_left, model_work
from ..errors import ModelError
from .circuit import CircuitBreaker

if TYPE_CHECKING:  # imported where a client is made or used: a command that never calls a provider skips it
    import httpx

_RETRY_STATUS = frozenset({408, 429})
_MAX_RETRY_AFTER_S = 10.0
_BODY_SNIPPET = 300


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """How often and how patiently to retry. ``max_retries=2`` means up to three attempts."""

    max_retries: int = 2
    backoff_s: float = 0.5
    max_backoff_s: float = 8.0

    def delay(self, attempt: int, retry_after: str | None = None) -> float:
        """Seconds to wait after failed attempt number ``attempt`` (0-based)."""
        if retry_after:
            try:
                return min(max(float(retry_after), 0.0), _MAX_RETRY_AFTER_S)
            except ValueError:
                pass
        return min(self.backoff_s * (2**attempt), self.max_backoff_s)


@dataclass(frozen=True, slots=True)
class JSONResponse:
    """A successful answer: the decoded body and the wall time of the successful attempt."""

    body: dict[str, Any]  # a top-level JSON array, accepted with ``list_ok``, comes as {"items": [...]}
    latency_ms: float
    attempts: int


def make_client(base_url: str, api_key: str | None, timeout_s: float) -> httpx.Client:
    """A reusable sync client for an OpenAI-compatible ``base_url`` (``http://host/v1``)."""
    import httpx

    headers = {"Accept": "application/json"}
    if api_key:
        headers["Authorization"] = f"Bearer {api_key}"
    return httpx.Client(base_url=base_url.rstrip("/") + "/", headers=headers, timeout=timeout_s)


def snippet(text: str, limit: int = _BODY_SNIPPET) -> str:
    """``text`` cut to ``limit`` characters, marked when cut."""
    text = text.strip()
    return text if len(text) <= limit else text[:limit] + f"… [{len(text) - limit} more chars]"


def post_json(
    client: httpx.Client,
    path: str,
    payload: dict[str, Any],
    *,
    policy: RetryPolicy,
    error: type[ModelError],
    provider: str,
    deadline_s: float | None = None,
    breaker: CircuitBreaker | None = None,
    list_ok: bool = False,
) -> JSONResponse:
    """POST ``payload`` to ``path`` (relative to the client's base URL) and decode the JSON answer.

    Raises ``error`` when every attempt failed, the server refused the request
    (4xx other than 408 and 429), the answer is not a JSON object, the deadline passed,
    or the breaker is open.
    """
    url = str(client.base_url.join(path))
    if deadline_s is not None:  # one deadline for every call to this kind of model in the public call
        left = model_left(error.__name__, deadline_s)
        if left <= 0:
            raise error(
                f"{provider} at {url} was not called: this call's {deadline_s:g} s deadline for "
                f"model requests has passed (an earlier request used it)"
            )
        deadline_s = left
    if breaker is not None and not breaker.allow():
        raise error(
            f"{provider} at {url} is skipped for {breaker.open_for():.0f} s more: it failed "
            f"{breaker.failures} times in a row (circuit breaker open)"
        )
    try:
        with model_work():  # the model's own deadline bounds this wait, not the database's
            answer = _attempts(client, path, url, payload, policy, error, provider, deadline_s, list_ok)
    except _Unavailable as exc:
        if breaker is not None:
            breaker.record_failure()
        raise error(str(exc)) from None
    except error:
        if breaker is not None:
            breaker.record_success()  # it answered: the provider is up, the request was bad
        raise
    if breaker is not None:
        breaker.record_success()
    return answer


def _attempts(
    client: httpx.Client,
    path: str,
    url: str,
    payload: dict[str, Any],
    policy: RetryPolicy,
    error: type[ModelError],
    provider: str,
    deadline_s: float | None,
    list_ok: bool = False,
) -> JSONResponse:
    import httpx

    cause = "no attempt made"
    attempts = policy.max_retries + 1
    start = time.monotonic()
    end = None if deadline_s is None else start + deadline_s
    for attempt in range(attempts):
        retry_after: str | None = None
        started = time.perf_counter()
        left = None if end is None else end - time.monotonic()
        if left is not None and left <= 0:
            break
        try:
            if left is None:
                response = client.post(path, json=payload)
            else:
                response = client.post(path, json=payload, timeout=_cut(client.timeout, left))
        except httpx.TimeoutException as exc:
            cause = f"timed out ({type(exc).__name__})"
        except httpx.TransportError as exc:
            cause = f"connection failed ({type(exc).__name__}: {exc})"
        else:
            latency_ms = (time.perf_counter() - started) * 1000.0
            status = response.status_code
            if status < 300:
                return JSONResponse(_decode(response, url, error, provider, list_ok), latency_ms, attempt + 1)
            cause = f"HTTP {status}: {snippet(response.text)}"
            if status < 500 and status not in _RETRY_STATUS:
                raise error(f"{provider} request to {url} was refused: {cause}")
            retry_after = response.headers.get("retry-after")
        if attempt + 1 < attempts:
            pause = policy.delay(attempt, retry_after)
            if end is not None and time.monotonic() + pause >= end:
                break
            time.sleep(pause)
    took = time.monotonic() - start
    within = "" if deadline_s is None else f" within its {deadline_s:g} s deadline"
    raise _Unavailable(
        f"{provider} request to {url} failed{within} ({took:.1f} s, after {attempt + 1} attempt(s)): {cause}"
    )


class _Unavailable(Exception):
    """Every attempt failed for unavailability (timeout, connection, 5xx, 429): what the breaker counts."""


def _cut(timeout: httpx.Timeout, left: float) -> httpx.Timeout:
    """``timeout`` with each phase cut to the ``left`` seconds of the call's deadline."""
    import httpx

    def cut(value: float | None) -> float:
        return left if value is None else min(value, left)

    return httpx.Timeout(
        connect=cut(timeout.connect), read=cut(timeout.read), write=cut(timeout.write), pool=cut(timeout.pool)
    )


def _decode(
    response: httpx.Response, url: str, error: type[ModelError], provider: str, list_ok: bool = False
) -> dict[str, Any]:
    try:
        body = response.json()
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise error(
            f"{provider} answered {url} with a body that is not JSON: {snippet(response.text)}"
        ) from None
    if list_ok and isinstance(body, list):  # e.g. TEI's /rerank answers a bare array
        return {"items": body}
    if not isinstance(body, dict):
        raise error(f"{provider} answered {url} with JSON that is not an object: {snippet(response.text)}")
    return body
