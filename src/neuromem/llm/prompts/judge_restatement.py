"""Is a new memory a restatement of a stored one? (issue 12 item 2: supersede only restatements).

Asked by the write path (``neuromem.supersede``) when an LLM is configured, for stored
memories similar to the new one that the lexical and slot rules did not already settle.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from ..base import ChatModel, UsageSink
from ..structured import complete_structured
from .base import Prompt

__all__ = ["JUDGE_RESTATEMENT", "RestatementResponse", "judge_restatement"]


class RestatementResponse(BaseModel):
    model_config = ConfigDict(extra="ignore")

    restatement: bool


JUDGE_RESTATEMENT = Prompt(
    name="judge_restatement",
    version=1,
    system="""\
You keep an assistant's long-term memory about one user. Decide whether a NEW memory
only restates an EXISTING one: the same fact about the same thing, with the same value,
in other words. Different objects, people, places, amounts, dates, severities, or a
negation make it a different fact ("allergic to peanuts" vs "allergic to seafood" are
different facts). When unsure, answer false.

Answer with one JSON object and nothing else: {"restatement": true} or {"restatement": false}""",
    user="""\
EXISTING: $existing
NEW: $new_memory""",
)


def judge_restatement(
    chat: ChatModel, new_memory: str, existing: str, *, usage_sink: UsageSink | None = None
) -> bool:
    answer = complete_structured(
        chat,
        JUDGE_RESTATEMENT,
        {"new_memory": new_memory.strip(), "existing": existing.strip()},
        RestatementResponse,
        operation="judge_restatement",
        usage_sink=usage_sink,
    )
    return answer.restatement
