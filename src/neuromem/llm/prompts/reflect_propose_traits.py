"""Propose new trends and behaviour patterns from a batch of a user's memories (seed 001 §4.1, §4.5 steps 2/4).

The memories are listed one per line as ``label | date | session | context hint |
new/old | text``; the answer names memories by their label. The caller
(``neuromem.reflect.llm_detector``) checks every label against the memories it
showed and applies the rules of the offline detector (≥ 2 sessions, behaviour
≥ 3 memories, sensitive memories never shown).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from ..base import ChatModel, UsageSink
from ..structured import complete_structured
from .base import Prompt

__all__ = [
    "PROPOSE_TRAITS",
    "ProposeTraitsResponse",
    "ProposedTraitItem",
    "TraitContextName",
    "clock_variables",
    "propose_traits",
]

TraitContextName = Literal["work", "personal", "social", "learning", "general"]
"""The contexts of seed 001 §3.2 a detector may name (``contextual`` is set by a split only)."""


def clock_variables(now: str | None) -> dict[str, str]:
    """``$now`` from the reflection cycle's injected clock; ``None`` leaves it to render time."""
    return {} if now is None else {"now": now}


class ProposedTraitItem(BaseModel):
    model_config = ConfigDict(extra="ignore")

    kind: Literal["trend", "behavior"]
    content: str = Field(min_length=1, max_length=400)
    context: TraitContextName = "general"
    keywords: list[str] = Field(default_factory=list, max_length=8)
    memories: list[str] = Field(min_length=1, description="labels of the supporting memories")
    negated: bool = False
    emotional: bool = False


class ProposeTraitsResponse(BaseModel):
    model_config = ConfigDict(extra="ignore")

    traits: list[ProposedTraitItem] = Field(default_factory=list, max_length=20)


PROPOSE_TRAITS = Prompt(
    name="reflect_propose_traits",
    version=1,
    system="""\
You reflect on an assistant's long-term memories about one user to find recurring
patterns (seed: traits are never taken from a single conversation). It is now $now.

Propose a trait only when several memories from DIFFERENT sessions show it:
- "behavior": the same kind of action or choice recurs — at least $behavior_min
  memories from at least two sessions;
- "trend": something the user is recently focused on — at least $trend_min memories
  from at least two sessions (it will be watched for a few weeks).
Each trait must rest on at least one memory marked "new".

For each trait give:
- "content": one sentence describing the tendency, in the language most of its
  memories are written in (中文记忆就用中文写);
- "context": work, personal, social, learning, or general when it shows in several;
- "keywords": 1–5 short theme words taken from the memories (the first is the main theme);
- "memories": the labels (like "m3") of the memories that support it — only labels listed below;
- "negated": true when the pattern is that the user does NOT do something;
- "emotional": true for a mood or emotional state.
Do not repeat a trait listed as already known. Never use health, politics or religion.

Answer with one JSON object and nothing else:
{"traits": [{"kind": "behavior", "content": "…", "context": "personal", "keywords": ["…"],
  "memories": ["m1", "m4", "m7"], "negated": false, "emotional": false}]}""",
    user="""\
Traits already known (do not propose these again):
$known

Memories (label | date | session | context hint | new/old | text):
$memories""",
)


def propose_traits(
    chat: ChatModel,
    memories: str,
    known: str,
    *,
    now: str | None,
    behavior_min: int,
    trend_min: int,
    max_attempts: int = 3,
    usage_sink: UsageSink | None = None,
) -> ProposeTraitsResponse:
    """Render with the cycle's clock ``now`` and ask; the labels are checked by the caller."""
    return complete_structured(
        chat,
        PROPOSE_TRAITS,
        {
            "memories": memories,
            "known": known or "(none)",
            "behavior_min": behavior_min,
            "trend_min": trend_min,
        }
        | clock_variables(now),
        ProposeTraitsResponse,
        operation="reflect_propose_traits",
        max_attempts=max_attempts,
        usage_sink=usage_sink,
    )
