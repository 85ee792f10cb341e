"""The retrievers of recall (seed 003 §5.2, W5; seed 000 §6.1–§6.2).

Each takes an open connection and a :class:`Probe` (one reading of the question under the
request's scope) and returns a best-first list of :class:`~neuromem.recall.fusion.Ranked`
with the retriever's own score. ``recall.retriever_table`` says which runs when, in order:

- ``bm25``   — Okapi BM25 over the jieba-segmented tokens (``store.bm25``);
- ``vector`` — cosine similarity, HNSW per memory type (traits excluded: see ``traits``);
- ``traits`` — ``mv_trait_decayed``, emerging/established/core above the confidence
  floor, score = similarity × decayed confidence (confidence alone without a vector);
- ``graph``  — k-hop expansion from seeds and query entities, personalized PageRank;
- ``raw``    — passage-level search over raw chunks, mapped to the memories citing them;
- ``turn_bm25`` / ``turn_vector`` — the turn channel (``recall.units``): stored turns by BM25
  and by their vector (the concept route is ``recall.concepts``).
"""

from __future__ import annotations

import datetime as dt
import re
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from ..config import RecallSettings, TraitSettings
from ..store import bm25 as bm25_store
from ..store import conversations, raw_chunks
from ..store import recall_queries as rq
from ..store.db import Conn
from ..store.filters import CompiledFilter
from ..store.vectors import to_halfvec
from ..text.spans import trim_span
from ..types import MemoryType, RawPassage
from .fusion import Ranked, ranked, rrf_score
from .ppr import personalized_pagerank
from .query import QueryAnalysis
from .recipes import RecallRecipe


@dataclass(frozen=True, slots=True)
class Probe:
    """What the retrievers search with: the analysed question (or one view of it, or the second
    hop's words) and its vector, under the scope of a :class:`~neuromem.recall.request.RecallRequest`."""

    user_id: str
    analysis: QueryAnalysis
    vector: np.ndarray | None
    types: tuple[MemoryType, ...]
    limit: int
    recipe: RecallRecipe
    as_of: dt.datetime | None = None
    where: CompiledFilter | None = None
    valid_at: dt.datetime | None = None  # event time (seed 000 §6.3 bitemporal): what was true then
    #: the question's present when it is later than the clock (``RecallRequest.reference`` of a replay of dated
    #: turns): what ended by then has ended
    later_present: dt.datetime | None = None


@dataclass(slots=True)
class GraphOutcome:
    hits: list[Ranked]
    seeds: int = 0
    entity_nodes: int = 0
    edges: int = 0
    nodes: int = 0


@dataclass(slots=True)
class RawOutcome:
    hits: list[Ranked]
    passages: list[RawPassage] = field(default_factory=list)
    trigger: str = ""


def bm25(conn: Conn, req: Probe, settings: RecallSettings) -> list[Ranked]:
    terms = req.analysis.terms + req.analysis.variants if req.recipe.inflections else req.analysis.terms
    rows = bm25_store.bm25_search(
        conn,
        req.user_id,
        terms,
        req.types,
        limit=req.recipe.bm25_k,
        k1=settings.bm25_k1,
        b=settings.bm25_b,
        as_of=req.as_of,
        where=req.where,
        valid_at=req.valid_at,
    )
    return ranked([(r.id, r.score) for r in rows])


def vector(conn: Conn, req: Probe, dim: int) -> list[Ranked]:
    if req.vector is None:
        return []
    types = [t for t in req.types if t is not MemoryType.TRAIT]  # traits: their own retriever
    rows = rq.vector_search(
        conn,
        req.user_id,
        req.vector,
        dim,
        types,
        limit=req.recipe.vector_k,
        as_of=req.as_of,
        where=req.where,
        valid_at=req.valid_at,
    )
    pairs = [(r.id, r.score) for r in rows]
    pairs.sort(key=lambda p: (-p[1], p[0]))
    return ranked(pairs)


def turns_wanted(req: Probe) -> bool:
    """Whether the turn channel may answer this request: turns are episodic evidence, so not when the
    caller restricts the types to others, nor under a metadata filter (turns carry no memory metadata)."""
    return req.recipe.use_turns and req.where is None and MemoryType.EPISODIC in req.types


def turn_bm25(conn: Conn, req: Probe, settings: RecallSettings) -> list[Ranked]:
    """BM25 over the user's stored turns, every role (issue 14 item 1); ids are message ids."""
    rows = bm25_store.turn_bm25_search(
        conn,
        req.user_id,
        req.analysis.terms,
        limit=req.recipe.turn_k,
        k1=settings.bm25_k1,
        b=settings.bm25_b,
        as_of=req.as_of,
        valid_at=req.valid_at,
    )
    return ranked([(r.id, r.score) for r in rows])


def turn_vector(conn: Conn, req: Probe, dim: int) -> list[Ranked]:
    """Cosine similarity over the user's embedded turns; ids are message ids."""
    if req.vector is None:
        return []
    params = {"as_of": req.as_of, "valid_at": req.valid_at}
    pairs = conversations.turn_vector_search(
        conn,
        req.user_id,
        to_halfvec(req.vector, dim),
        limit=req.recipe.turn_k,
        scope=bm25_store.turn_scope(req.as_of, req.valid_at),
        params=params,
    )
    return ranked(pairs)


def traits(conn: Conn, req: Probe, settings: RecallSettings, dim: int, decay: TraitSettings) -> list[Ranked]:
    if MemoryType.TRAIT not in req.types:
        return []
    rows = rq.trait_candidates(
        conn,
        req.user_id,
        req.vector,
        dim,
        floor=settings.trait_confidence_floor,
        limit=req.recipe.trait_k,
        as_of=req.as_of,
        valid_at=req.valid_at,
        rates=decay,
    )
    if req.where is not None and rows:
        allowed = rq.visible_memory_types(
            conn,
            req.user_id,
            [r.id for r in rows],
            req.types,
            as_of=req.as_of,
            where=req.where,
            valid_at=req.valid_at,
        )
        rows = [r for r in rows if r.id in allowed]
    pairs = [(r.id, (r.similarity if r.similarity is not None else 1.0) * r.decayed_confidence) for r in rows]
    pairs.sort(key=lambda p: (-p[1], p[0]))
    return ranked(pairs)


def graph(conn: Conn, req: Probe, seed_lists: Sequence[Sequence[Ranked]]) -> GraphOutcome:
    """Seeds (top of the first retrievers by RRF, plus entity nodes named in the query) →
    k-hop expansion over the typed, weighted edges → personalized PageRank → memories."""
    recipe = req.recipe
    seed_score: dict[uuid.UUID, float] = {}
    for hits in seed_lists:
        for h in hits:
            seed_score[h.id] = seed_score.get(h.id, 0.0) + rrf_score(h.rank, recipe.rrf_k)
    top = sorted(seed_score.items(), key=lambda kv: (-kv[1], kv[0]))[: recipe.graph_seeds]
    seeds: dict[tuple[str, uuid.UUID], float] = {("memory", id_): s for id_, s in top}
    entity_ids = rq.match_entity_nodes(conn, req.user_id, req.analysis.entities)
    degrees = rq.node_degrees(conn, req.user_id, entity_ids)
    hubs = {n for n, d in degrees.items() if d > recipe.graph_max_degree}
    entity_ids = [n for n in entity_ids if n not in hubs]
    if entity_ids:
        # node specificity (an entity named by few memories says more), as HippoRAG weighs seeds
        entity_weight = max((s for _, s in top), default=1.0 / (recipe.rrf_k + 1))
        for node_id in entity_ids:
            seeds[("node", node_id)] = entity_weight / max(1, degrees.get(node_id, 1)) ** 0.5
    if not seeds:
        return GraphOutcome([], 0, 0)
    edge_types = [t for t, w in recipe.edge_weights.items() if w > 0]
    frontier = {id_ for _, id_ in seeds}
    visited = set(frontier)
    edges: list[tuple[tuple[str, uuid.UUID], tuple[str, uuid.UUID], float]] = []
    seen_edges: set[tuple[uuid.UUID, uuid.UUID, str]] = set()
    for hop in range(recipe.graph_hops):
        budget = recipe.graph_max_edges - len(edges)
        if not frontier or budget <= 0:
            break
        found = rq.edges_touching(
            conn, req.user_id, sorted(frontier), edge_types, limit=budget, as_of=req.as_of
        )
        nxt: dict[uuid.UUID, str] = {}
        for e in found:
            key = (e.source, e.target, e.edge_type)
            if key in seen_edges:
                continue
            seen_edges.add(key)
            w = e.weight * recipe.edge_weights.get(e.edge_type, 0.0)
            edges.append(((e.source_kind, e.source), (e.target_kind, e.target), w))
            for node, kind in ((e.source, e.source_kind), (e.target, e.target_kind)):
                if node not in visited:
                    nxt[node] = kind
        visited |= set(nxt)
        if hop == recipe.graph_hops - 1:
            break
        # hubs (an entity every memory mentions) are not walked through (seed 003 §17 "度数限制")
        node_ids = [n for n, kind in nxt.items() if kind == "node"]
        hubs |= {
            n for n, d in rq.node_degrees(conn, req.user_id, node_ids).items() if d > recipe.graph_max_degree
        }
        frontier = {n for n in nxt if n not in hubs}
    if not edges:
        return GraphOutcome([], len(top), len(entity_ids))
    scores = personalized_pagerank(edges, seeds, damping=recipe.ppr_damping, iterations=recipe.ppr_iterations)
    memory_scores = {id_: s for (kind, id_), s in scores.items() if kind == "memory" and s > 0}
    allowed = rq.visible_memory_types(
        conn,
        req.user_id,
        list(memory_scores),
        req.types,
        as_of=req.as_of,
        where=req.where,
        valid_at=req.valid_at,
    )
    pairs = sorted(((i, s) for i, s in memory_scores.items() if i in allowed), key=lambda p: (-p[1], p[0]))
    return GraphOutcome(ranked(pairs[: recipe.graph_k]), len(top), len(entity_ids), len(edges), len(scores))


def raw_trigger(analysis: QueryAnalysis, found: int, recipe: RecallRecipe) -> str:
    """Why the raw fallback runs (seed 003 W5), or "" when it should not."""
    if analysis.has_patterns:
        return "pattern tokens"
    if analysis.wants_original:
        return "asked for the original words"
    if found < recipe.raw_min_results:
        return f"sparse results ({found} < {recipe.raw_min_results})"
    return ""


_PASSAGE_SPLIT = re.compile(r"(?<=[\n。！？!?])|(?<=\. )")


def passages_of(
    text: str, needles: Sequence[str], terms: Sequence[str], *, max_chars: int = 400
) -> list[tuple[int, int, float]]:
    """Passages (offset, length, score) of ``text`` holding an exact needle (weight 2) or
    query terms (weight 1 each), best first; offsets count characters like ``raw_refs``."""
    spans: list[tuple[int, int]] = []
    start = 0
    for m in _PASSAGE_SPLIT.finditer(text):
        if m.start() > start:
            spans.append((start, m.start()))
            start = m.start()
    if start < len(text):
        spans.append((start, len(text)))
    lowered_needles = [n.lower() for n in needles if n]
    out: list[tuple[int, int, float]] = []
    for a, b in spans:
        trimmed = trim_span(text, a, b)
        if trimmed is None:
            continue
        a, end = trimmed
        stripped = text[a:end]
        length = min(len(stripped), max_chars)
        low = stripped.lower()
        score = 2.0 * sum(1 for n in lowered_needles if n in low) + sum(1 for t in terms if t and t in low)
        if score > 0:
            out.append((a, length, score))
    out.sort(key=lambda p: (-p[2], p[0]))
    return out


def raw(conn: Conn, req: Probe, trigger: str) -> RawOutcome:
    """Passage-level search over raw chunks; memories citing a matching chunk become hits."""
    analysis = req.analysis
    terms = list(analysis.terms)
    for pattern in analysis.patterns:
        terms.extend(t for t in re.split(r"\W+", pattern.lower()) if t)
    hits = rq.raw_chunk_search(conn, req.user_id, terms, limit=req.recipe.raw_k)
    withdrawn = rq.withdrawn_chunks(conn, req.user_id, [h.sha256 for h in hits])
    hits = [h for h in hits if h.sha256 not in withdrawn]
    if not hits:
        return RawOutcome([], trigger=trigger)
    texts = raw_chunks.get_texts(conn, req.user_id, [h.sha256 for h in hits])
    citing = rq.memories_citing(conn, req.user_id, [h.sha256 for h in hits])
    allowed = rq.visible_memory_types(
        conn,
        req.user_id,
        [i for ids in citing.values() for i in ids],
        req.types,
        as_of=req.as_of,
        where=req.where,
        valid_at=req.valid_at,
    )
    passages: list[RawPassage] = []
    pairs: list[tuple[uuid.UUID, float]] = []
    for h in hits:
        text = texts.get(h.sha256)
        if text is None:
            continue
        found = passages_of(text, analysis.patterns, analysis.terms)
        if not found:
            continue
        offset, length, score = found[0]
        ids = tuple(i for i in citing.get(h.sha256, []) if i in allowed)
        passages.append(RawPassage(h.sha256, offset, length, text[offset : offset + length], ids))
        pairs.extend((i, score + h.score) for i in ids)
    pairs.sort(key=lambda p: (-p[1], p[0]))
    return RawOutcome(ranked(pairs), passages, trigger)
