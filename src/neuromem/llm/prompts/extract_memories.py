"""Extract facts and episodes from conversation turns (seed 002, seed 003 R2G-2, seed 001 §2).

Rendered at call time with the conversation's own date (``$conversation_date``), never
the processing date. The model quotes the user's exact words; neuromem resolves the
time expression itself against the turn's timestamp (``neuromem.text.timeparse``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from ..base import ChatModel, UsageSink
from ..structured import complete_structured
from .base import Prompt

__all__ = ["EXTRACT_MEMORIES", "ExtractedMemory", "ExtractionResponse", "extract_memories"]


class ExtractedEntity(BaseModel):
    model_config = ConfigDict(extra="ignore")

    name: str = Field(min_length=1, max_length=200)
    type: Literal["person", "place", "organization", "other"] = "other"


class ExtractedEmotion(BaseModel):
    model_config = ConfigDict(extra="ignore")

    valence: float = Field(ge=-1, le=1)
    arousal: float = Field(ge=0, le=1)
    label: str = Field(default="", max_length=40)


class ExtractedRelation(BaseModel):
    model_config = ConfigDict(extra="ignore")

    predicate: str = Field(pattern=r"^[a-z][a-z_]{1,29}$", description="e.g. works_at, lives_in, studies_at")
    object: str = Field(min_length=1, max_length=200)
    object_type: Literal["person", "place", "organization", "other"] = "other"


class ExtractedMemory(BaseModel):
    model_config = ConfigDict(extra="ignore")

    turn: int = Field(ge=1, description="number of the turn the memory comes from")
    quote: str = Field(min_length=1, max_length=4000, description="the user's exact words in that turn")
    content: str = Field(min_length=1, max_length=2000)
    type: Literal["fact", "episodic"]
    category: Literal["identity", "preference", "relationship", "task", "procedure", "general"] | None = None
    importance: float = Field(ge=0, le=1)
    entities: list[ExtractedEntity] = Field(default_factory=list, max_length=20)
    keywords: list[str] = Field(default_factory=list, max_length=12)
    time_expression: str | None = Field(default=None, max_length=100)
    emotion: ExtractedEmotion | None = None
    slot: str | None = Field(default=None, max_length=60, description="subject attribute, e.g. employer")
    slot_value: str | None = Field(default=None, max_length=200)
    relation: ExtractedRelation | None = None
    topic: str | None = Field(default=None, max_length=60)


class ExtractionResponse(BaseModel):
    model_config = ConfigDict(extra="ignore")

    memories: list[ExtractedMemory] = Field(default_factory=list, max_length=100)
    small_talk_turns: list[int] = Field(default_factory=list)


EXTRACT_MEMORIES = Prompt(
    name="extract_memories",
    version=1,
    system="""\
You extract long-term memories about the user from a conversation held on $conversation_date.
Only what the user says about themself (and people, places and things in their life) counts.

Rules:
- type "fact" (category identity, preference, relationship, task, procedure or general)
  or "episodic" (something that happened at a time). Never personality traits.
- "content": one short self-contained statement in the SAME language the user spoke
  (中文对话写中文记忆). Keep first person or say "the user"/"用户".
- "quote": the user's exact words the memory comes from, copied from that turn.
- "time_expression": the time words exactly as written ("yesterday", "上周三"), or null.
  Do not compute dates yourself.
- "importance": 0–1 (name, job, home, health, relationships, firm plans ≥ 0.7; passing
  remarks ≤ 0.3). Greetings, thanks and chit-chat produce no memory; list those
  turn numbers in "small_talk_turns".
- "slot"/"slot_value" for single-valued attributes (employer, residence, name,
  likes:<thing> with value positive|negative); "relation" for works_at / lives_in /
  studies_at / married_to … towards a named entity; "topic": one word for the subject.

Answer with one JSON object and nothing else:
{"memories": [{"turn": 1, "quote": "…", "content": "…", "type": "fact", "category": "preference",
  "importance": 0.7, "entities": [{"name": "…", "type": "organization"}], "keywords": ["…"],
  "time_expression": null, "emotion": null, "slot": null, "slot_value": null, "relation": null,
  "topic": null}], "small_talk_turns": []}""",
    user="""\
Conversation (numbered turns, with their time):
$turns""",
)


def format_turns(turns: Sequence[tuple[str, str, str]]) -> str:
    """``(role, time, text)`` triples as ``[1] user (2024-03-13 10:00): text``."""
    return "\n".join(f"[{i}] {role} ({when}): {text}" for i, (role, when, text) in enumerate(turns, start=1))


def extract_memories(
    chat: ChatModel,
    turns: Sequence[tuple[str, str, str]],
    *,
    conversation_date: str,
    usage_sink: UsageSink | None = None,
) -> ExtractionResponse:
    return complete_structured(
        chat,
        EXTRACT_MEMORIES,
        {"turns": format_turns(turns), "conversation_date": conversation_date},
        ExtractionResponse,
        operation="extract_memories",
        usage_sink=usage_sink,
    )
