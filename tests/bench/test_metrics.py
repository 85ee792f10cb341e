"""bench.metrics against hand-computed values and a re-derivation of LongMemEval's eval_utils."""

from __future__ import annotations

import json
import math

import pytest
from bench.datasets import session_of_turn
from bench.metrics import (
    QuestionScores,
    aggregate,
    average_precision_at_k,
    collapse_ranking,
    lme_scores,
    madial_scores,
    mrr,
    ndcg_any_at_k,
    ndcg_at_k,
    precision_at_k,
    recall_all_at_k,
    recall_any_at_k,
    recall_at_k,
)
from hypothesis import given
from hypothesis import strategies as st

RANKED = ["a", "b", "c", "d", "e"]
GOLD = {"b", "d"}
LOG3 = math.log2(3)


def test_recall_any_and_all() -> None:
    assert recall_any_at_k(RANKED, GOLD, 1) == 0.0
    assert recall_any_at_k(RANKED, GOLD, 2) == 1.0
    assert recall_all_at_k(RANKED, GOLD, 2) == 0.0
    assert recall_all_at_k(RANKED, GOLD, 4) == 1.0
    assert recall_all_at_k(RANKED, GOLD, 50) == 1.0
    # empty gold behaves like upstream's any([]) / all([])
    assert recall_any_at_k(RANKED, set(), 3) == 0.0
    assert recall_all_at_k(RANKED, set(), 3) == 1.0
    assert recall_any_at_k([], GOLD, 3) == 0.0


def test_k_must_be_positive() -> None:
    for fn in (recall_any_at_k, recall_all_at_k, ndcg_any_at_k, recall_at_k, precision_at_k, ndcg_at_k):
        with pytest.raises(ValueError):
            fn(RANKED, GOLD, 0)
    with pytest.raises(ValueError):
        mrr(RANKED, GOLD, 0)


def test_ndcg_any_hand_computed() -> None:
    # upstream DCG: rel1 + Σ_{i>=2} rel_i / log2(i) → hits at ranks 2 and 4: 1/1 + 1/2
    # ideal: two hits at ranks 1 and 2: 1 + 1/1
    assert ndcg_any_at_k(RANKED, GOLD, 5) == pytest.approx(1.5 / 2.0)
    assert ndcg_any_at_k(RANKED, GOLD, 1) == 0.0
    # a single gold item at rank 2 scores 1.0 upstream (ranks 1 and 2 share discount 1)
    assert ndcg_any_at_k(["x", "a"], {"a"}, 2) == 1.0
    assert ndcg_any_at_k(["x", "y", "a"], {"a"}, 3) == pytest.approx(1 / LOG3)
    assert ndcg_any_at_k(RANKED, set(), 5) == 0.0


def test_standard_ndcg_hand_computed() -> None:
    dcg = 1 / LOG3 + 1 / math.log2(5)
    assert ndcg_at_k(RANKED, GOLD, 5) == pytest.approx(dcg / (1 + 1 / LOG3))  # 0.6509…
    assert ndcg_at_k(RANKED, GOLD, 2) == pytest.approx((1 / LOG3) / (1 + 1 / LOG3))
    # MADial upstream: ideal re-sorts the retrieved top k only
    assert ndcg_at_k(RANKED, GOLD, 2, ideal="retrieved") == pytest.approx(1 / LOG3)
    assert ndcg_at_k(["b"], GOLD, 5) == 1.0 / (1 + 1 / LOG3)
    assert ndcg_at_k(["b"], GOLD, 5, ideal="retrieved") == 1.0
    assert ndcg_at_k(["z"], GOLD, 5, ideal="retrieved") == 0.0
    with pytest.raises(ValueError):
        ndcg_at_k(RANKED, GOLD, 5, ideal="bogus")  # type: ignore[arg-type]


def test_duplicate_hits_count_once() -> None:
    assert ndcg_at_k(["b", "b"], {"b"}, 2) == 1.0
    assert ndcg_any_at_k(["b", "b", "b"], {"b"}, 3) == 1.0
    assert average_precision_at_k(["b", "b"], {"b", "d"}, 2) == pytest.approx(0.5)


def test_fraction_metrics_hand_computed() -> None:
    assert recall_at_k(RANKED, GOLD, 2) == 0.5
    assert recall_at_k(RANKED, GOLD, 4) == 1.0
    assert recall_at_k(RANKED, set(), 4) == 0.0
    assert precision_at_k(RANKED, GOLD, 4) == 0.5
    assert precision_at_k(["b"], GOLD, 10) == 0.1  # upstream divides by k
    # hits at ranks 2 and 4: (1/2 + 2/4) / min(2, 5)
    assert average_precision_at_k(RANKED, GOLD, 5) == pytest.approx(0.5)
    assert average_precision_at_k(RANKED, GOLD, 2) == pytest.approx(0.25)  # (1/2) / min(2, 2)
    assert average_precision_at_k(RANKED, set(), 2) == 0.0
    assert mrr(RANKED, GOLD) == 0.5
    assert mrr(RANKED, GOLD, 1) == 0.0
    assert mrr(RANKED, {"zz"}) == 0.0


def test_score_bundles() -> None:
    lme = lme_scores(RANKED, GOLD, ks=(1, 5))
    assert lme == {
        "recall_any@1": 0.0,
        "recall_all@1": 0.0,
        "ndcg_any@1": 0.0,
        "recall_any@5": 1.0,
        "recall_all@5": 1.0,
        "ndcg_any@5": pytest.approx(0.75),
    }
    mad = madial_scores(RANKED, GOLD, ks=(5,))
    assert set(mad) == {"recall@5", "precision@5", "map@5", "mrr@5", "ndcg@5"}
    assert mad["precision@5"] == pytest.approx(0.4)


def test_collapse_ranking_turns_to_sessions() -> None:
    turns = ["s1_1", "s2_3", "s1_4", "answer_x_2_1", "s3_1", "s2_1"]
    assert collapse_ranking(turns, session_of_turn) == ["s1", "s2", "answer_x_2", "s3"]


# --------------------------------------------------------------------------- against upstream's definition


def _upstream_dcg(rels: list[float], k: int) -> float:
    """LongMemEval eval_utils.dcg, re-derived: rel[0] + Σ_{p≥1} rel[p] / log2(p + 1)."""
    rels = rels[:k]
    return sum(r if p == 0 else r / math.log2(p + 1) for p, r in enumerate(rels))


def _upstream_eval(
    rankings: list[int], correct: set[str], corpus_ids: list[str], k: int
) -> tuple[float, ...]:
    relevances = [1.0 if doc in correct else 0.0 for doc in corpus_ids]
    ideal = _upstream_dcg(sorted(relevances, reverse=True), k)
    actual = _upstream_dcg([relevances[i] for i in rankings[:k]], k)
    recalled = {corpus_ids[i] for i in rankings[:k]}
    return (
        float(any(d in recalled for d in correct)),
        float(all(d in recalled for d in correct)),
        actual / ideal if ideal else 0.0,
    )


@given(
    st.integers(1, 30).flatmap(
        lambda n: st.tuples(
            st.permutations(list(range(n))),
            st.sets(st.integers(0, n - 1), max_size=n),
            st.integers(1, n + 3),
        )
    )
)
def test_matches_longmemeval_eval_utils(case: tuple[list[int], set[int], int]) -> None:
    rankings, gold_idx, k = case
    corpus_ids = [f"s{i}_1" for i in range(len(rankings))]
    correct = {corpus_ids[i] for i in gold_idx}
    ranked_ids = [corpus_ids[i] for i in rankings]
    expected = _upstream_eval(rankings, correct, corpus_ids, k)
    got = (
        recall_any_at_k(ranked_ids, correct, k),
        recall_all_at_k(ranked_ids, correct, k),
        ndcg_any_at_k(ranked_ids, correct, k),
    )
    assert got == pytest.approx(expected)


@given(st.lists(st.integers(0, 20), max_size=25), st.sets(st.integers(0, 20), max_size=8), st.integers(1, 12))
def test_metrics_stay_in_unit_interval(ranked: list[int], gold: set[int], k: int) -> None:
    for value in (
        recall_at_k(ranked, gold, k),
        precision_at_k(ranked, gold, k),
        average_precision_at_k(ranked, gold, k),
        mrr(ranked, gold, k),
        ndcg_at_k(ranked, gold, k),
        ndcg_at_k(ranked, gold, k, ideal="retrieved"),
        ndcg_any_at_k(ranked, gold, k),
    ):
        assert 0.0 <= value <= 1.0 + 1e-12


# --------------------------------------------------------------------------- aggregation


def test_aggregate_per_type_and_overall() -> None:
    results = [
        QuestionScores("q1", "multi-session", {"r@5": 1.0, "n@5": 0.5}),
        QuestionScores("q2", "multi-session", {"r@5": 0.0, "n@5": 0.25}),
        QuestionScores("q3", "knowledge-update", {"r@5": 1.0, "n@5": 1.0}),
    ]
    report = aggregate(results, meta={"dataset": "synthetic"})
    assert report.metrics == ("r@5", "n@5")
    assert list(report.by_type) == ["knowledge-update", "multi-session"]
    assert report.by_type["multi-session"] == {"r@5": 0.5, "n@5": 0.375}
    assert report.overall["r@5"] == pytest.approx(2 / 3)
    assert report.overall["n@5"] == pytest.approx(1.75 / 3)
    assert report.counts == {"knowledge-update": 1, "multi-session": 2, "overall": 3}
    assert report.n == 3

    data = report.to_dict()
    assert json.loads(json.dumps(data)) == data
    assert data["meta"] == {"dataset": "synthetic"}

    md = report.to_markdown(digits=2)
    lines = md.strip().splitlines()
    assert lines[0] == "| type | n | r@5 | n@5 |"
    assert lines[2] == "| knowledge-update | 1 | 1.00 | 1.00 |"
    assert lines[3] == "| multi-session | 2 | 0.50 | 0.38 |"
    assert lines[4] == "| **overall** | 3 | 0.67 | 0.58 |"
    assert "| type | n | n@5 |" in report.to_markdown(metrics=["n@5"])


def test_aggregate_handles_missing_metrics_and_empty_input() -> None:
    report = aggregate([QuestionScores("a", "t", {"x": 1.0}), QuestionScores("b", "t", {"x": 0.0, "y": 1.0})])
    assert report.overall == {"x": 0.5, "y": 1.0}
    empty = aggregate([])
    assert empty.n == 0 and empty.overall == {} and empty.by_type == {}
    assert "**overall** | 0" in empty.to_markdown()
