"""Listwise reranking of recalled passages by the chat model (issue 14 item 4; ``recall.rerank``).

The passages are numbered; the model answers the numbers of the relevant ones, most relevant
first. Numbers outside the list and repeats are dropped; passages it leaves out rank last.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict, Field

from ..base import ChatModel
from ..structured import complete_structured
from .base import Prompt
from .summarize import format_memories

__all__ = ["RERANK", "RerankResponse", "rank_passages"]


class RerankResponse(BaseModel):
    model_config = ConfigDict(extra="ignore")

    order: list[int] = Field(description="passage numbers, most relevant first")


RERANK = Prompt(
    name="rerank",
    version=1,
    system="""\
You judge which stored passages help answer a user's question, for a memory system.

Rules:
- Read every numbered passage; keep the ones that hold information needed to answer.
- Order them from most to least useful. Leave out passages that do not help at all.
- Judge by content, not by word overlap; a passage in another language can be the best.

Answer with one JSON object and nothing else:
{"order": [3, 1, 7]}""",
    user="""\
Question:
$query

Passages (numbered):
$passages""",
)


def rank_passages(chat: ChatModel, query: str, passages: Sequence[str]) -> list[int]:
    """The 0-based indices of ``passages`` the model ranked, best first (valid, each once)."""
    answer = complete_structured(
        chat,
        RERANK,
        {"query": query, "passages": format_memories(passages)},
        RerankResponse,
        operation="rerank",
    )
    seen: list[int] = []
    for number in answer.order:
        if 1 <= number <= len(passages) and number - 1 not in seen:
            seen.append(number - 1)
    return seen
