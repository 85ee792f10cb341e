"""The LLM pattern detector (issue 5 §4; seed 001 §4.1–§4.5): prompts ``reflect_*`` behind the
:class:`~neuromem.reflect.detector.PatternDetector` interface.

Each answer is held to the rules of the offline detector before the engine sees it:

- memories and traits are shown under short labels (``m1``, ``t1``); an item that
  names a label not shown is **rejected** — so only the memories given (never a
  sensitive one: :func:`~neuromem.reflect.observations.from_row` drops those) can
  become evidence;
- a proposed trait must rest on memories from **two or more sessions** and on at
  least one new memory; a "behavior" with fewer than ``behavior_min_support``
  memories is kept as a trend, a trend needs ``trend_min_support``;
- grades are A–D by schema; an ``A`` ("several contexts", seed 001 §4.2) is lowered
  to ``B`` when the trait has not been seen in two contexts;
- the trait text must be in the language of its evidence, else the offline
  wording is used.

Every rejection is recorded as a ``reflect_llm_rejected`` pipeline event. When a
call fails after ``complete_structured``'s repair and retries (``LLMError``), this
cycle's detector falls back to the offline rules for the rest of the cycle and
records the failure (``reflect_llm_fallback`` event, ``details["detector_log"]``)
— never a silently lost cycle. Token usage of every call goes to ``model_usage``
through :class:`~neuromem.reflect.detector.CycleLog`.
"""

from __future__ import annotations

import datetime as dt
import logging
import uuid
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

from ..config import TraitSettings
from ..errors import LLMError
from ..llm.base import ChatModel
from ..llm.prompts.reflect_abstract_trait import abstract_trait
from ..llm.prompts.reflect_judge_contradiction import judge_contradiction
from ..llm.prompts.reflect_link_evidence import link_evidence
from ..llm.prompts.reflect_propose_traits import ProposedTraitItem, propose_traits
from ..store.traits import Evidence
from ..text.language import detect_language
from ..types import EvidenceQuality
from .detector import (
    CycleLog,
    EvidenceLink,
    Judgement,
    PatternDetector,
    ProposedEvidence,
    ProposedTrait,
    TraitView,
)
from .math import grade_evidence
from .observations import Observation
from .offline import OfflineDetector
from .wording import lang_key, majority_language, pattern_text

log = logging.getLogger(__name__)
T = TypeVar("T")
_MAX_JUDGE_EVIDENCE = 30  # newest evidence rows of each side shown to the judgement prompt
_MAX_KEYWORDS = 5


def _line(text: str) -> str:
    return " ".join(str(text).replace("|", "/").split())


def observation_line(label: str, obs: Observation, new: bool) -> str:
    """``label | date | session | context hint | new/old | text`` — the listing the prompts describe."""
    when = obs.observed_at.date().isoformat()
    return f"{label} | {when} | {_line(obs.session)} | {obs.context or '-'} | {'new' if new else 'old'} | {_line(obs.content)}"


def trait_line(label: str, trait: TraitView) -> str:
    """``label | subtype | stage | context | confidence | text``."""
    return (
        f"{label} | {trait.subtype} | {trait.stage} | {trait.context or '-'} | {trait.confidence:.2f} | "
        f"{_line(trait.content)}"
    )


def _chunks(items: Sequence[T], size: int) -> list[Sequence[T]]:
    return [items[i : i + size] for i in range(0, len(items), size)]


def _same_language(text: str, language: str) -> bool:
    detected = str(detect_language(text))
    return detected == "other" or lang_key(detected) == lang_key(language)


class LLMDetector(PatternDetector):
    """Pattern detection by an OpenAI-compatible chat model, validated and with an offline fallback.

    The instance the service holds is a template; :meth:`for_cycle` gives each
    cycle its own instance carrying the cycle's clock (rendered into the
    prompts as ``$now``), its usage records and its fallback state.
    """

    name = "llm"

    def __init__(
        self,
        chat: ChatModel,
        settings: TraitSettings | None = None,
        fallback: PatternDetector | None = None,
        *,
        user_id: str | None = None,
        now: dt.datetime | None = None,
    ) -> None:
        self.chat = chat
        self.settings = settings or TraitSettings()
        self.fallback = fallback or OfflineDetector(self.settings)
        self.user_id = user_id
        self.now = now
        self._log = CycleLog()
        self._failure: str | None = None
        self._counts: Counter[str] = Counter()
        self._known: Sequence[TraitView] = ()

    # ------------------------------------------------------------------ cycle state
    def for_cycle(self, user_id: str, now: dt.datetime) -> LLMDetector:
        return LLMDetector(self.chat, self.settings, self.fallback, user_id=user_id, now=now)

    def cycle_log(self) -> CycleLog:
        details: dict[str, Any] = {
            "detector": self.name,
            "model": getattr(self.chat, "model", "?"),
            **dict(sorted(self._counts.items())),
        }
        if self._failure is not None:
            details["fallback"] = self.fallback.name
            details["llm_error"] = self._failure
        return CycleLog(usage=list(self._log.usage), events=list(self._log.events), details=details)

    @property
    def failed(self) -> str | None:
        """The error that switched this cycle to the offline fallback, if any."""
        return self._failure

    def close(self) -> None:
        self.chat.close()

    def _now_text(self) -> str | None:
        return None if self.now is None else self.now.isoformat(timespec="minutes")

    def _reject(self, operation: str, reason: str, item: Any) -> None:
        self._counts["rejected"] += 1
        detail = {"operation": operation, "reason": reason, "item": item}
        self._log.events.append(("reflect_llm_rejected", detail))
        log.info("reflection (%s): rejected LLM output (%s): %s", self.user_id, reason, item)

    def _ask(self, operation: str, ask: Callable[[], T], offline: Callable[[], T]) -> T:
        """Run ``ask`` (model call + validation); on ``LLMError`` fall back for the rest of the cycle."""
        if self._failure is not None:
            self._counts["offline_calls"] += 1
            return offline()
        try:
            result = ask()
        except LLMError as exc:
            self._failure = f"{operation}: {type(exc).__name__}: {exc}"[:2000]
            self.name = f"{LLMDetector.name}+{self.fallback.name}"  # what this cycle really used
            self._log.events.append(
                (
                    "reflect_llm_fallback",
                    {"operation": operation, "error": self._failure, "to": self.fallback.name},
                )
            )
            log.warning("reflection for %s: LLM failed (%s); offline rules for this cycle", self.user_id, exc)
            self._counts["offline_calls"] += 1
            return offline()
        self._counts["llm_calls"] += 1
        return result

    # ------------------------------------------------------------------ link
    def link(self, new: Sequence[Observation], traits: Sequence[TraitView]) -> list[EvidenceLink]:
        self._known = traits
        if not new or not traits:
            return []
        return self._ask("link", lambda: self._link(new, traits), lambda: self.fallback.link(new, traits))

    def _link(self, new: Sequence[Observation], traits: Sequence[TraitView]) -> list[EvidenceLink]:
        by_label_t = {f"t{i}": t for i, t in enumerate(traits, start=1)}
        listing_t = "\n".join(trait_line(label, t) for label, t in by_label_t.items())
        out: list[EvidenceLink] = []
        seen: set[tuple[uuid.UUID, uuid.UUID]] = set()
        for batch in _chunks(new, self.settings.llm_batch_size):
            by_label_m = {f"m{i}": o for i, o in enumerate(batch, start=1)}
            listing_m = "\n".join(observation_line(label, o, True) for label, o in by_label_m.items())
            answer = link_evidence(
                self.chat,
                listing_t,
                listing_m,
                now=self._now_text(),
                max_attempts=self.settings.llm_max_attempts,
                usage_sink=self._log.usage.append,
            )
            contexts: dict[uuid.UUID, set[str]] = {t.id: set(t.contexts_seen) for t in traits}
            accepted = []
            for item in answer.links:
                trait, obs = by_label_t.get(item.trait), by_label_m.get(item.memory)
                if trait is None or obs is None:
                    self._reject("link", "unknown trait or memory label", item.model_dump())
                    continue
                if (trait.id, obs.id) in seen:
                    continue
                seen.add((trait.id, obs.id))
                context = item.context or obs.context
                if item.relation == "supporting" and context:
                    contexts[trait.id].add(context)
                accepted.append((item, trait, obs, context))
            for item, trait, obs, context in accepted:
                quality = EvidenceQuality(item.quality)
                known = {c for c in contexts[trait.id] if c != "general"}
                if quality is EvidenceQuality.A and len(known) < 2:
                    quality = EvidenceQuality.B  # "several contexts" is a fact of the evidence, not a claim
                    self._counts["grades_lowered"] += 1
                strong = item.relation == "contradicting" and item.strong
                out.append(EvidenceLink(trait.id, obs.id, item.relation, quality, context, strong=strong))
        return out

    # ------------------------------------------------------------------ propose
    def propose(self, pool: Sequence[Observation], new_ids: frozenset[uuid.UUID]) -> list[ProposedTrait]:
        return self._ask(
            "propose", lambda: self._propose(pool, new_ids), lambda: self.fallback.propose(pool, new_ids)
        )

    def _propose(self, pool: Sequence[Observation], new_ids: frozenset[uuid.UUID]) -> list[ProposedTrait]:
        ordered = sorted(pool, key=lambda o: (o.observed_at, str(o.id)))
        known = "\n".join(trait_line(f"t{i}", t) for i, t in enumerate(self._known, start=1))
        out: list[ProposedTrait] = []
        for batch in _chunks(ordered, self.settings.llm_batch_size):
            if not any(o.id in new_ids for o in batch):
                continue
            by_label = {f"m{i}": o for i, o in enumerate(batch, start=1)}
            listing = "\n".join(observation_line(label, o, o.id in new_ids) for label, o in by_label.items())
            answer = propose_traits(
                self.chat,
                listing,
                known,
                now=self._now_text(),
                behavior_min=self.settings.behavior_min_support,
                trend_min=self.settings.trend_min_support,
                max_attempts=self.settings.llm_max_attempts,
                usage_sink=self._log.usage.append,
            )
            for item in answer.traits:
                proposal = self._admit(item, by_label, new_ids)
                if proposal is not None:
                    out.append(proposal)
        return out

    def _admit(
        self, item: ProposedTraitItem, by_label: dict[str, Observation], new_ids: frozenset[uuid.UUID]
    ) -> ProposedTrait | None:
        """The offline detector's rules applied to one proposed trait (see the module docstring)."""
        s = self.settings
        unknown = [label for label in item.memories if label not in by_label]
        if unknown:
            self._reject("propose", f"unknown memory labels {unknown}", item.model_dump())
            return None
        members = list({label: by_label[label] for label in item.memories}.values())
        sessions = {o.session for o in members}
        if len(sessions) < 2:
            self._reject("propose", "a trait from a single session", item.model_dump())
            return None
        if not any(o.id in new_ids for o in members):
            self._reject("propose", "no new memory among the evidence", item.model_dump())
            return None
        kind = item.kind
        if kind == "behavior" and len(members) < s.behavior_min_support:
            kind = "trend"
            self._counts["behaviors_kept_as_trends"] += 1
        if len(members) < s.trend_min_support:
            self._reject("propose", "too few supporting memories", item.model_dump())
            return None
        language = majority_language(o.language for o in members)
        keywords = self._keywords(item.keywords, members)
        content = item.content.strip()
        if not _same_language(content, language):
            representative = max(members, key=lambda o: o.observed_at)
            content = pattern_text(kind, representative.content, keywords, language)
            self._counts["reworded"] += 1
        n_contexts = len({o.context for o in members if o.context})
        evidence = tuple(
            ProposedEvidence(o.id, grade_evidence(n_contexts, o.explicit, len(sessions)), o.context)
            for o in members
        )
        return ProposedTrait(
            content=content,
            kind=kind,
            context=item.context,
            keywords=keywords,
            evidence=evidence,
            language=language,
            emotional=item.emotional,
            negated=item.negated,
        )

    @staticmethod
    def _keywords(given: Iterable[str], members: Sequence[Observation]) -> tuple[str, ...]:
        words: list[str] = []
        for w in given:
            w = " ".join(w.split()).lower()
            if w and w not in words:
                words.append(w)
        if not words:  # the theme words the offline detector would use
            counts: Counter[str] = Counter()
            for o in members:
                counts.update(set(o.keywords))
            words = [w for w, _ in counts.most_common(_MAX_KEYWORDS)]
        return tuple(words[:_MAX_KEYWORDS])

    # ------------------------------------------------------------------ judge
    def judge(
        self, trait: TraitView, supporting: Sequence[Evidence], contradicting: Sequence[Evidence]
    ) -> Judgement:
        return self._ask(
            "judge",
            lambda: self._judge(trait, supporting, contradicting),
            lambda: self.fallback.judge(trait, supporting, contradicting),
        )

    def _judge(
        self, trait: TraitView, supporting: Sequence[Evidence], contradicting: Sequence[Evidence]
    ) -> Judgement:
        def listing(rows: Sequence[Evidence]) -> str:
            return "\n".join(
                f"{e.created_at.date().isoformat()} | {e.quality} | {e.context or '-'} | {_line(e.content or '')}"
                for e in rows[-_MAX_JUDGE_EVIDENCE:]
            )

        answer = judge_contradiction(
            self.chat,
            trait=_line(trait.content),
            subtype=trait.subtype,
            context=trait.context or "-",
            confidence=trait.confidence,
            supporting=listing(supporting),
            contradicting=listing(contradicting),
            now=self._now_text(),
            max_attempts=self.settings.llm_max_attempts,
            usage_sink=self._log.usage.append,
        )
        contexts: dict[str, dict[str, float | str]] = {
            ctx: {"tendency": t.tendency.strip(), "confidence": round(t.confidence, 4)}
            for ctx, t in answer.contexts.items()
        }
        return Judgement(
            action=answer.action,
            content=answer.content.strip() if answer.content else None,
            confidence=answer.confidence,
            contexts=contexts if answer.action == "split" else {},
            reason=answer.reason,
        )

    # ------------------------------------------------------------------ abstract
    def abstract(self, children: Sequence[TraitView], subtype: str) -> str:
        return self._ask(
            "abstract",
            lambda: self._abstract(children, subtype),
            lambda: self.fallback.abstract(children, subtype),
        )

    def _abstract(self, children: Sequence[TraitView], subtype: str) -> str:
        listing = "\n".join(f"- ({c.subtype}, {c.context or '-'}) {_line(c.content)}" for c in children)
        answer = abstract_trait(
            self.chat,
            listing,
            subtype=subtype,
            now=self._now_text(),
            max_attempts=self.settings.llm_max_attempts,
            usage_sink=self._log.usage.append,
        )
        content = answer.content.strip()
        if not _same_language(content, majority_language(c.language for c in children)):
            self._counts["reworded"] += 1
            return self.fallback.abstract(children, subtype)
        return content


__all__ = ["LLMDetector", "observation_line", "trait_line"]
