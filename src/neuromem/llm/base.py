"""The ``ChatModel`` protocol: one abstract method, typed results (STYLE habit 4).

Pipelines take a ``ChatModel`` instance (or ``None`` for the offline,
rule-based paths); tests pass the real client pointed at the fake server.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import TracebackType
from typing import Self

from ..types import UsageRecord  # a domain value: the store records it without importing llm/

Message = Mapping[str, str]
"""One chat message: ``{"role": "system" | "user" | "assistant", "content": "..."}``."""

__all__ = ["ChatModel", "ChatResult", "Message", "UsageRecord", "UsageSink"]


@dataclass(frozen=True, slots=True)
class ChatResult:
    """One completion: the assistant's text and what it cost."""

    content: str
    prompt_tokens: int
    completion_tokens: int
    latency_ms: float
    model: str


UsageSink = Callable[[UsageRecord], None]


class ChatModel(ABC):
    """A chat-completion model. Implementations write ``complete``; ``model`` names the model.

    >>> from neuromem.llm import OpenAICompatibleChat
    >>> from tests.fakes import FakeOpenAI
    >>> with FakeOpenAI() as fake, OpenAICompatibleChat(fake.base_url, model="m") as chat:
    ...     chat.complete([{"role": "user", "content": "hi"}], operation="demo").content
    'OK'
    """

    model: str

    @abstractmethod
    def complete(self, messages: Sequence[Message], *, json_mode: bool = False, operation: str) -> ChatResult:
        """Send ``messages``; ``json_mode`` asks the provider for one JSON object.

        ``operation`` names the task (``"summarize"``, ``"extract"``…) for
        errors and usage accounting. Raises ``LLMError`` when the provider fails.
        """

    def close(self) -> None:  # noqa: B027 - optional hook
        """Release the HTTP client. Safe to call twice."""

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()
