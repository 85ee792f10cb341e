"""``memctl status`` names the embedder and the LLM configured and says whether each answers
(issue 22 item 8), against the fake OpenAI-compatible server."""

from __future__ import annotations

import pytest

from tests.fakes.openai_server import FakeOpenAI


def test_status_without_an_llm_says_rules_run(memctl) -> None:  # type: ignore[no-untyped-def]
    out = memctl("status").output
    assert "embedder:   hashing-" in out and ": answers (answered in " in out
    assert "llm:        none: not configured (rule-based extraction and reflection, offline)" in out


def test_status_asks_the_configured_llm_and_embedder(
    memctl, fake_openai: FakeOpenAI, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("NEUROMEM_LLM_BASE_URL", fake_openai.base_url)
    monkeypatch.setenv("NEUROMEM_LLM_MODEL", "fake-chat")
    out = memctl("status").output
    assert f"llm:        fake-chat at {fake_openai.base_url}: answers (answered in " in out, out
    assert [path for path, _ in fake_openai.requests if "chat" in path] == ["/v1/chat/completions"]

    fake_openai.down = True
    out = memctl("status").output
    assert f"llm:        fake-chat at {fake_openai.base_url}: DOES NOT ANSWER (LLMError: " in out, out


def test_status_reports_an_embedding_endpoint_that_does_not_answer(
    memctl, fake_openai: FakeOpenAI, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("NEUROMEM_EMBEDDER", "openai")
    monkeypatch.setenv("NEUROMEM_EMBED_BASE_URL", fake_openai.base_url)
    monkeypatch.setenv("NEUROMEM_EMBED_MODEL", "fake-embed")
    fake_openai.embedding_dim = 64
    assert f"(64-d, openai at {fake_openai.base_url}): answers" in memctl("status").output
    fake_openai.down = True
    out = memctl("status").output
    assert f"(64-d, openai at {fake_openai.base_url}): DOES NOT ANSWER (EmbedderError: " in out, out


def test_the_llm_examples_are_valid_settings(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The worked examples of docs/configuration.md and the README (Ollama, DeepSeek/OpenAI, vLLM)
    are settings neuromem accepts as written."""
    import re
    import shlex
    from pathlib import Path

    from neuromem import Settings

    root = Path(__file__).resolve().parents[2]
    doc = (
        (root / "docs" / "configuration.md")
        .read_text("utf-8")
        .split("## Connecting an LLM", 1)[1]
        .split("\n## ", 1)[0]
    )
    tomls = re.findall(r"```toml\n(.*?)```", doc, re.S)
    models = []
    for n, text in enumerate(tomls):
        (tmp_path / f"{n}.toml").write_text(text)
        models.append(Settings.from_env({"NEUROMEM_CONFIG": str(tmp_path / f"{n}.toml")}).llm.model)
    assert models == ["qwen2.5:7b", "Qwen/Qwen2.5-7B-Instruct"]
    readme = (
        (root / "README.md").read_text("utf-8").split("**Connecting an LLM.**", 1)[1].split("```bash\n", 1)[1]
    )
    exports = [line for line in readme.split("```", 1)[0].splitlines() if line.startswith("export ")]

    def parsed(lines: list[str]) -> Settings:
        env = dict(word.split("=", 1) for line in lines for word in shlex.split(line)[1:])
        return Settings.from_env(env)

    assert [parsed([line]).llm.base_url for line in exports] == [
        "http://localhost:11434/v1",
        "https://api.deepseek.com/v1",
        "http://localhost:8000/v1",
    ]
    deepseek = parsed(re.findall(r"```bash\n(.*?)```", doc, re.S)[0].splitlines())
    assert (deepseek.llm.base_url, deepseek.llm.model) == ("https://api.deepseek.com/v1", "deepseek-chat")
