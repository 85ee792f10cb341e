"""Word a preference or core trait induced from its child traits (seed 001 §3.3, §4.5 steps 5–6).

The engine decides *that* an upgrade happens (≥ 2 related children above the
confidence bar); this prompt only names the tendency they share.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from ..base import ChatModel, UsageSink
from ..structured import complete_structured
from .base import Prompt
from .reflect_propose_traits import clock_variables as _clock

__all__ = ["ABSTRACT_TRAIT", "AbstractTraitResponse", "abstract_trait"]


class AbstractTraitResponse(BaseModel):
    model_config = ConfigDict(extra="ignore")

    content: str = Field(min_length=1, max_length=400)


ABSTRACT_TRAIT = Prompt(
    name="reflect_abstract_trait",
    version=1,
    system="""\
An assistant has observed several related traits of one user. It is now $now.
Write the one $subtype they have in common, as a single sentence:
- a "preference" names what the user prefers or values, across these behaviours;
- a "core" trait names a stable personality characteristic behind these preferences.
Write in the language of the traits (中文特质用中文). Do not invent details.

Answer with one JSON object and nothing else:
{"content": "…"}""",
    user="""\
Related traits:
$children""",
)


def abstract_trait(
    chat: ChatModel,
    children: str,
    *,
    subtype: Literal["preference", "core"] | str,
    now: str | None,
    max_attempts: int = 3,
    usage_sink: UsageSink | None = None,
) -> AbstractTraitResponse:
    return complete_structured(
        chat,
        ABSTRACT_TRAIT,
        {"children": children, "subtype": subtype} | _clock(now),
        AbstractTraitResponse,
        operation="reflect_abstract_trait",
        max_attempts=max_attempts,
        usage_sink=usage_sink,
    )
