from __future__ import annotations

import pytest

from neuromem.config import LLMSettings
from neuromem.errors import ConfigError, LLMError
from neuromem.llm import OpenAICompatibleChat, create_chat_model
from tests.fakes import FakeError, FakeOpenAI

HELLO = [{"role": "system", "content": "be brief"}, {"role": "user", "content": "hi"}]


def _chat(fake: FakeOpenAI, **kw: object) -> OpenAICompatibleChat:
    options: dict[str, object] = {"model": "fake-chat", "max_retries": 2, "backoff_s": 0.01}
    options.update(kw)
    return OpenAICompatibleChat(fake.base_url, **options)  # type: ignore[arg-type]


def test_happy_path(fake_openai: FakeOpenAI) -> None:
    fake_openai.chat_responses.append("hello there")
    with _chat(fake_openai, temperature=0.3) as chat:
        result = chat.complete(HELLO, operation="test")
    assert result.content == "hello there"
    assert result.model == "fake-chat"
    assert result.prompt_tokens > 0
    assert result.completion_tokens > 0
    assert result.latency_ms > 0
    [body] = fake_openai.requests_to("chat/completions")
    assert body["messages"] == HELLO
    assert body["temperature"] == 0.3
    assert "response_format" not in body


def test_json_mode_sends_response_format(fake_openai: FakeOpenAI) -> None:
    with _chat(fake_openai) as chat:
        assert chat.complete(HELLO, json_mode=True, operation="t").content == "{}"
    with _chat(fake_openai, json_mode_supported=False) as chat:
        chat.complete(HELLO, json_mode=True, operation="t")
    first, second = fake_openai.requests_to("chat/completions")
    assert first["response_format"] == {"type": "json_object"}
    assert "response_format" not in second


def test_dynamic_replies(fake_openai: FakeOpenAI) -> None:
    fake_openai.default_chat = lambda request: f"echo: {request['messages'][-1]['content']}"
    with _chat(fake_openai) as chat:
        assert chat.complete(HELLO, operation="t").content == "echo: hi"


def test_retries_http_500_then_succeeds(fake_openai: FakeOpenAI) -> None:
    fake_openai.chat_responses.extend([FakeError(500, "boom"), FakeError(429, "slow down"), "fine"])
    with _chat(fake_openai, max_retries=2) as chat:
        assert chat.complete(HELLO, operation="t").content == "fine"
    assert len(fake_openai.requests) == 3


def test_gives_up_with_llm_error(fake_openai: FakeOpenAI) -> None:
    fake_openai.down = True
    with _chat(fake_openai, max_retries=1) as chat, pytest.raises(LLMError) as info:
        chat.complete(HELLO, operation="extract")
    message = str(info.value)
    assert "503" in message
    assert "extract" in message
    assert "2 attempt" in message


def test_bad_request_is_not_retried(fake_openai: FakeOpenAI) -> None:
    fake_openai.chat_responses.append(FakeError(400, {"error": {"message": "model not found"}}))
    with _chat(fake_openai) as chat, pytest.raises(LLMError, match="model not found"):
        chat.complete(HELLO, operation="t")
    assert len(fake_openai.requests) == 1


def test_timeout_is_retried_then_llm_error(fake_openai: FakeOpenAI) -> None:
    fake_openai.delay_s = 0.3
    with (
        _chat(fake_openai, timeout_s=0.05, max_retries=1) as chat,
        pytest.raises(LLMError, match="timed out"),
    ):
        chat.complete(HELLO, operation="t")


def test_connection_refused_is_llm_error() -> None:
    with FakeOpenAI() as fake:
        url = fake.base_url
    with (
        OpenAICompatibleChat(url, model="m", max_retries=0) as chat,
        pytest.raises(LLMError, match="connection failed"),
    ):
        chat.complete(HELLO, operation="t")


def test_empty_messages_rejected(fake_openai: FakeOpenAI) -> None:
    with _chat(fake_openai) as chat, pytest.raises(ValueError):
        chat.complete([], operation="t")


def test_factory() -> None:
    assert create_chat_model(LLMSettings()) is None
    with FakeOpenAI() as fake:
        chat = create_chat_model(LLMSettings(base_url=fake.base_url, model="deepseek-chat", max_retries=0))
        assert isinstance(chat, OpenAICompatibleChat)
        with chat:
            chat.complete(HELLO, operation="t")
        assert fake.requests_to("chat/completions")[0]["model"] == "deepseek-chat"
    with pytest.raises(ConfigError):
        OpenAICompatibleChat("", model="m")
