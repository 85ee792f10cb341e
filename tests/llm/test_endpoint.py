"""The chat model and the HTTP embedder get their client options and circuit breaker from one
helper (``llm/endpoint.py``, issue 25 item 8): same settings fields, same wiring, one breaker per endpoint."""

from __future__ import annotations

import pytest

from neuromem.config import EmbedderSettings, LLMSettings
from neuromem.embed import OpenAIEmbedder, create_embedder
from neuromem.errors import ConfigError
from neuromem.llm.circuit import reset_shared_breakers
from neuromem.llm.endpoint import endpoint_options
from neuromem.llm.factory import create_chat_model
from neuromem.llm.openai_compat import OpenAICompatibleChat

URL = "http://127.0.0.1:9/v1"  # never called: building a client opens no connection


def test_both_factories_wire_the_breaker_of_their_settings_through_one_helper() -> None:
    reset_shared_breakers(persisted=False)
    chat_settings = LLMSettings(
        base_url=URL,
        model="chat-m",
        breaker_failures=5,
        breaker_cooldown_s=7.0,
        deadline_s=3.0,
        timeout_s=4.0,
        max_retries=1,
    )
    embed_settings = EmbedderSettings(
        provider="openai",
        base_url=URL,
        model="embed-m",
        breaker_failures=4,
        breaker_cooldown_s=9.0,
        deadline_s=2.0,
    )
    chat = create_chat_model(chat_settings)
    embedder = create_embedder(embed_settings)
    try:
        assert isinstance(chat, OpenAICompatibleChat) and isinstance(embedder, OpenAIEmbedder)
        assert chat.breaker is endpoint_options("llm", chat_settings)["breaker"]
        assert embedder.breaker is endpoint_options("embedder", embed_settings)["breaker"]
        assert chat.breaker is not None and embedder.breaker is not None
        assert (chat.breaker.failures, chat.breaker.cooldown_s) == (5, 7.0)
        assert (embedder.breaker.failures, embedder.breaker.cooldown_s) == (4, 9.0)
        assert (chat.deadline_s, embedder.deadline_s) == (3.0, 2.0)
    finally:
        chat.close()  # type: ignore[union-attr]
        embedder.close()  # type: ignore[attr-defined]


def test_the_same_endpoint_for_chat_and_embeddings_keeps_two_breakers() -> None:
    reset_shared_breakers(persisted=False)
    settings = LLMSettings(base_url=URL, model="m")
    assert (
        endpoint_options("llm", settings)["breaker"] is not endpoint_options("embedder", settings)["breaker"]
    )


def test_an_endpoint_without_a_base_url_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="base_url"):
        endpoint_options("llm", LLMSettings())
