"""``memctl status`` names the embedder and the LLM configured and says whether each answers
(issue 22 item 8), against the fake OpenAI-compatible server."""

from __future__ import annotations

import pytest

from tests.fakes.openai_server import FakeOpenAI


def test_status_without_an_llm_says_rules_run(memctl) -> None:  # type: ignore[no-untyped-def]
    out = memctl("status").output
    assert "embedder:   hashing-" in out and ": answers (answered in " in out
    assert "llm:        none: not configured (rule-based extraction and reflection, offline)" in out


def test_status_asks_the_configured_llm_and_embedder(memctl, fake_openai: FakeOpenAI,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]  # fmt: skip
    monkeypatch.setenv("NEUROMEM_LLM_BASE_URL", fake_openai.base_url)
    monkeypatch.setenv("NEUROMEM_LLM_MODEL", "fake-chat")
    out = memctl("status").output
    assert f"llm:        fake-chat at {fake_openai.base_url}: answers (answered in " in out, out
    assert [path for path, _ in fake_openai.requests if "chat" in path] == ["/v1/chat/completions"]

    fake_openai.down = True
    out = memctl("status").output
    assert f"llm:        fake-chat at {fake_openai.base_url}: DOES NOT ANSWER (LLMError: " in out, out


def test_status_reports_an_embedding_endpoint_that_does_not_answer(memctl, fake_openai: FakeOpenAI,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]  # fmt: skip
    monkeypatch.setenv("NEUROMEM_EMBEDDER", "openai")
    monkeypatch.setenv("NEUROMEM_EMBED_BASE_URL", fake_openai.base_url)
    monkeypatch.setenv("NEUROMEM_EMBED_MODEL", "fake-embed")
    fake_openai.embedding_dim = 64
    assert f"(64-d, openai at {fake_openai.base_url}): answers" in memctl("status").output
    fake_openai.down = True
    out = memctl("status").output
    assert f"(64-d, openai at {fake_openai.base_url}): DOES NOT ANSWER (EmbedderError: " in out, out
