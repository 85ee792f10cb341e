"""Judge a trait whose contradiction ratio passed the threshold (seed 001 §4.4 "聚焦反思").

The answer revises the trait, splits it by context (``trait_context =
'contextual'`` with a tendency and a confidence per context), dissolves it, or
keeps it. The schema itself refuses an answer that cannot be applied (a revision
without text, a split with fewer than two contexts), so ``complete_structured``
asks again with the error.
"""

from __future__ import annotations

from typing import Literal, Self

from pydantic import BaseModel, ConfigDict, Field, model_validator

from ..base import ChatModel, UsageSink
from ..structured import complete_structured
from .base import Prompt
from .reflect_propose_traits import TraitContextName
from .reflect_propose_traits import clock_variables as _clock

__all__ = ["JUDGE_CONTRADICTION", "ContextTendency", "JudgeContradictionResponse", "judge_contradiction"]


class ContextTendency(BaseModel):
    model_config = ConfigDict(extra="ignore")

    tendency: str = Field(min_length=1, max_length=300)
    confidence: float = Field(ge=0, le=1)


class JudgeContradictionResponse(BaseModel):
    model_config = ConfigDict(extra="ignore")

    action: Literal["keep", "revise", "split", "dissolve"]
    content: str | None = Field(default=None, max_length=400)
    confidence: float | None = Field(default=None, ge=0, le=1)
    contexts: dict[TraitContextName, ContextTendency] = Field(default_factory=dict)
    reason: str = Field(default="", max_length=500)

    @model_validator(mode="after")
    def _applicable(self) -> Self:
        if self.action in ("revise", "split") and not (self.content or "").strip():
            raise ValueError(f'action "{self.action}" needs the new trait text in "content"')
        if self.action == "split" and len(self.contexts) < 2:
            raise ValueError('action "split" needs "contexts" with at least two contexts')
        return self


JUDGE_CONTRADICTION = Prompt(
    name="reflect_judge_contradiction",
    version=1,
    system="""\
A trait an assistant inferred about one user is contradicted by part of the evidence.
It is now $now. Read the supporting and the contradicting memories and choose one action:

- "split": the user behaves one way in one context and another way in another (e.g. careful
  at work, relaxed at home). Give "content" describing both, and "contexts" with, for each
  context (work, personal, social, learning, general), the "tendency" there and a "confidence" 0–1;
- "revise": the user has changed; give the new "content" and its "confidence" 0–1;
- "dissolve": the trait no longer holds;
- "keep": the contradictions are exceptions.
Write "content" and each "tendency" in the language of the trait (中文特质用中文).

Answer with one JSON object and nothing else:
{"action": "split", "content": "…", "confidence": 0.5,
 "contexts": {"work": {"tendency": "…", "confidence": 0.7}, "personal": {"tendency": "…", "confidence": 0.6}},
 "reason": "…"}""",
    user="""\
Trait ($subtype, context $context, confidence $confidence):
$trait

Supporting memories (date | grade | context | text):
$supporting

Contradicting memories (date | grade | context | text):
$contradicting""",
)


def judge_contradiction(
    chat: ChatModel,
    *,
    trait: str,
    subtype: str,
    context: str,
    confidence: float,
    supporting: str,
    contradicting: str,
    now: str | None,
    max_attempts: int = 3,
    usage_sink: UsageSink | None = None,
) -> JudgeContradictionResponse:
    """Render with the cycle's clock ``now`` and ask for a judgement that can be applied."""
    return complete_structured(
        chat,
        JUDGE_CONTRADICTION,
        {
            "trait": trait,
            "subtype": subtype,
            "context": context,
            "confidence": f"{confidence:.2f}",
            "supporting": supporting or "(none)",
            "contradicting": contradicting or "(none)",
        }
        | _clock(now),
        JudgeContradictionResponse,
        operation="reflect_judge_contradiction",
        max_attempts=max_attempts,
        usage_sink=usage_sink,
    )
