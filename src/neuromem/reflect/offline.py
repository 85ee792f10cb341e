"""The offline pattern detector: clustering by shared keywords and embedding similarity (issue 5 §4).

Used when no LLM is configured (MISSION decision 4). The rules, all explicit:

**Themes (propose).** Over the pool of unexplained observations, a keyword is a
*theme word* when at least ``trend_min_support`` observations carry it and (for
pools of 10 or more) at most ``keyword_max_df_ratio`` of them do — too-common
words name no pattern. Each observation joins the theme of its most specific
theme word (fewest observations, still enough support); observations without
one join the theme whose centroid embedding is closest when the cosine reaches
``link_min_similarity`` on the embedder's own scale (``reflect.calibration``). A theme with at least one new observation becomes:

- a **behavior** (seed 001 §3.3: ≥ 3 memories, confidence 0.4) when it has
  ``behavior_min_support`` observations from two or more sessions — a single
  conversation never makes a behaviour;
- otherwise a **trend** (seed 001 §4.1) when it has ``trend_min_support``.

**Links.** An observation concerns a trend or behaviour when it carries the
trait's theme keywords, or its embedding is within
``link_min_similarity`` (on the embedder's own scale: ``reflect.calibration``). It *contradicts* the trait when its polarity (negation
cue) differs from the trait's, strongly so when it is an explicit
self-statement; otherwise it supports it.

**Grades** (seed 001 §4.2) come from the evidence itself through
:func:`~neuromem.reflect.math.grade_evidence`: A when the trait's evidence spans
two or more contexts, B for an explicit self-statement, C when it spans two or
more sessions, D otherwise.

**Judgement** (seed 001 §4.4, offline): split by context when supporting and
contradicting evidence come from different dominant contexts; dissolve when the
confidence is below ``contradiction_dissolve_below``; revise (take the
contradicting side's wording) when contradictions outnumber support; else keep
the trait with its lowered confidence.
"""

from __future__ import annotations

import uuid
from collections import Counter, defaultdict
from collections.abc import Sequence
from typing import Literal

import numpy as np

from ..config import TraitSettings
from ..store.traits import Evidence
from .calibration import SimilarityFloor, rescaled
from .detector import EvidenceLink, Judgement, PatternDetector, ProposedEvidence, ProposedTrait, TraitView
from .math import grade_evidence
from .observations import Observation
from .wording import majority_language, pattern_text, split_text, upgrade_text


def theme_context(contexts: Sequence[str | None]) -> str:
    """A trait's context from its evidence: one known context → it; several → ``general`` (seed 001 §3.2)."""
    known = {c for c in contexts if c}
    if len(known) == 1:
        return next(iter(known))
    return "general"


def related(
    a_keywords: Sequence[str],
    a_vec: np.ndarray | None,
    b_keywords: Sequence[str],
    b_vec: np.ndarray | None,
    min_similarity: float,
) -> bool:
    """Two traits point at the same tendency: a shared keyword, or close embeddings."""
    if set(a_keywords) & set(b_keywords):
        return True
    return a_vec is not None and b_vec is not None and float(a_vec @ b_vec) >= min_similarity


class OfflineDetector(PatternDetector):
    name = "offline"

    def __init__(self, settings: TraitSettings | None = None, floor: SimilarityFloor | None = None) -> None:
        self.settings = settings or TraitSettings()
        self.floor = floor or SimilarityFloor(None)

    def _similar(self, cosine: float) -> bool:
        """An embedding match: ``cosine`` reaches ``link_min_similarity`` on the embedder's own scale
        (``reflect.calibration``: 0 at the similarity of unrelated text)."""
        return rescaled(cosine, self.floor.value) >= self.settings.link_min_similarity

    # ------------------------------------------------------------------ link
    def _concerns(self, obs: Observation, trait: TraitView) -> bool:
        if not trait.keywords:
            return False
        shared = set(obs.keywords) & set(trait.keywords)
        if shared:
            return True
        return (
            obs.vector is not None
            and trait.vector is not None
            and self._similar(float(obs.vector @ trait.vector))
        )

    def link(self, new: Sequence[Observation], traits: Sequence[TraitView]) -> list[EvidenceLink]:
        links: list[EvidenceLink] = []
        candidates = [t for t in traits if t.subtype == "behavior"]
        by_trait: dict[uuid.UUID, list[Observation]] = defaultdict(list)
        for obs in new:
            for trait in candidates:
                if self._concerns(obs, trait):
                    by_trait[trait.id].append(obs)
        for trait in candidates:
            batch = by_trait.get(trait.id, [])
            contexts = set(trait.contexts_seen) | {o.context for o in batch if o.context}
            sessions = set(trait.sessions_seen) | {o.session for o in batch}
            for obs in batch:
                contradicting = obs.negated != trait.negated
                quality = grade_evidence(len(contexts), obs.explicit and not contradicting, len(sessions))
                links.append(
                    EvidenceLink(
                        trait_id=trait.id,
                        memory_id=obs.id,
                        relation="contradicting" if contradicting else "supporting",
                        quality=quality,
                        context=obs.context,
                        strong=contradicting and obs.explicit,
                    )
                )
        return links

    # ------------------------------------------------------------------ propose
    def propose(self, pool: Sequence[Observation], new_ids: frozenset[uuid.UUID]) -> list[ProposedTrait]:
        s = self.settings
        df: Counter[str] = Counter()
        for obs in pool:
            df.update(set(obs.keywords))
        limit = len(pool) * s.keyword_max_df_ratio if len(pool) >= 10 else len(pool)
        theme_words = {
            w for w, n in df.items() if s.trend_min_support <= n <= max(limit, s.trend_min_support)
        }
        groups: dict[str, list[Observation]] = defaultdict(list)
        loose: list[Observation] = []
        for obs in pool:
            words = [w for w in obs.keywords if w in theme_words]
            if words:
                groups[min(words, key=lambda w: (df[w], obs.keywords.index(w)))].append(obs)
            else:
                loose.append(obs)
        self._attach_by_embedding(groups, loose)
        proposals = []
        for word, members in groups.items():
            if not any(o.id in new_ids for o in members) or len(members) < s.trend_min_support:
                continue
            proposals.append(self._proposal(word, members))
        return proposals

    def _attach_by_embedding(self, groups: dict[str, list[Observation]], loose: list[Observation]) -> None:
        keyed = [(w, m) for w, m in groups.items() if any(o.vector is not None for o in m)]
        if not keyed or not loose:
            return
        centroids = np.stack(
            [np.mean([o.vector for o in m if o.vector is not None], axis=0) for _, m in keyed]
        )
        centroids /= np.maximum(np.linalg.norm(centroids, axis=1, keepdims=True), 1e-9)
        for obs in loose:
            if obs.vector is None:
                continue
            sims = centroids @ obs.vector
            best = int(np.argmax(sims))
            if self._similar(float(sims[best])):
                keyed[best][1].append(obs)

    def _proposal(self, word: str, members: list[Observation]) -> ProposedTrait:
        s = self.settings
        counts: Counter[str] = Counter()
        for obs in members:
            counts.update(set(obs.keywords))
        keywords = (word, *[w for w, _ in counts.most_common(6) if w != word][:4])
        sessions = {o.session for o in members}
        contexts = [o.context for o in members]
        n_contexts = len({c for c in contexts if c})
        kind: Literal["trend", "behavior"] = (
            "behavior" if len(members) >= s.behavior_min_support and len(sessions) >= 2 else "trend"
        )
        negated = sum(o.negated for o in members) * 2 > len(members)
        representative = max(members, key=lambda o: (len(set(o.keywords) & set(keywords)), o.observed_at))
        language = majority_language(o.language for o in members)
        evidence = tuple(
            ProposedEvidence(o.id, grade_evidence(n_contexts, o.explicit, len(sessions)), o.context)
            for o in members
            if o.negated == negated
        )
        return ProposedTrait(
            content=pattern_text(kind, representative.content, keywords, language),
            kind=kind,
            context=theme_context(contexts),
            keywords=keywords,
            evidence=evidence,
            language=language,
            emotional=sum(o.emotional for o in members) * 2 > len(members),
            negated=negated,
        )

    # ------------------------------------------------------------------ judge
    def judge(
        self, trait: TraitView, supporting: Sequence[Evidence], contradicting: Sequence[Evidence]
    ) -> Judgement:
        support_ctx = Counter(e.context for e in supporting if e.context)
        against_ctx = Counter(e.context for e in contradicting if e.context)
        if support_ctx and against_ctx:
            a, na = support_ctx.most_common(1)[0]
            b, nb = against_ctx.most_common(1)[0]
            if a != b:
                against_text = next(
                    (e.content for e in reversed(contradicting) if e.context == b and e.content), ""
                )
                share_a = na / max(1, sum(support_ctx.values()))
                share_b = nb / max(1, sum(against_ctx.values()))
                tendency_a = _strip_prefix(trait.content)
                return Judgement(
                    action="split",
                    content=split_text(a, tendency_a, b, against_text, trait.language),
                    confidence=trait.confidence,
                    contexts={
                        a: {"tendency": tendency_a, "confidence": round(trait.confidence * share_a, 4)},
                        b: {"tendency": against_text, "confidence": round(trait.confidence * share_b, 4)},
                    },
                    reason=f"supporting evidence is mostly {a}, contradicting evidence mostly {b}",
                )
        if trait.confidence < self.settings.contradiction_dissolve_below:
            return Judgement(action="dissolve", reason="too weak to stand against the contradicting evidence")
        if len(contradicting) > len(supporting) and contradicting[-1].content:
            newest = contradicting[-1].content
            return Judgement(
                action="revise",
                content=pattern_text("behavior", newest, trait.keywords, trait.language),
                confidence=trait.confidence,
                reason="contradicting evidence outnumbers the support",
            )
        return Judgement(action="keep", reason="support still outweighs contradiction")

    # ------------------------------------------------------------------ abstract
    def abstract(self, children: Sequence[TraitView], subtype: str) -> str:
        counts: Counter[str] = Counter()
        for child in children:
            counts.update(set(child.keywords))
        keywords = [w for w, _ in counts.most_common(3)]
        language = majority_language(c.language for c in children)
        return upgrade_text(subtype, keywords, [_strip_prefix(c.content) for c in children], language)


def _strip_prefix(content: str) -> str:
    """The quoted part of a generated trait text (``Recurring: X (theme: …)`` → ``X``)."""
    for sep in ("：", ": "):
        head, found, rest = content.partition(sep)
        if found and len(head) <= 24:
            content = rest
            break
    for marker in ("（主题：", " (theme: "):
        content = content.split(marker)[0]
    return content.strip()


__all__ = ["OfflineDetector", "related", "theme_context"]
