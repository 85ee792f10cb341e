"""When a new memory supersedes a stored one (issue 12 item 2; seed 000 §5.4, seed 004 §4.1).

The old rule — cosine ≥ 0.95 with any current memory → UPDATE — made "我对花生过敏" a new
version of "我对海鲜过敏": e5 similarities sit high for any two sentences of the same
shape. Now, for a new **fact**, the ``write.restatement_candidates`` nearest current facts
are checked in order and the first one the new fact *restates* is superseded:

1. the lexical rule or the slot rule of ``neuromem.text.restatement``;
2. otherwise, when an LLM is configured, its judgement (``judge_restatement`` prompt) for
   candidates at cosine ≥ ``write.near_duplicate_threshold``; an LLM failure counts as
   "not a restatement" (the new fact is added — nothing is lost).

The same words said by two people (a group chat: ``speaker_of``) are two facts: neither a
NOOP nor a restatement. Anything else is an ADD; stored facts and episodes at cosine ≥
``write.near_duplicate_threshold`` get a ``SIMILAR_TO`` edge from the new memory (weight
= cosine). Episodes are append-only (seed 001 §2.3): never superseded, only linked.
Documents and traits are never superseded here.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .errors import LLMError
from .llm.base import ChatModel, UsageRecord
from .llm.prompts.judge_restatement import judge_restatement
from .text.restatement import restatement_reason

log = logging.getLogger(__name__)

RestatementJudge = Callable[[str, str], bool]
"""``judge(new_content, old_content)`` → True when the new content restates the old one."""


@dataclass
class LLMRestatementJudge:
    """The configured chat model as a ``RestatementJudge``; a failing call answers False."""

    chat: ChatModel
    usage: list[UsageRecord] = field(default_factory=list)
    failures: int = 0

    def __call__(self, new: str, old: str) -> bool:
        try:
            return judge_restatement(self.chat, new, old, usage_sink=self.usage.append)
        except LLMError as exc:
            self.failures += 1
            log.warning("restatement judgement failed, the memory is added: %s", exc)
            return False


def speaker_of(metadata: Mapping[str, Any]) -> str:
    """Who said a memory: ``""`` for the user (no name, or a name ingest took for the user's), else the
    other person's name in lower case (``metadata.speaker_is_user`` false: a group chat). The same words
    from two people are two facts: never a NOOP or a restatement of each other."""
    speaker = metadata.get("speaker")
    if metadata.get("speaker_is_user") is False and isinstance(speaker, str):
        return speaker.lower()
    return ""


def restates(
    new: str,
    old: str,
    *,
    new_meta: Mapping[str, Any],
    old_meta: Mapping[str, Any],
    similarity: float,
    judge: RestatementJudge | None,
    judge_floor: float,
) -> str | None:
    """Why ``new`` restates ``old`` (a short reason), or None: the rules first, then the judge.
    Statements of two different people never restate each other."""
    if speaker_of(new_meta) != speaker_of(old_meta):
        return None
    reason = restatement_reason(new, old, new_meta, old_meta)
    if reason is not None:
        return reason
    if judge is not None and similarity >= judge_floor and judge(new, old):
        return "LLM judgement"
    return None
