"""One client for every OpenAI-compatible chat endpoint (STYLE habit 5: configuration, not copies).

Example base URLs:

=================  ==================================================
OpenAI             ``https://api.openai.com/v1``
DeepSeek           ``https://api.deepseek.com/v1``
Qwen (DashScope)   ``https://dashscope.aliyuncs.com/compatible-mode/v1``
Ollama             ``http://localhost:11434/v1`` (any api_key, or none)
vLLM / llama.cpp   ``http://localhost:8000/v1``
=================  ==================================================
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from ..errors import ConfigError, LLMError
from ._http import RetryPolicy, make_client, post_json
from .base import ChatModel, ChatResult, Message
from .circuit import CircuitBreaker


class OpenAICompatibleChat(ChatModel):
    """``POST {base_url}/chat/completions`` with retries on 429/5xx/timeouts.

    ``json_mode`` sends ``response_format={"type": "json_object"}``; for a
    server that rejects that field, pass ``json_mode_supported=False`` and rely
    on the prompt (``complete_structured`` repairs and validates the answer).

    >>> from neuromem.llm import OpenAICompatibleChat
    >>> from tests.fakes import FakeOpenAI
    >>> with FakeOpenAI() as fake, OpenAICompatibleChat(fake.base_url, model="qwen2.5:7b") as chat:
    ...     fake.chat_responses.append("你好")
    ...     chat.complete([{"role": "user", "content": "hi"}], operation="demo").content
    '你好'
    """

    def __init__(
        self,
        base_url: str,
        api_key: str | None = None,
        model: str = "gpt-4o-mini",
        timeout_s: float = 60.0,
        max_retries: int = 2,
        temperature: float = 0.0,
        *,
        backoff_s: float = 0.5,
        max_tokens: int | None = None,
        json_mode_supported: bool = True,
        deadline_s: float | None = None,
        breaker: CircuitBreaker | None = None,
    ) -> None:
        if not base_url:
            raise ConfigError("OpenAICompatibleChat needs a base_url such as https://api.openai.com/v1")
        if not model:
            raise ConfigError("OpenAICompatibleChat needs a model name")
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.temperature = temperature
        self.max_tokens = max_tokens
        self.json_mode_supported = json_mode_supported
        self._policy = RetryPolicy(max_retries=max_retries, backoff_s=backoff_s)
        self.deadline_s = deadline_s  # total per call, retries included
        self.breaker = breaker
        self._client = make_client(self.base_url, api_key, timeout_s)

    def complete(self, messages: Sequence[Message], *, json_mode: bool = False, operation: str) -> ChatResult:
        if not messages:
            raise ValueError("complete() needs at least one message")
        payload: dict[str, Any] = {
            "model": self.model,
            "messages": [{"role": m["role"], "content": m["content"]} for m in messages],
            "temperature": self.temperature,
        }
        if self.max_tokens is not None:
            payload["max_tokens"] = self.max_tokens
        if json_mode and self.json_mode_supported:
            payload["response_format"] = {"type": "json_object"}
        started = time.perf_counter()
        answer = post_json(
            self._client,
            "chat/completions",
            payload,
            policy=self._policy,
            error=LLMError,
            deadline_s=self.deadline_s,
            breaker=self.breaker,
            provider=f"chat model {self.model!r} ({operation})",
        )
        latency_ms = (time.perf_counter() - started) * 1000.0
        return _parse(answer.body, self.model, operation, latency_ms)

    def close(self) -> None:
        self._client.close()

    def __repr__(self) -> str:
        return f"OpenAICompatibleChat(base_url={self.base_url!r}, model={self.model!r})"


def _parse(body: dict[str, Any], model: str, operation: str, latency_ms: float) -> ChatResult:
    where = f"chat model {model!r} ({operation})"
    try:
        choice = body["choices"][0]
        content = choice["message"].get("content")
    except (KeyError, IndexError, TypeError, AttributeError):
        raise LLMError(f"{where} answered without choices[0].message: {str(body)[:300]}") from None
    if not isinstance(content, str):
        reason = choice.get("finish_reason") if isinstance(choice, dict) else None
        raise LLMError(f"{where} answered with no text content (finish_reason={reason!r})")
    usage: dict[str, Any] = body["usage"] if isinstance(body.get("usage"), dict) else {}
    return ChatResult(
        content=content,
        prompt_tokens=_int(usage.get("prompt_tokens")),
        completion_tokens=_int(usage.get("completion_tokens")),
        latency_ms=latency_ms,
        model=str(body.get("model") or model),
    )


def _int(value: object) -> int:
    return value if isinstance(value, int) and value >= 0 else 0
