"""The one HTTP call shared by every OpenAI-compatible adapter (STYLE habit 5).

``post_json`` posts a JSON body, retries what is worth retrying (connection
errors, timeouts, HTTP 429 and 5xx) with a small exponential backoff, and turns
every failure into the caller's error class (``EmbedderError`` or ``LLMError``)
with the provider, the URL and the cause in the message — never a raw httpx
exception. The API key never appears in a message.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

import httpx

from ..errors import ModelError

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

    body: dict[str, Any]
    latency_ms: float
    attempts: int


def make_client(base_url: str, api_key: str | None, timeout_s: float) -> httpx.Client:
    """A reusable sync client for an OpenAI-compatible ``base_url`` (``http://host/v1``)."""
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
) -> JSONResponse:
    """POST ``payload`` to ``path`` (relative to the client's base URL) and decode the JSON answer.

    Raises ``error`` when every attempt failed, the server refused the request
    (4xx other than 408 and 429), or the answer is not a JSON object.
    """
    url = str(client.base_url.join(path))
    cause = "no attempt made"
    attempts = policy.max_retries + 1
    for attempt in range(attempts):
        retry_after: str | None = None
        started = time.perf_counter()
        try:
            response = client.post(path, json=payload)
        except httpx.TimeoutException as exc:
            cause = f"timed out ({type(exc).__name__})"
        except httpx.TransportError as exc:
            cause = f"connection failed ({type(exc).__name__}: {exc})"
        else:
            latency_ms = (time.perf_counter() - started) * 1000.0
            status = response.status_code
            if status < 300:
                return JSONResponse(_decode(response, url, error, provider), latency_ms, attempt + 1)
            cause = f"HTTP {status}: {snippet(response.text)}"
            if status < 500 and status not in _RETRY_STATUS:
                raise error(f"{provider} request to {url} was refused: {cause}")
            retry_after = response.headers.get("retry-after")
        if attempt + 1 < attempts:
            time.sleep(policy.delay(attempt, retry_after))
    raise error(f"{provider} request to {url} failed after {attempts} attempt(s): {cause}")


def _decode(response: httpx.Response, url: str, error: type[ModelError], provider: str) -> dict[str, Any]:
    try:
        body = response.json()
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise error(
            f"{provider} answered {url} with a body that is not JSON: {snippet(response.text)}"
        ) from None
    if not isinstance(body, dict):
        raise error(f"{provider} answered {url} with JSON that is not an object: {snippet(response.text)}")
    return body
