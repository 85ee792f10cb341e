from __future__ import annotations

import httpx
import numpy as np
import pytest

from neuromem.embed import HashingEmbedder, OpenAIEmbedder
from neuromem.errors import ConfigError, EmbedderError
from tests.fakes import FakeOpenAI


def _embedder(fake: FakeOpenAI, **kw: object) -> OpenAIEmbedder:
    options: dict[str, object] = {"model": "fake-embed", "dim": 64, "max_retries": 2, "backoff_s": 0.01}
    options.update(kw)
    return OpenAIEmbedder(fake.base_url, **options)  # type: ignore[arg-type]


def test_happy_path_sorted_by_index_and_normalised(fake_openai: FakeOpenAI) -> None:
    with _embedder(fake_openai) as e:
        v = e.embed_passages(["tea", "coffee", "trains"])
    assert v.shape == (3, 64)
    assert v.dtype == np.float32
    # The fake answers in reverse order; the client must restore input order.
    np.testing.assert_allclose(
        v, HashingEmbedder(dim=64).embed_passages(["tea", "coffee", "trains"]), atol=1e-6
    )
    [body] = fake_openai.requests_to("embeddings")
    assert body == {"model": "fake-embed", "input": ["tea", "coffee", "trains"], "dimensions": 64}


def test_batches_become_requests(fake_openai: FakeOpenAI) -> None:
    with _embedder(fake_openai, batch_size=4) as e:
        v = e.embed_passages([f"text {i}" for i in range(10)])
        assert v.shape == (10, 64)
        assert [len(b["input"]) for b in fake_openai.requests_to("embeddings")] == [4, 4, 2]
        e.embed_passages([f"text {i}" for i in range(10)], batch_size=5)
        assert len(fake_openai.requests_to("embeddings")) == 5


def test_query_embedding(fake_openai: FakeOpenAI) -> None:
    with _embedder(fake_openai) as e:
        assert e.embed_query("我喜欢咖啡").shape == (64,)


def test_retries_after_503_then_succeeds(fake_openai: FakeOpenAI) -> None:
    fake_openai.fail_embeddings = 2
    with _embedder(fake_openai, max_retries=2) as e:
        assert e.embed_passages(["hello"]).shape == (1, 64)
    assert len(fake_openai.requests_to("embeddings")) == 3


def test_permanent_failure_is_embedder_error(fake_openai: FakeOpenAI) -> None:
    fake_openai.down = True
    with _embedder(fake_openai, max_retries=1) as e, pytest.raises(EmbedderError) as info:
        e.embed_passages(["hello"])
    message = str(info.value)
    assert "503" in message
    assert fake_openai.base_url in message
    assert "2 attempt" in message
    assert len(fake_openai.requests) == 2


def test_client_error_is_not_retried() -> None:
    with FakeOpenAI(api_key="right") as fake, _embedder(fake) as e:
        with pytest.raises(EmbedderError, match="401"):
            e.embed_query("hello")
        assert len(fake.requests) == 1


def test_api_key_is_sent_and_never_leaks() -> None:
    with FakeOpenAI(api_key="sk-secret") as fake:
        with OpenAIEmbedder(fake.base_url, api_key="sk-secret", model="m", dim=16) as e:
            assert e.embed_query("hi").shape == (16,)
        with OpenAIEmbedder(fake.base_url, api_key="sk-wrong", model="m", dim=16) as e:
            with pytest.raises(EmbedderError) as info:
                e.embed_query("hi")
            assert "sk-wrong" not in str(info.value)


def test_wrong_dimension_is_embedder_error(fake_openai: FakeOpenAI) -> None:
    fake_openai.ignore_dimensions = True
    fake_openai.embedding_dim = 32
    with _embedder(fake_openai, dim=64) as e, pytest.raises(EmbedderError, match="dimension 32, expected 64"):
        e.embed_passages(["hello"])


def test_native_dimension_is_probed_once(fake_openai: FakeOpenAI) -> None:
    fake_openai.embedding_dim = 48
    with _embedder(fake_openai, dim=None, model="some-local-model") as e:
        assert e.dim == 48
        assert e.embed_passages(["a", "b"]).shape == (2, 48)
        assert e.dim == 48
    assert [b["input"] for b in fake_openai.requests_to("embeddings")] == [["dimension probe"], ["a", "b"]]
    assert "dimensions" not in fake_openai.requests_to("embeddings")[0]


def test_connection_refused_is_embedder_error() -> None:
    with FakeOpenAI() as fake:
        url = fake.base_url  # the port is free again once the server stops
    with (
        OpenAIEmbedder(url, model="m", dim=8, max_retries=1, backoff_s=0.01) as e,
        pytest.raises(EmbedderError, match="connection failed"),
    ):
        e.embed_query("hello")


def test_timeout_is_embedder_error(fake_openai: FakeOpenAI) -> None:
    fake_openai.delay_s = 0.3
    with (
        _embedder(fake_openai, timeout_s=0.05, max_retries=0) as e,
        pytest.raises(EmbedderError, match="timed out"),
    ):
        e.embed_query("hello")


@pytest.mark.parametrize(
    ("reply", "match"),
    [
        ("not json at all", "not JSON"),
        ({"data": "nope"}, "embeddings for 1 input"),
        ({"data": [{"index": 0}]}, "malformed"),
        ({"data": [{"index": 0, "embedding": [0.0] * 64}]}, "all-zero"),
        ({"data": [{"index": 5, "embedding": [1.0] * 64}]}, "indices"),
    ],
)
def test_malformed_answers_are_embedder_errors(fake_openai: FakeOpenAI, reply: object, match: str) -> None:
    fake_openai.embedding_replies.append(reply)
    with _embedder(fake_openai) as e, pytest.raises(EmbedderError, match=match):
        e.embed_query("hello")


def test_config_errors() -> None:
    with pytest.raises(ConfigError):
        OpenAIEmbedder("", model="m")
    with pytest.raises(ConfigError):
        OpenAIEmbedder("http://x/v1", model="")


def test_never_raises_raw_httpx_errors() -> None:
    with OpenAIEmbedder("http://127.0.0.1:9/v1", model="m", dim=8, max_retries=0) as e:
        try:
            e.embed_query("x")
        except EmbedderError:
            pass
        except httpx.HTTPError as exc:  # pragma: no cover - the failure this test guards against
            pytest.fail(f"raw httpx error escaped: {exc!r}")
