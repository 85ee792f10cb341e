from __future__ import annotations

from collections.abc import Iterator

import pytest
from pydantic import BaseModel, Field

from neuromem.errors import LLMError, LLMResponseError
from neuromem.llm import OpenAICompatibleChat, Prompt, UsageRecord, complete_structured
from tests.fakes import FakeError, FakeOpenAI


class Person(BaseModel):
    name: str
    age: int = Field(ge=0)


ASK = Prompt(name="person", system="Extract a person as JSON. Today is $today.", user="Text: $text")


@pytest.fixture
def chat(fake_openai: FakeOpenAI) -> Iterator[OpenAICompatibleChat]:
    with OpenAICompatibleChat(fake_openai.base_url, model="fake-chat", max_retries=1, backoff_s=0.01) as c:
        yield c


def _ask(chat: OpenAICompatibleChat, sink: list[UsageRecord] | None = None, **kw: int) -> Person:
    return complete_structured(
        chat,
        ASK,
        {"text": "Li Lei is 30", "today": "2025-03-01"},
        Person,
        operation="extract",
        usage_sink=None if sink is None else sink.append,
        **kw,
    )


def test_first_answer_valid(fake_openai: FakeOpenAI, chat: OpenAICompatibleChat) -> None:
    fake_openai.chat_responses.append('```json\n{"name": "Li Lei", "age": 30,}\n```')
    records: list[UsageRecord] = []
    assert _ask(chat, records) == Person(name="Li Lei", age=30)
    [body] = fake_openai.requests_to("chat/completions")
    assert body["response_format"] == {"type": "json_object"}
    assert body["messages"][0]["content"] == "Extract a person as JSON. Today is 2025-03-01."
    [record] = records
    assert record.ok
    assert record.error is None
    assert record.operation == "extract"
    assert record.model == "fake-chat"
    assert record.prompt_tokens > 0
    assert record.completion_tokens > 0


def test_retry_with_correction_then_success(fake_openai: FakeOpenAI, chat: OpenAICompatibleChat) -> None:
    fake_openai.chat_responses.extend(
        ['{"name": "Li Lei", "age": "thirty"}', '{"name": "Li Lei", "age": 30}']
    )
    records: list[UsageRecord] = []
    assert _ask(chat, records).age == 30
    first, second = fake_openai.requests_to("chat/completions")
    assert len(second["messages"]) == len(first["messages"]) + 2
    assert second["messages"][-2] == {"role": "assistant", "content": '{"name": "Li Lei", "age": "thirty"}'}
    correction = second["messages"][-1]["content"]
    assert "age" in correction
    assert "integer" in correction
    assert [r.ok for r in records] == [False, True]
    assert records[0].error is not None


def test_not_json_then_success(fake_openai: FakeOpenAI, chat: OpenAICompatibleChat) -> None:
    fake_openai.chat_responses.extend(["I cannot do that.", "{'name': 'Han Meimei', 'age': 28}"])
    assert _ask(chat).name == "Han Meimei"


def test_response_error_after_all_attempts(fake_openai: FakeOpenAI, chat: OpenAICompatibleChat) -> None:
    fake_openai.default_chat = "still not json " + "x" * 2000
    records: list[UsageRecord] = []
    with pytest.raises(LLMResponseError) as info:
        _ask(chat, records, max_attempts=3)
    message = str(info.value)
    assert "Person" in message
    assert "3 attempt" in message
    assert "still not json" in message
    assert len(message) < 2500  # the raw answer is truncated
    assert len(fake_openai.requests_to("chat/completions")) == 3
    assert [r.ok for r in records] == [False, False, False]


def test_http_failure_is_llm_error_and_reported(fake_openai: FakeOpenAI, chat: OpenAICompatibleChat) -> None:
    fake_openai.chat_responses.extend([FakeError(500, "boom"), FakeError(502, "bad gateway")])
    records: list[UsageRecord] = []
    with pytest.raises(LLMError) as info:
        _ask(chat, records)
    assert not isinstance(info.value, LLMResponseError)
    [record] = records
    assert not record.ok
    assert record.error is not None
    assert "502" in record.error


def test_http_500_retried_inside_client(fake_openai: FakeOpenAI, chat: OpenAICompatibleChat) -> None:
    fake_openai.chat_responses.extend([FakeError(500, "boom"), '{"name": "A", "age": 1}'])
    records: list[UsageRecord] = []
    assert _ask(chat, records).name == "A"
    assert [r.ok for r in records] == [True]


def test_broken_usage_sink_does_not_break_the_call(
    fake_openai: FakeOpenAI, chat: OpenAICompatibleChat, caplog: pytest.LogCaptureFixture
) -> None:
    def sink(record: UsageRecord) -> None:
        raise RuntimeError("database down")

    fake_openai.chat_responses.append('{"name": "A", "age": 1}')
    result = complete_structured(
        chat, ASK, {"text": "t", "today": "2025-01-01"}, Person, operation="extract", usage_sink=sink
    )
    assert result.name == "A"
    assert "usage sink failed" in caplog.text


def test_bad_max_attempts(chat: OpenAICompatibleChat) -> None:
    with pytest.raises(ValueError):
        _ask(chat, max_attempts=0)
