"""The optional relevance judge (issue 14 item 4): the /rerank HTTP shapes and a listwise LLM reranker,
against the fake server over real HTTP; a failing or late judge leaves the fused order."""

from __future__ import annotations

import json

import pytest

from neuromem import Memory, Settings
from neuromem.config import RerankerSettings
from neuromem.errors import ConfigError
from neuromem.llm.openai_compat import OpenAICompatibleChat
from neuromem.recall.rerank import HTTPReranker, LLMReranker, RerankerError, create_reranker
from tests.fakes import FakeError, FakeOpenAI

DOCS = ["the cat sat on the mat", "stock prices fell sharply", "a cat and a dog"]


@pytest.mark.parametrize("shape", ["cohere", "tei"])
def test_http_reranker_reads_both_answer_shapes(fake_openai: FakeOpenAI, shape: str) -> None:
    fake_openai.rerank_shape = shape
    judge = HTTPReranker(fake_openai.base_url, model="bge-reranker")
    scores = judge.score("cat mat", DOCS, deadline_s=5)
    assert len(scores) == 3 and scores[0] > scores[2] > scores[1]
    body = fake_openai.requests_to("rerank")[-1]
    assert body["query"] == "cat mat" and body["documents"] == DOCS and body["model"] == "bge-reranker"


def test_http_reranker_refuses_malformed_answers(fake_openai: FakeOpenAI) -> None:
    judge = HTTPReranker(fake_openai.base_url)
    for reply in (
        {"results": "nope"},
        {"results": [{"index": 7, "relevance_score": 1}]},
        {"results": [{"x": 1}]},
    ):
        fake_openai.rerank_replies.append(reply)
        with pytest.raises(RerankerError):
            judge.score("cat", DOCS, deadline_s=5)
    fake_openai.rerank_replies.append(FakeError(500, "boom"))
    with pytest.raises(RerankerError, match="HTTP 500"):
        judge.score("cat", DOCS, deadline_s=5)


def test_llm_reranker_is_listwise(fake_openai: FakeOpenAI) -> None:
    fake_openai.chat_responses.append(json.dumps({"order": [3, 1, 9, 3]}))
    with OpenAICompatibleChat(fake_openai.base_url, model="fake-chat", max_retries=0) as chat:
        scores = LLMReranker(chat).score("pets", DOCS, deadline_s=5)
    assert scores[2] > scores[0] > scores[1] and scores[1] == float("-inf")
    assert "Passages (numbered)" in fake_openai.requests_to("chat/completions")[-1]["messages"][1]["content"]


def test_create_reranker_is_off_by_default_and_checks_its_settings() -> None:
    assert create_reranker(RerankerSettings(), None) is None
    with pytest.raises(ConfigError):
        create_reranker(RerankerSettings(provider="http"), None)
    with pytest.raises(ConfigError):
        create_reranker(RerankerSettings(provider="llm"), None)


def _memory(settings: Settings, fake: FakeOpenAI, **reranker: object) -> Memory:
    m = Memory(settings.with_updates(reranker={"provider": "http", "base_url": fake.base_url, **reranker}))
    for text in (
        "Tom bought a red bicycle in Lisbon",
        "Tom's bicycle is red",
        "Tom went to Lisbon by train",
        "the bicycle shop in Lisbon closes at six",
    ):
        m.add(text, user_id="t")
    return m


def test_search_applies_the_judge_to_the_fused_top(settings: Settings, fake_openai: FakeOpenAI) -> None:
    with _memory(settings, fake_openai, top_n=4) as m:
        results = m.search("bicycle shop closes", user_id="t", limit=4, trace=True)
        assert results.trace["paths"]["rerank"] == "ran"
        judged = [h.score.extra["rerank"] for h in results]
        assert judged == sorted(judged, reverse=True)
        assert results[0].memory.content == "the bicycle shop in Lisbon closes at six"
        finals = [h.score.final for h in results]
        assert finals == sorted(finals, reverse=True)  # the fused scores' scale, in the judge's order


def test_a_failing_or_late_judge_leaves_the_fused_order(settings: Settings, fake_openai: FakeOpenAI) -> None:
    with Memory(settings) as plain:
        for text in (
            "Tom bought a red bicycle in Lisbon",
            "Tom's bicycle is red",
            "Tom went to Lisbon by train",
            "the bicycle shop in Lisbon closes at six",
        ):
            plain.add(text, user_id="t")
        fused = [h.memory.id for h in plain.search("bicycle shop closes", user_id="t", limit=4)]
    with Memory(
        settings.with_updates(
            reranker={"provider": "http", "base_url": fake_openai.base_url, "timeout_s": 0.3}
        )
    ) as m:
        fake_openai.rerank_replies.append(FakeError(503, "overloaded"))
        failed = m.search("bicycle shop closes", user_id="t", limit=4, trace=True)
        assert failed.trace["paths"]["rerank"].startswith("failed:")
        assert [h.memory.id for h in failed] == fused
        fake_openai.delay_s = 1.0
        late = m.search("bicycle shop closes", user_id="t", limit=4, trace=True)
        assert (
            late.trace["paths"]["rerank"].startswith("failed:")
            and "timed out" in late.trace["paths"]["rerank"]
        )
        assert [h.memory.id for h in late] == fused
