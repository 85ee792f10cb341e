"""Settings → a ``ChatModel`` or ``None``: the one place the LLM is chosen (STYLE habit 6)."""

from __future__ import annotations

from pathlib import Path

from ..config import LLMSettings
from .base import ChatModel
from .endpoint import endpoint_options
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
        **endpoint_options("llm", settings, state_file=state_file), temperature=settings.temperature
    )
