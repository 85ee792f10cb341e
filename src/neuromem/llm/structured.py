"""Ask for JSON, repair it, validate it, and ask again with the error when it does not fit.

Every model call — successful or not — is reported to ``usage_sink`` as a
``UsageRecord`` so the store can account usage per user and operation.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import BaseModel, ValidationError

from ..errors import LLMError, LLMResponseError
from ._http import snippet
from .base import ChatModel, ChatResult, UsageRecord, UsageSink
from .json_repair import parse_json_reply

if TYPE_CHECKING:
    from .prompts.base import Prompt

__all__ = ["complete_structured"]

M = TypeVar("M", bound=BaseModel)
_log = logging.getLogger(__name__)
_MAX_ERROR_CHARS = 1200


def complete_structured(
    chat: ChatModel,
    prompt: Prompt,
    variables: Mapping[str, Any],
    response_model: type[M],
    *,
    operation: str,
    max_attempts: int = 3,
    usage_sink: UsageSink | None = None,
) -> M:
    """Render ``prompt`` now, call ``chat`` in JSON mode and return a validated ``response_model``.

    A reply that is not JSON or does not validate is answered with a corrective
    message carrying the error, up to ``max_attempts`` calls in all; then
    ``LLMResponseError``. A provider failure (already retried by the client)
    raises ``LLMError`` at once.

    >>> from pydantic import BaseModel
    >>> from neuromem.llm import OpenAICompatibleChat, Prompt
    >>> from tests.fakes import FakeOpenAI
    >>> class Answer(BaseModel):
    ...     city: str
    >>> ask = Prompt(name="city", system="Reply in JSON.", user="Where is $landmark?")
    >>> with FakeOpenAI() as fake, OpenAICompatibleChat(fake.base_url, model="m") as chat:
    ...     fake.chat_responses.append('```json\\n{"city": "Beijing",}\\n```')
    ...     complete_structured(chat, ask, {"landmark": "the Forbidden City"}, Answer, operation="demo")
    Answer(city='Beijing')
    """
    if max_attempts < 1:
        raise ValueError("max_attempts must be at least 1")
    messages: list[dict[str, str]] = prompt.render(**variables)
    last_error = "no attempt made"
    last_raw = ""
    for _attempt in range(max_attempts):
        started = time.perf_counter()
        try:
            result = chat.complete(messages, json_mode=True, operation=operation)
        except LLMError as exc:
            _report(usage_sink, _failed_call(operation, chat, started, str(exc)))
            raise
        last_raw = result.content
        try:
            value = response_model.model_validate(parse_json_reply(result.content))
        except (
            ValueError,
            ValidationError,
        ) as exc:  # ValidationError is a ValueError; both listed for clarity
            last_error = _describe(exc)
            _report(usage_sink, _record(operation, result, ok=False, error=last_error))
            messages = [
                *messages,
                {"role": "assistant", "content": result.content},
                {"role": "user", "content": _correction(last_error, response_model)},
            ]
            continue
        _report(usage_sink, _record(operation, result, ok=True, error=None))
        return value
    raise LLMResponseError(
        f"{operation}: the answer of chat model {getattr(chat, 'model', '?')!r} did not match "
        f"{response_model.__name__} after {max_attempts} attempt(s): {last_error}; "
        f"last answer: {snippet(last_raw)!r}"
    )


def _correction(error: str, response_model: type[BaseModel]) -> str:
    schema = json.dumps(response_model.model_json_schema(), ensure_ascii=False, separators=(",", ":"))
    return (
        f"Your previous answer could not be used: {error}\n"
        "Reply again with exactly one JSON object, no prose and no code fences, "
        f"matching this JSON schema:\n{schema}"
    )


def _describe(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        parts = [
            f"{'.'.join(str(p) for p in err['loc']) or '(root)'}: {err['msg']}" for err in exc.errors()[:10]
        ]
        text = "validation failed — " + "; ".join(parts)
    else:
        text = str(exc)
    return text[:_MAX_ERROR_CHARS]


def _record(operation: str, result: ChatResult, *, ok: bool, error: str | None) -> UsageRecord:
    return UsageRecord(
        operation=operation,
        model=result.model,
        prompt_tokens=result.prompt_tokens,
        completion_tokens=result.completion_tokens,
        latency_ms=result.latency_ms,
        ok=ok,
        error=error,
    )


def _failed_call(operation: str, chat: ChatModel, started: float, error: str) -> UsageRecord:
    return UsageRecord(
        operation=operation,
        model=getattr(chat, "model", "?"),
        prompt_tokens=0,
        completion_tokens=0,
        latency_ms=(time.perf_counter() - started) * 1000.0,
        ok=False,
        error=error[:_MAX_ERROR_CHARS],
    )


def _report(sink: UsageSink | None, record: UsageRecord) -> None:
    if sink is None:
        return
    try:
        sink(record)
    except Exception:  # accounting must never break the call it accounts for
        _log.warning("usage sink failed for operation %r", record.operation, exc_info=True)
