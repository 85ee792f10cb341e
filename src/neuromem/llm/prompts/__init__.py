"""Every prompt neuromem sends, in one place (STYLE habit 10).

One module per task, holding the ``Prompt`` and its pydantic response schema.
To add one: write ``prompts/<task>.py`` like ``summarize.py`` and add it to
``PROMPTS`` below.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from .base import CALL_TIME_VARIABLES, Prompt
from .decide_operation import DECIDE_OPERATION
from .extract_memories import EXTRACT_MEMORIES
from .judge_restatement import JUDGE_RESTATEMENT
from .reflect_abstract_trait import ABSTRACT_TRAIT
from .reflect_judge_contradiction import JUDGE_CONTRADICTION
from .reflect_link_evidence import LINK_EVIDENCE
from .reflect_propose_traits import PROPOSE_TRAITS
from .summarize import SUMMARIZE

__all__ = ["CALL_TIME_VARIABLES", "PROMPTS", "Prompt", "get_prompt"]

PROMPTS: Mapping[str, Prompt] = MappingProxyType(
    {
        p.name: p
        for p in (
            SUMMARIZE,
            EXTRACT_MEMORIES,
            DECIDE_OPERATION,
            PROPOSE_TRAITS,
            LINK_EVIDENCE,
            JUDGE_CONTRADICTION,
            ABSTRACT_TRAIT,
            JUDGE_RESTATEMENT,
        )
    }
)


def get_prompt(name: str) -> Prompt:
    """The registered prompt called ``name``; ``KeyError`` lists the known names."""
    try:
        return PROMPTS[name]
    except KeyError:
        raise KeyError(f"no prompt named {name!r}; known: {', '.join(sorted(PROMPTS))}") from None
