"""Decide what a new memory does to the similar ones already stored (seed 000 §5.4, seed 004 §4.1).

The answer is checked by the caller (``neuromem.ingest.decide``): the target must be
one of the memories shown, and an UPDATE keeps the user's language.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from ..base import ChatModel, UsageSink
from ..structured import complete_structured
from .base import Prompt

__all__ = ["DECIDE_OPERATION", "DecisionResponse", "decide_operation"]


class DecisionResponse(BaseModel):
    model_config = ConfigDict(extra="ignore")

    operation: Literal["ADD", "UPDATE", "DELETE", "NOOP"]
    target: int | None = Field(default=None, description="number of the existing memory concerned")
    mode: Literal["merge", "replace", "keep_both"] | None = None
    content: str | None = Field(default=None, max_length=2000, description="merged text for UPDATE")
    reason: str | None = Field(default=None, max_length=300, description="why, in a few words")


DECIDE_OPERATION = Prompt(
    name="decide_operation",
    version=2,
    system="""\
You maintain an assistant's long-term memory about one user. A new memory arrives;
compare it with the existing memories (numbered) and choose exactly one operation:

- "NOOP": the new memory says nothing that an existing one (target) does not already say.
- "UPDATE": it refines or extends an existing one (target); give the merged text in
  "content", written in the same language as the new memory; mode "merge" or "replace".
- "DELETE": it gives a new value to the same subject and relation as an existing one
  (target) whose relation holds one value at a time — where someone lives or works, a
  phone number or extension, a password, a price, a status, a manager or partner, a
  deadline — or it negates it ("I quit smoking"); the old one is ended (kept in history)
  and the new one is stored. Words like "now", "changed", "moved", "switched", "no
  longer", 现在, 改成, 换成, 搬到, 不再 are strong signs of such a change.
- "ADD": it is new information (mode "keep_both" when related memories exist). Another
  value of a relation that holds many values at once (allergies, likes, children, friends,
  languages spoken) is an ADD: both stay true. Two different facts are never merged or ended.

Answer with one JSON object and nothing else:
{"operation": "ADD|UPDATE|DELETE|NOOP", "target": 1, "mode": "merge|replace|keep_both", "content": "…",
 "reason": "a few words"}""",
    user="""\
New memory:
$new_memory

Existing memories:
$existing""",
)


def decide_operation(
    chat: ChatModel, new_memory: str, existing: Sequence[str], *, usage_sink: UsageSink | None = None
) -> DecisionResponse:
    listing = "\n".join(f"[{i}] {text.strip()}" for i, text in enumerate(existing, start=1))
    return complete_structured(
        chat,
        DECIDE_OPERATION,
        {"new_memory": new_memory, "existing": listing},
        DecisionResponse,
        operation="decide_operation",
        usage_sink=usage_sink,
    )
