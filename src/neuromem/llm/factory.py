"""Settings → a ``ChatModel`` or ``None``: the one place the LLM is chosen (STYLE habit 6)."""

from __future__ import annotations

from pathlib import Path

from ..config import LLMSettings, secret
from .base import ChatModel
from .circuit import shared_breaker
from .openai_compat import OpenAICompatibleChat


def create_chat_model(settings: LLMSettings, *, state_file: Path | None = None) -> ChatModel | None:
    """The configured chat model, or ``None`` (no ``base_url``) for the offline, rule-based paths.
    ``state_file`` keeps its circuit breaker's state for the next process (``Settings.breaker_file``).

    >>> from neuromem.config import LLMSettings
    >>> create_chat_model(LLMSettings()) is None
    True
    """
    if not settings.base_url:
        return None
    return OpenAICompatibleChat(
        base_url=settings.base_url,
        api_key=secret(settings.api_key),
        model=settings.model,
        timeout_s=settings.timeout_s,
        max_retries=settings.max_retries,
        temperature=settings.temperature,
        deadline_s=settings.deadline_s,
        breaker=shared_breaker("llm", settings.base_url, settings.model,
                               failures=settings.breaker_failures, cooldown_s=settings.breaker_cooldown_s,
                               state_file=state_file),
    )
