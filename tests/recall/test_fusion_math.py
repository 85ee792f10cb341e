"""Pure parts of recall against hand-computed values: RRF, λ-sum, four-factor, MMR, PPR, knapsack."""

from __future__ import annotations

import datetime as dt
import math
import uuid

import numpy as np
import pytest

from neuromem.config import RecallSettings
from neuromem.recall.fusion import Ranked, final_score, fuse, memory_factors, min_max, ranked, z_scores
from neuromem.recall.mmr import mmr_order
from neuromem.recall.ppr import personalized_pagerank
from neuromem.recall.recipes import HYBRID, HYBRID_RRF, RRF_ONLY, WEIGHTED, RecallRecipe, derive, get_recipe
from neuromem.types import MemoryRecord, MemoryType

A, B, C = (uuid.UUID(int=i) for i in (1, 2, 3))
NOW = dt.datetime(2025, 1, 31, tzinfo=dt.UTC)


def _record(**kw: object) -> MemoryRecord:
    base: dict[str, object] = {
        "id": A,
        "user_id": "u",
        "memory_type": MemoryType.FACT,
        "content": "x",
        "created_at": NOW,
        "importance": 0.5,
    }
    base.update(kw)
    return MemoryRecord(**base)  # type: ignore[arg-type]


def test_rrf_matches_the_formula() -> None:
    lists = {"bm25": ranked([(A, 9.0), (B, 3.0)]), "vector": ranked([(B, 0.9), (C, 0.8), (A, 0.1)])}
    fused = fuse(lists, RRF_ONLY)
    assert fused[A].rrf == pytest.approx(1 / 61 + 1 / 63)
    assert fused[B].rrf == pytest.approx(1 / 62 + 1 / 61)
    assert fused[C].rrf == pytest.approx(1 / 62)
    assert fused[A].ranks == {"bm25": 1, "vector": 3}


def test_retriever_weights_scale_rrf() -> None:
    recipe = derive(RRF_ONLY, retriever_weights={"bm25": 2.0, "vector": 1.0})
    fused = fuse({"bm25": ranked([(A, 1.0)])}, recipe)
    assert fused[A].rrf == pytest.approx(2 / 61)


def test_lambda_sum_renormalises_over_the_retrievers_that_ran() -> None:
    # only bm25 and vector ran: λ1 = 0.2, λ2 = 0.4 → 1/3 and 2/3 (seed 003 §18 "embedding down" variants)
    lists = {"bm25": ranked([(A, 4.0), (B, 2.0)]), "vector": ranked([(B, 0.9), (A, 0.5)])}
    fused = fuse(lists, WEIGHTED)
    assert fused[A].lam == pytest.approx(1 / 3 * 1.0 + 2 / 3 * 0.0)
    assert fused[B].lam == pytest.approx(1 / 3 * 0.0 + 2 / 3 * 1.0)
    graph_too = fuse({**lists, "graph": ranked([(C, 0.2)])}, WEIGHTED)
    assert graph_too[C].lam == pytest.approx(0.3 / 0.9)


def test_min_max() -> None:
    assert min_max([3.0, 1.0, 2.0]) == [1.0, 0.0, 0.5]
    assert min_max([5.0]) == [1.0]
    assert min_max([]) == []


def test_four_factor_score_by_hand() -> None:
    s = RecallSettings()
    rec = _record(
        created_at=NOW - dt.timedelta(days=30), importance=0.8, metadata={"emotion": {"arousal": 1.0}}
    )
    f = memory_factors(rec, NOW, s)
    assert f.recency == pytest.approx(
        0.15 * math.exp(-30 / (s.recency_tau_fact_days * 1.5))
    )  # a fact: τ 90 days
    assert f.importance == pytest.approx(0.15 * 0.8)
    assert f.stage_boost == 0.0
    trait = _record(memory_type=MemoryType.TRAIT, trait_stage="core", created_at=NOW)
    assert memory_factors(trait, NOW, s).stage_boost == 0.25
    assert (
        memory_factors(_record(memory_type=MemoryType.TRAIT, trait_stage="established"), NOW, s).stage_boost
        == 0.15
    )
    fused = fuse({"bm25": ranked([(A, 1.0)])}, RRF_ONLY)[A]
    base, final = final_score(fused, f, RRF_ONLY)
    assert base == pytest.approx(1 / 61)
    assert final == pytest.approx(1 / 61 * (1 + f.recency + f.importance))
    hybrid_base, _ = final_score(fused, f, HYBRID_RRF)
    assert hybrid_base == pytest.approx(1 / 61 + HYBRID_RRF.hybrid_mix * fused.lam)
    w_base, w_final = final_score(fused, f, WEIGHTED)
    assert w_final == w_base == pytest.approx(0.9 * fused.lam + 0.1 * f.total)


def test_mmr_prefers_a_diverse_second_item() -> None:
    vectors = {A: np.array([1.0, 0.0]), B: np.array([0.99, 0.14]), C: np.array([0.0, 1.0])}
    # B is nearly a duplicate of A and slightly more relevant than C
    assert mmr_order([A, B, C], [1.0, 0.9, 0.85], vectors, lam=0.7) == [A, C, B]
    assert mmr_order([A, B, C], [1.0, 0.9, 0.85], vectors, lam=1.0) == [A, B, C]
    # items without vectors are never penalised
    assert mmr_order([A, B], [1.0, 0.5], {}, lam=0.5) == [A, B]


def test_personalized_pagerank_by_hand() -> None:
    # a - b - c chain, seed a: stationary p solves p = 0.15 s + 0.85 W^T p
    p = personalized_pagerank([("a", "b", 1.0), ("b", "c", 1.0)], {"a": 1.0}, damping=0.85, iterations=500)
    d = 0.85
    # closed form for the chain: pa = (1-d) + d*pb/2, pb = d*pa + d*pc, pc = d*pb/2
    pb = (1 - d) * d / (1 - d * d)
    pa = (1 - d) + d * pb / 2
    assert p["a"] == pytest.approx(pa, rel=1e-6)
    assert p["b"] == pytest.approx(pb, rel=1e-6)
    assert p["c"] == pytest.approx(d * pb / 2, rel=1e-6)
    assert sum(p.values()) == pytest.approx(1.0)
    assert personalized_pagerank([("a", "b", 1.0)], {}) == {}


def test_ranked_drops_duplicates_and_numbers_from_one() -> None:
    assert ranked([(A, 2.0), (A, 1.0), (B, 0.5)]) == [Ranked(A, 1, 2.0), Ranked(B, 2, 0.5)]


def test_recipes_are_frozen_and_validated() -> None:
    with pytest.raises(ValueError):
        HYBRID.mmr = False  # type: ignore[misc]
    with pytest.raises(ValueError):
        derive(HYBRID, graph_hops=5)
    assert get_recipe(None).name == "hybrid" and get_recipe("bm25").enabled() == ("bm25",)


@pytest.mark.parametrize(
    "recipe",
    [HYBRID_RRF, HYBRID, derive(HYBRID, normalization="minmax"), derive(HYBRID, normalization="zscore")],
    ids=["rrf-hybrid", "linear-default", "linear-minmax", "linear-zscore"],
)
def test_pruning_never_changes_the_top_k(recipe: RecallRecipe) -> None:
    import random

    from neuromem.recall.fusion import MemoryFactors
    from neuromem.recall.pipeline import prune

    s = RecallSettings()
    rng = random.Random(3)
    for _ in range(50):
        ids = [uuid.UUID(int=i + 1) for i in range(40)]
        lists = {
            "bm25": ranked([(i, rng.random()) for i in rng.sample(ids, 25)]),
            "vector": ranked([(i, rng.random()) for i in rng.sample(ids, 25)]),
        }
        fused = fuse(lists, recipe)
        factors = {
            i: MemoryFactors(
                rng.uniform(0, s.recency_weight),
                rng.uniform(0, s.importance_weight),
                rng.choice([0.0, 0.05, 0.25]),
            )
            for i in fused
        }
        finals = {i: final_score(fused[i], factors[i], recipe)[1] for i in fused}
        kept = prune(fused, recipe, s, keep=5, filtering=False)
        assert len(kept) <= len(fused)
        assert (
            sorted(kept, key=lambda i: (-finals[i], i))[:5]
            == sorted(fused, key=lambda i: (-finals[i], i))[:5]
        )


def test_linear_fusion_weighs_min_max_scores_and_adds_the_best_neighbour() -> None:
    from neuromem.recall.fusion import linear_base, neighbour_context

    recipe = derive(
        HYBRID,
        fusion="linear",
        four_factor=False,
        neighbour_weight=0.5,
        normalization="minmax",
        linear_weights={"vector": 1.0, "bm25": 0.3},
    )
    # vector 0.9, 0.7, 0.5 → 1, 0.5, 0; bm25 6, 2 → 1, 0
    lists = {"vector": ranked([(A, 0.9), (B, 0.7), (C, 0.5)]), "bm25": ranked([(C, 6.0), (A, 2.0)])}
    fused = fuse(lists, recipe)
    assert fused[A].lin == pytest.approx(1.0 + 0.3 * 0.0)
    assert fused[B].lin == pytest.approx(0.5)
    assert fused[C].lin == pytest.approx(0.0 + 0.3 * 1.0)
    # A — B — C consecutive turns: context is the best neighbour's pre-boost lin
    neighbour_context(fused, {A: [B], B: [A, C], C: [B]})
    assert (fused[A].context, fused[B].context, fused[C].context) == pytest.approx((0.5, 1.0, 0.5))
    assert linear_base(fused[B], recipe) == pytest.approx(0.5 + 0.5 * 1.0)
    assert linear_base(fused[C], recipe) == pytest.approx(0.3 + 0.5 * 0.5)
    factors = memory_factors(_record(), NOW, RecallSettings())
    assert final_score(fused[B], factors, recipe) == pytest.approx((1.0, 1.0))


def test_z_scores() -> None:
    # mean 2, population std sqrt(2/3); below-mean values clip to 0
    assert z_scores([3.0, 1.0, 2.0]) == pytest.approx([1 / math.sqrt(2 / 3), 0.0, 0.0])
    assert z_scores([5.0]) == [1.0] and z_scores([2.0, 2.0]) == [1.0, 1.0]
    assert z_scores([]) == []


def test_zscore_fusion_trusts_the_list_whose_top_stands_out() -> None:
    # bm25: A far above the rest; vector: B barely above two near-ties. Min-max gives both tops 1.0 (a tie
    # broken by nothing); the z-score weighs A's clear lead (√3 standard deviations) above B's (≈0.60).
    xs = [uuid.UUID(int=10 + i) for i in range(6)]
    lists = {
        "bm25": ranked([(A, 10.0), (xs[0], 1.0), (xs[1], 1.0), (xs[2], 1.0)]),
        "vector": ranked([(B, 10.0), (xs[3], 9.9), (xs[4], 9.8), (xs[5], 1.0)]),
    }
    weights = {"vector": 1.0, "bm25": 1.0}
    by_minmax = fuse(lists, derive(HYBRID, normalization="minmax", linear_weights=weights))
    assert by_minmax[A].lin == pytest.approx(by_minmax[B].lin) == pytest.approx(1.0)
    by_z = fuse(lists, derive(HYBRID, normalization="zscore", linear_weights=weights))
    assert by_z[A].lin == pytest.approx(math.sqrt(3))
    mean = (10 + 9.9 + 9.8 + 1) / 4
    std = math.sqrt(sum((v - mean) ** 2 for v in (10, 9.9, 9.8, 1)) / 4)
    assert by_z[B].lin == pytest.approx((10 - mean) / std)
    assert by_z[A].lin > by_z[B].lin
    # the λ-sum keeps the seed's min-max whatever the linear normalisation
    assert by_z[A].normalized == by_minmax[A].normalized == {"bm25": 1.0}


def test_linear_fusion_ignores_unweighted_retrievers_and_outside_neighbours() -> None:
    from neuromem.recall.fusion import neighbour_context

    recipe = derive(
        HYBRID, fusion="linear", normalization="minmax", linear_weights={"vector": 1.0}, four_factor=True
    )
    fused = fuse({"vector": ranked([(A, 0.8), (B, 0.4)]), "graph": ranked([(B, 5.0)])}, recipe)
    assert fused[B].lin == pytest.approx(0.0)  # graph weighs 0 unless listed
    neighbour_context(fused, {A: [C], B: [B]})  # C is no candidate; a self-loop does not count
    assert fused[A].context == 0.0 and fused[B].context == 0.0
    four = memory_factors(_record(importance=0.5), NOW, RecallSettings())
    base, final = final_score(fused[A], four, recipe)
    assert base == pytest.approx(1.0) and final == pytest.approx(1.0 * (1 + four.total))
