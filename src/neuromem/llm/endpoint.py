"""The options every HTTP model client is built with: one place wires a provider's settings to
its client and to the process-wide circuit breaker of its endpoint (the chat model and the
OpenAI-compatible embedder are built the same way; ``llm/factory.py``, ``embed/factory.py``)."""

from __future__ import annotations

from pathlib import Path
from typing import Literal, Protocol, TypedDict

from pydantic import SecretStr

from ..config import secret
from ..errors import ConfigError
from .circuit import CircuitBreaker, shared_breaker


class EndpointSettings(Protocol):
    """What ``LLMSettings`` and ``EmbedderSettings`` both say about an HTTP endpoint."""

    @property
    def base_url(self) -> str | None: ...
    @property
    def api_key(self) -> SecretStr | None: ...
    @property
    def model(self) -> str | None: ...
    @property
    def timeout_s(self) -> float: ...
    @property
    def max_retries(self) -> int: ...
    @property
    def deadline_s(self) -> float: ...
    @property
    def breaker_failures(self) -> int: ...
    @property
    def breaker_cooldown_s(self) -> float: ...


class EndpointOptions(TypedDict):
    """Keyword arguments of ``OpenAICompatibleChat`` and ``OpenAIEmbedder`` common to both."""

    base_url: str
    api_key: str | None
    model: str
    timeout_s: float
    max_retries: int
    deadline_s: float
    breaker: CircuitBreaker


def endpoint_options(
    provider: Literal["llm", "embedder"], settings: EndpointSettings, *, state_file: Path | None = None
) -> EndpointOptions:
    """The client options of ``settings``, with the one breaker of this process for the endpoint
    (``shared_breaker``; ``state_file`` keeps its state for the next process).

    >>> from neuromem.config import LLMSettings
    >>> endpoint_options("llm", LLMSettings(base_url="http://localhost:9/v1"))["breaker"].failures
    3
    """
    if not settings.base_url or not settings.model:
        raise ConfigError(f"the {provider} endpoint needs a base_url and a model")
    breaker = shared_breaker(
        provider,
        settings.base_url,
        settings.model,
        failures=settings.breaker_failures,
        cooldown_s=settings.breaker_cooldown_s,
        state_file=state_file,
    )
    return EndpointOptions(
        base_url=settings.base_url,
        api_key=secret(settings.api_key),
        model=settings.model,
        timeout_s=settings.timeout_s,
        max_retries=settings.max_retries,
        deadline_s=settings.deadline_s,
        breaker=breaker,
    )
