"""Compress recalled memories into 3–6 bullet points for the system prompt (seed 002).

The pattern every prompt module follows: the ``Prompt``, its response schema,
and a small typed function that renders, calls and post-checks.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict, Field

from ..base import ChatModel, UsageSink
from ..structured import complete_structured
from .base import Prompt

__all__ = ["SUMMARIZE", "SummaryBullet", "SummaryResponse", "summarize_memories"]


class SummaryBullet(BaseModel):
    model_config = ConfigDict(extra="ignore")

    text: str = Field(min_length=1, max_length=400)
    sources: list[int] = Field(
        default_factory=list, description="numbers of the memories this bullet rests on"
    )


class SummaryResponse(BaseModel):
    model_config = ConfigDict(extra="ignore")

    bullets: list[SummaryBullet] = Field(min_length=1, max_length=6)


SUMMARIZE = Prompt(
    name="summarize",
    version=1,
    system="""\
You condense an assistant's long-term memories about a user into a short briefing.
Today is $today. Resolve relative dates ("yesterday", "last week") against the
dates given with each memory, and write absolute dates.

Rules:
- Write 3 to 6 bullet points (fewer only if there is less to say), most relevant first.
- Keep only what helps answer the user's current message; merge duplicates.
- Never invent facts. If memories conflict, prefer the newer one and say so.
- Write in the language of the user's current message (中文消息用中文回答).
- Cite the numbers of the memories each bullet is based on in "sources".

Answer with one JSON object and nothing else:
{"bullets": [{"text": "…", "sources": [1, 3]}]}""",
    user="""\
The user's current message:
$query

Memories (numbered):
$memories""",
)


def format_memories(memories: Sequence[str]) -> str:
    """``[1] first\\n[2] second`` — the numbering ``sources`` refers to."""
    return "\n".join(f"[{i}] {text.strip()}" for i, text in enumerate(memories, start=1))


def summarize_memories(
    chat: ChatModel,
    memories: Sequence[str],
    query: str,
    *,
    today: str | None = None,
    usage_sink: UsageSink | None = None,
) -> list[SummaryBullet]:
    """Ask ``chat`` for the briefing; sources outside ``1..len(memories)`` are dropped."""
    variables: dict[str, str] = {"query": query, "memories": format_memories(memories)}
    if today is not None:
        variables["today"] = today
    answer = complete_structured(
        chat, SUMMARIZE, variables, SummaryResponse, operation="summarize", usage_sink=usage_sink
    )
    valid = range(1, len(memories) + 1)
    return [
        bullet.model_copy(update={"sources": [s for s in bullet.sources if s in valid]})
        for bullet in answer.bullets
    ]
