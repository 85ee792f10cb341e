"""A relevance judge when the user has one (issue 14 item 4; seed 003 §5.3 "精排").

:class:`Reranker` has one method, :meth:`Reranker.score`: one relevance score per passage. Two
providers over the project's one HTTP client (``llm._http``):

- :class:`HTTPReranker` — the common ``POST {base_url}/rerank`` shape: ``{"query", "documents"}``
  answered with ``{"results": [{"index", "relevance_score"}]}`` (Cohere, Jina, vLLM) or with a bare
  array of ``{"index", "score"}`` (Hugging Face TEI, which reads ``"texts"``: both keys are sent);
- :class:`LLMReranker` — listwise, over the configured chat model (``ChatModel``): the passages
  numbered in one prompt (``llm/prompts/rerank.py``), the model answers the numbers best first.

Off by default (``reranker.provider = "off"``). When on, the pipeline sends the best ``top_n``
fused hits, with one deadline for the whole call (``timeout_s``); an error, a timeout or a
malformed answer leaves the fused order as it was and the trace says why (``paths["rerank"]``).
The reranked head keeps the fused scores' scale: the head's final scores are re-assigned in the
judge's order (the k-th best judged passage gets the k-th best fused score of the head).
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any

from ..config import RerankerSettings
from ..errors import ConfigError, LLMError, ModelError
from ..llm._http import RetryPolicy, make_client, post_json
from ..llm.base import ChatModel
from ..llm.prompts.rerank import rank_passages


class RerankerError(ModelError):
    """The reranker failed or answered something that is not a ranking of the passages."""


class Reranker(ABC):
    """Scores passages against a query; higher is more relevant (STYLE habit 4: one abstract method)."""

    name: str = "reranker"

    @abstractmethod
    def score(self, query: str, passages: Sequence[str], *, deadline_s: float) -> list[float]:
        """One score per passage, in the passages' order; raises :class:`RerankerError` (or another
        ``ModelError``) when the judge fails or ``deadline_s`` passes."""

    def close(self) -> None:  # noqa: B027 - optional hook
        """Release the provider's connections."""


class HTTPReranker(Reranker):
    """The ``/rerank`` endpoint of TEI, vLLM, Jina or Cohere (module docstring)."""

    def __init__(
        self, base_url: str, *, model: str | None = None, api_key: str | None = None, timeout_s: float = 2.0
    ) -> None:
        if not base_url:
            raise ConfigError(
                "HTTPReranker needs a base_url such as http://localhost:8080 (TEI) or https://api.jina.ai/v1"
            )
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.name = f"rerank {model or self.base_url}"
        self._client = make_client(self.base_url, api_key, timeout_s)
        self._policy = RetryPolicy(max_retries=0)  # a late reranker is worse than none: no retries

    def score(self, query: str, passages: Sequence[str], *, deadline_s: float) -> list[float]:
        if not passages:
            return []
        payload: dict[str, Any] = {
            "query": query,
            "documents": list(passages),
            "texts": list(passages),
            "top_n": len(passages),
            "return_documents": False,
        }
        if self.model:
            payload["model"] = self.model
        answer = post_json(
            self._client,
            "rerank",
            payload,
            policy=self._policy,
            error=RerankerError,
            provider=self.name,
            deadline_s=deadline_s,
            list_ok=True,
        )
        items = answer.body.get("results", answer.body.get("items", answer.body.get("data")))
        return scores_from(items, len(passages))

    def close(self) -> None:
        self._client.close()


def scores_from(items: Any, n: int) -> list[float]:
    """``[{"index", "relevance_score" | "score"}]`` → one score per passage (unranked ones lowest)."""
    if not isinstance(items, list):
        raise RerankerError(f"the reranker answered no list of results: {str(items)[:200]}")
    out = [float("-inf")] * n
    for item in items:
        try:
            index = int(item["index"])
            value = float(item["relevance_score"] if "relevance_score" in item else item["score"])
        except (KeyError, TypeError, ValueError):
            raise RerankerError(f"a reranker result has no index and score: {str(item)[:200]}") from None
        if not 0 <= index < n:
            raise RerankerError(f"the reranker answered index {index} for {n} passages")
        out[index] = value
    if all(v == float("-inf") for v in out):
        raise RerankerError("the reranker scored none of the passages")
    return out


class LLMReranker(Reranker):
    """Listwise reranking by the configured chat model: it answers the passage numbers, best first."""

    def __init__(self, chat: ChatModel, *, max_passage_chars: int = 600) -> None:
        self.chat = chat
        self.max_passage_chars = max_passage_chars
        self.name = "rerank llm"

    def score(self, query: str, passages: Sequence[str], *, deadline_s: float) -> list[float]:
        if not passages:
            return []
        started = time.monotonic()
        try:
            order = rank_passages(self.chat, query, [p[: self.max_passage_chars] for p in passages])
        except LLMError as exc:
            raise RerankerError(f"the LLM reranker failed: {exc}") from exc
        if time.monotonic() - started > deadline_s:
            raise RerankerError(f"the LLM reranker answered after its {deadline_s:g} s deadline")
        if not order:
            raise RerankerError("the LLM reranker ranked none of the passages")
        out = [float("-inf")] * len(passages)
        for rank, index in enumerate(order):
            out[index] = float(len(order) - rank)
        return out


def create_reranker(settings: RerankerSettings, chat: ChatModel | None) -> Reranker | None:
    """The configured reranker (composed at the edge, STYLE habit 6), or None when off."""
    if settings.provider == "off":
        return None
    if settings.provider == "http":
        if not settings.base_url:
            raise ConfigError("reranker.provider = http needs reranker.base_url")
        return HTTPReranker(
            settings.base_url, model=settings.model, api_key=settings.api_key, timeout_s=settings.timeout_s
        )
    if chat is None:
        raise ConfigError("reranker.provider = llm needs a chat model (llm.base_url)")
    return LLMReranker(chat)
