"""Named, frozen retrieval recipes (STYLE.md habit 9; seed 003 §5, §15, §18).

A recipe says which retrievers run, how deep each looks, how their lists are
fused and scored, and whether MMR and time filtering apply. Recipes are never
mutated: derive a variant with ``recipe.model_copy(update={...})`` or
:func:`derive`.

Fusion modes:

- ``"rrf"`` — reciprocal rank fusion, ``Σ_r w_r / (rrf_k + rank_r)`` (seed 000 §6.1),
  then the four-factor score ``rrf · (1 + recency + importance + stage_boost)``.
- ``"weighted"`` — seed 003 §5.3, ``λ1·BM25 + λ2·cos + λ3·GraphRank + λ4·Weight``
  with each retriever score min-max normalised over its own list; a retriever that
  did not run drops out and the λ of the others are renormalised (seed 003 §18).
- ``"hybrid"`` — RRF as the base, multiplied by the four-factor score, plus ``λ`` times
  the normalised retriever scores as a tie-breaker (recipe ``hybrid-rrf``).
- ``"linear"`` (the default recipe ``hybrid``) — ``Σ_r w_r · norm_r(score)`` with
  ``linear_weights`` (dense 1, BM25 0.4 …) and ``norm`` the clipped z-score (``hybrid``)
  or min-max (``hybrid-minmax``), plus the TEMPORAL_NEXT neighbour context, multiplied by the
  four-factor score when the recipe says so (``four_factor``; off in ``hybrid``, on in
  ``hybrid-tuned``; see ``fusion``).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ..errors import InvalidInputError

Fusion = Literal["rrf", "weighted", "hybrid", "linear"]
Normalization = Literal["minmax", "zscore"]
RETRIEVERS = ("bm25", "vector", "graph", "traits", "raw")

#: Edge weights for graph expansion (seed 003 §15: ABOUT 1.0, SUPPORTS 0.8, SIMILAR_TO 0.5,
#: TEMPORAL_NEXT 0.3); the other edge types of the ingestion graph get conservative weights.
DEFAULT_EDGE_WEIGHTS: dict[str, float] = {
    "ABOUT": 1.0,
    "MENTIONS": 0.6,
    "SUPPORTS": 0.8,
    "SAME_AS": 1.0,
    "DERIVED_FROM": 0.8,
    "SIMILAR_TO": 0.5,
    "CONTRADICTS": 0.4,
    "TEMPORAL_NEXT": 0.3,
    "RELATED_TO": 0.5,
}


class RecallRecipe(BaseModel):
    """Everything that shapes one recall; frozen so that presets can be shared safely."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = "custom"
    # which retrievers run (seed 003 §18 degradation switches them off too)
    use_bm25: bool = True
    use_vector: bool = True
    use_graph: bool = True
    use_traits: bool = True
    use_raw: bool = True
    # the concept route (``recall.concepts``, issue 16): members of the nearest concepts. Off by default:
    # its effect on recall with the real embedder is not measured yet (a component stays on only when it
    # helps on data it was not tuned on); turn it on with derive(..., use_concepts=True)
    use_concepts: bool = False
    concept_k: int = Field(default=3, ge=1)  # nearest concept nodes whose members are read
    # candidate depths (seed 003 §15: ANN TopK 100–300; ours are per user, so smaller)
    bm25_k: int = Field(default=50, ge=1)
    vector_k: int = Field(default=50, ge=1)  # per memory type
    trait_k: int = Field(default=10, ge=1)
    graph_seeds: int = Field(default=10, ge=1)
    graph_hops: int = Field(default=2, ge=1, le=2)
    graph_k: int = Field(default=30, ge=1)
    graph_max_edges: int = Field(default=600, ge=10)
    graph_max_degree: int = Field(default=50, ge=1)  # entity hubs above this are not expanded (seed 003 §17)
    edge_weights: dict[str, float] = Field(default_factory=lambda: dict(DEFAULT_EDGE_WEIGHTS))
    ppr_damping: float = Field(default=0.85, gt=0, lt=1)
    ppr_iterations: int = Field(default=30, ge=1)
    # a conversation-shaped query (several lines: context C then the current message Q, seed 003 §5.1)
    # is also searched by its last ``focus_lines`` lines, as extra BM25 and vector lists
    focus_lines: int = Field(default=2, ge=0)
    # ... and by the lines the assistant did not speak (``recall.query.user_lines``), as the lists
    # ``bm25_user`` / ``vector_user``; a list whose linear weight is 0 is not searched at all
    user_view: bool = False
    # the lexical lists also search the singular of each plural English query term (``query.inflections``)
    inflections: bool = False
    # the turn channel (issue 14): every stored turn, of every role, ranked by BM25 and by its vector
    # (lists ``bm25_turns`` / ``vector_turns``) and fused with the memory lists, a memory and its source
    # turn counting as one hit (``recall.units``)
    use_turns: bool = True
    turn_k: int = Field(default=50, ge=1)
    # the second hop (``recall.hop``): BM25 again with the words of the best ``hop_seeds`` first-hop hits
    # (lists ``bm25_hop`` / ``bm25_turns_hop``, linear weight in ``linear_weights``), and a time anchor
    # ("the week before the trip") dated by them
    second_hop: bool = False
    hop_seeds: int = Field(default=3, ge=1, le=20)
    hop_terms: int = Field(default=8, ge=1, le=50)
    # following a chain of facts for a question shaped as one (``recall.chains``): BM25 again with the
    # question's words and the names the best linked hits add, at most this many steps (0: never)
    follow_hops: int = Field(default=2, ge=0, le=3)
    raw_k: int = Field(default=10, ge=1)
    raw_min_results: int = Field(default=3, ge=0)  # "results are sparse" trigger of seed 003 W5
    # fusion and scoring
    fusion: Fusion = "hybrid"  # the class default; the default recipe HYBRID uses "linear"
    rrf_k: int = Field(default=60, ge=1)
    retriever_weights: dict[str, float] = Field(
        default_factory=lambda: {
            "bm25": 1.0,
            "vector": 1.0,
            "graph": 0.5,
            "traits": 1.0,
            "raw": 1.0,
            "concepts": 0.5,
            "bm25_focus": 1.0,
            "vector_focus": 1.0,
            "bm25_user": 1.0,
            "vector_user": 1.0,
            "bm25_turns": 1.0,
            "vector_turns": 1.0,
            "bm25_hop": 0.5,
            "bm25_turns_hop": 0.5,
        }
    )
    lambda_bm25: float = 0.2  # seed 003 §15
    lambda_vector: float = 0.4
    lambda_graph: float = 0.3
    lambda_weight: float = 0.1
    # fusion "linear": weight of each retriever's min-max normalised score, and of the best
    # neighbour's (TEMPORAL_NEXT) linear score; retrievers not listed weigh 0
    # (the class defaults; the default recipe HYBRID sets its own, tuned on the DEV split)
    linear_weights: dict[str, float] = Field(
        default_factory=lambda: {
            "vector": 1.0,
            "vector_focus": 0.5,
            "bm25": 0.2,
            "bm25_focus": 0.0,
            "traits": 1.0,
            "raw": 0.2,
            "graph": 0.0,
            "concepts": 0.3,
        }
    )
    # how fusion "linear" puts each retriever's scores on one scale (see ``fusion``): "minmax" maps every
    # list onto [0, 1]; "zscore" counts standard deviations above the list's mean (clipped at 0)
    normalization: Normalization = "minmax"
    neighbour_weight: float = Field(default=0.0, ge=0)
    neighbour_pool: int = Field(default=100, ge=1)  # best-``lin`` candidates whose edges are read
    hybrid_mix: float = Field(default=0.01, ge=0)  # weight of the normalised λ-sum added to RRF in "hybrid"
    four_factor: bool = True  # seed 000 §6.1 multiplier (recency, importance, stage boost)
    # diversity and time
    mmr: bool = True
    mmr_lambda: float = Field(default=0.7, ge=0, le=1)  # seed 003 §15 "MMR 多样性阈值 0.7"
    mmr_pool: int = Field(default=40, ge=1)
    # session spread (``mmr.session_spread``): the n-th hit of one conversation session counts
    # ``session_decay^n`` of its score in the top ``mmr_pool`` (1 = off)
    session_decay: float = Field(default=1.0, gt=0, le=1)
    time_filter: bool = True
    # 0 → a time constraint in the query ("last week", "上个月") filters hits to its window (seed 003);
    # > 0 → soft: in-window hits gain time_boost × the query's best final score and move up; the
    # others stay, so a misread window no longer removes the evidence
    time_boost: float = Field(default=0.0, ge=0)

    # issue 21 item 2 (``recall.truth.newer_first``, in every recipe): two hits about one subject — linked by
    # a same-subject edge, on one slot, an outdated turn and its replacement, or near-duplicates whose stored
    # vectors reach this cosine — rank newest first (above 1: near-duplicates are not paired)
    same_subject_cosine: float = Field(default=0.95, ge=0.5, le=1.01)
    # issue 22 item 6 (``recall.truth.above_floor``): a hit is returned only when its final score is above 0
    # and reaches this share of the best hit's, or a lexical list found it (0: only the zeros go)
    relevance_floor: float = Field(default=0.2, ge=0, le=1)

    def weighs(self, retriever: str) -> bool:
        """Whether a list named ``retriever`` can change the ranking (under linear fusion, a weight > 0)."""
        return self.fusion != "linear" or self.linear_weights.get(retriever, 0.0) > 0

    def enabled(self) -> tuple[str, ...]:
        flags = (self.use_bm25, self.use_vector, self.use_graph, self.use_traits, self.use_raw)
        return tuple(name for name, on in zip(RETRIEVERS, flags, strict=True) if on)


def derive(recipe: RecallRecipe, name: str | None = None, **changes: Any) -> RecallRecipe:
    """A validated copy with ``changes`` applied (``model_copy`` skips validation)."""
    data = recipe.model_dump()
    data.update(changes)
    if name is not None:
        data["name"] = name
    return RecallRecipe.model_validate(data)


#: RRF of every retriever (graph PPR included) × four-factor + a λ-sum tie-breaker: the first default
HYBRID_RRF = RecallRecipe(name="hybrid-rrf")
#: The tuned default of sessions 3–6 (issue 4 tuning, ``bench.tune_fusion``): linear score fusion of dense,
#: BM25 (whole query and its current message), traits and raw, each list normalised by clipped z-score,
#: × four-factor, a soft time boost (0.5), session spread (``session_decay`` 0.7: the n-th hit of one
#: session counts 0.7^n), MMR. Each of its four extras was chosen on the LongMemEval DEV split; measured
#: in session 7 on questions it was not tuned on (``bench.retrieval evidence``, both halves, paired
#: bootstrap CIs; docs/benchmarks.md "Session 7"), none of them helped: the time boost and the session
#: spread cost turn recall (a question's evidence sits in several sessions, or its session date is not
#: the event's date), and MMR and the four-factor score moved nothing on MADial zh/en. Kept for comparison.
HYBRID_TUNED = derive(
    HYBRID_RRF,
    "hybrid-tuned",
    fusion="linear",
    use_graph=False,
    neighbour_weight=0.0,
    normalization="zscore",
    focus_lines=1,
    time_boost=0.5,
    user_view=True,
    session_decay=0.7,
    linear_weights={
        "vector": 1.0,
        "vector_focus": 0.5,
        "bm25": 0.4,
        "bm25_focus": 0.2,
        "traits": 1.0,
        "raw": 0.4,
        "graph": 0.0,
        "vector_user": 0.5,
        "bm25_user": 0.2,
        "vector_turns": 1.0,
        "bm25_turns": 0.4,
        "bm25_hop": 0.2,
        "bm25_turns_hop": 0.2,
        "concepts": 0.3,
    },
)
#: The default (session 7, "robust defaults over tuned ones"): the fusion of ``HYBRID_TUNED`` alone — dense
#: and BM25 over memories and over every stored turn (a memory and its source turn one hit), normalised by
#: clipped z-score, dense weighing 1 and BM25 0.4; a conversation-shaped query also searched by its current
#: message (``focus_lines``) and by the lines the user spoke (``user_view``), which gained on MADial zh and
#: en on both halves. Nothing on top: no time boost or filter, no session spread, no MMR, no four-factor
#: score (seed 000 §6.1; ``derive(HYBRID, four_factor=True)`` turns it on) — on LongMemEval they lost turn
#: recall on the held-out half and on MADial they moved nothing; a component comes back when it helps on
#: data it was not tuned on (session 7: +four-factor on 78 questions, turn recall_all@5 −0.026, nDCG@10 −0.012).
#: The user's own votes (``Memory.upvote`` / ``downvote``) still move a memory (``fusion.final_score``).
#: The graph walk stays off (it cost recall as an RRF voter, issue 4).
HYBRID = derive(
    HYBRID_TUNED, "hybrid", time_boost=0.0, time_filter=False, session_decay=1.0, mmr=False, four_factor=False
)
#: The previous default (min-max normalisation, BM25 0.2, two focus lines), kept for comparison
HYBRID_MINMAX = derive(
    HYBRID_TUNED,
    "hybrid-minmax",
    normalization="minmax",
    focus_lines=2,
    time_boost=0.0,
    user_view=False,
    session_decay=1.0,
    linear_weights={
        "vector": 1.0,
        "vector_focus": 0.5,
        "bm25": 0.2,
        "bm25_focus": 0.0,
        "traits": 1.0,
        "raw": 0.2,
        "graph": 0.0,
    },
)
WEIGHTED = derive(HYBRID_RRF, "weighted", fusion="weighted")
RRF_ONLY = derive(HYBRID_RRF, "rrf", fusion="rrf")
BM25_ONLY = derive(
    HYBRID_RRF,
    "bm25",
    use_turns=False,
    use_vector=False,
    use_graph=False,
    use_traits=False,
    use_raw=False,
    fusion="rrf",
    four_factor=False,
    mmr=False,
    time_filter=False,
    focus_lines=0,
)
DENSE_ONLY = derive(
    HYBRID_RRF,
    "dense",
    use_turns=False,
    use_bm25=False,
    use_graph=False,
    use_traits=False,
    use_raw=False,
    fusion="rrf",
    four_factor=False,
    mmr=False,
    time_filter=False,
    focus_lines=0,
)
BM25_DENSE_RRF = derive(
    HYBRID_RRF,
    "bm25+dense",
    use_turns=False,
    use_graph=False,
    use_traits=False,
    use_raw=False,
    fusion="rrf",
    four_factor=False,
    mmr=False,
    time_filter=False,
    focus_lines=0,
)
#: The raw-turn baseline (issue 14): BM25 and dense over the stored turns only, fused by RRF — what a
#: 60-line retriever over raw conversation turns does
TURNS_RRF = derive(
    HYBRID_RRF,
    "turns-rrf",
    use_bm25=False,
    use_vector=False,
    use_graph=False,
    use_traits=False,
    use_raw=False,
    fusion="rrf",
    four_factor=False,
    mmr=False,
    time_filter=False,
    focus_lines=0,
)
#: Plain BM25 + dense RRF over memories and turns together (one hit per memory-and-its-turn)
UNITS_RRF = derive(BM25_DENSE_RRF, "units-rrf", use_turns=True)
#: RRF with each retriever weighted by its seed 003 §15 λ relative to the vector's (0.2 : 0.4 : 0.3)
SEED_WEIGHTED_RRF = derive(
    HYBRID_RRF,
    "hybrid-lambda",
    retriever_weights={
        "bm25": 0.5,
        "vector": 1.0,
        "graph": 0.75,
        "traits": 1.0,
        "raw": 0.5,
        "bm25_focus": 0.5,
        "vector_focus": 1.0,
    },
)
#: The default with the TEMPORAL_NEXT neighbour context (a turn lifted by its neighbours' scores)
HYBRID_CONTEXT = derive(HYBRID, "hybrid-context", neighbour_weight=0.2)
FAST = derive(HYBRID, "fast", mmr=False, bm25_k=30, vector_k=30)

RECIPES: dict[str, RecallRecipe] = {
    r.name: r
    for r in (
        HYBRID,
        HYBRID_TUNED,
        HYBRID_MINMAX,
        HYBRID_RRF,
        HYBRID_CONTEXT,
        SEED_WEIGHTED_RRF,
        WEIGHTED,
        RRF_ONLY,
        BM25_ONLY,
        DENSE_ONLY,
        BM25_DENSE_RRF,
        TURNS_RRF,
        UNITS_RRF,
        FAST,
    )
}


def get_recipe(recipe: str | RecallRecipe | None, default: str = "hybrid") -> RecallRecipe:
    """Resolve a recipe name (or pass a recipe through); unknown names are bad input."""
    if isinstance(recipe, RecallRecipe):
        return recipe
    name = default if recipe is None else recipe
    if not isinstance(name, str) or name not in RECIPES:
        raise InvalidInputError(f"unknown recall recipe {name!r}; known: {', '.join(sorted(RECIPES))}")
    return RECIPES[name]
