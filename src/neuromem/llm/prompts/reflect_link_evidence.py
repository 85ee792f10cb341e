"""Link a user's new memories to the traits already known, with an evidence grade A–D and a context
(seed 001 §4.2 "证据质量分级", §4.5 steps 2/4/7).

Labels ``t1…`` name traits and ``m1…`` memories; the caller checks both against
what it showed and keeps the grade within what the evidence can support.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from ..base import ChatModel, UsageSink
from ..structured import complete_structured
from .base import Prompt
from .reflect_propose_traits import TraitContextName
from .reflect_propose_traits import clock_variables as _clock

__all__ = ["LINK_EVIDENCE", "EvidenceLinkItem", "LinkEvidenceResponse", "link_evidence"]


class EvidenceLinkItem(BaseModel):
    model_config = ConfigDict(extra="ignore")

    trait: str = Field(description="label of the trait, like t2")
    memory: str = Field(description="label of the memory, like m5")
    relation: Literal["supporting", "contradicting"]
    quality: Literal["A", "B", "C", "D"]
    context: TraitContextName | None = None
    strong: bool = Field(default=False, description="an explicit, direct contradiction")


class LinkEvidenceResponse(BaseModel):
    model_config = ConfigDict(extra="ignore")

    links: list[EvidenceLinkItem] = Field(default_factory=list)


LINK_EVIDENCE = Prompt(
    name="reflect_link_evidence",
    version=1,
    system="""\
You maintain the personality traits an assistant has inferred about one user. It is now $now.
For each new memory, decide which known traits it supports or contradicts (most memories
concern none: leave them out).

Grade each piece of evidence:
- "A": the trait now shows in several contexts (e.g. at work AND in personal life);
- "B": the user explicitly describes themself ("I always…", "我总是…");
- "C": a further observation from another session, same context;
- "D": a weak or implicit signal.
"context" is where this memory happens: work, personal, social, learning or general.
"strong": true only for a contradicting memory that states the opposite explicitly.

Answer with one JSON object and nothing else, using only the labels listed:
{"links": [{"trait": "t1", "memory": "m2", "relation": "supporting", "quality": "B",
  "context": "work", "strong": false}]}""",
    user="""\
Known traits (label | subtype | stage | context | confidence | text):
$traits

New memories (label | date | session | context hint | new/old | text):
$memories""",
)


def link_evidence(
    chat: ChatModel,
    traits: str,
    memories: str,
    *,
    now: str | None,
    max_attempts: int = 3,
    usage_sink: UsageSink | None = None,
) -> LinkEvidenceResponse:
    """Render with the cycle's clock ``now`` and ask; labels and grades are checked by the caller."""
    return complete_structured(
        chat,
        LINK_EVIDENCE,
        {"traits": traits, "memories": memories} | _clock(now),
        LinkEvidenceResponse,
        operation="reflect_link_evidence",
        max_attempts=max_attempts,
        usage_sink=usage_sink,
    )
