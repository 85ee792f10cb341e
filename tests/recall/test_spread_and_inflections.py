"""Session spread (MMR over the source session) and English inflections of the lexical query:
the pure functions by hand, then both through the real pipeline on PostgreSQL."""

from __future__ import annotations

import random
import uuid

import pytest

from neuromem import Memory
from neuromem.recall.mmr import session_spread
from neuromem.recall.query import analyze_query, inflections
from neuromem.recall.recipes import BM25_ONLY, derive
from neuromem.recall.truth import LEXICAL_TRACE
from tests.recall.helpers import insert_memory

A1, A2, A3, B1, C1 = (uuid.UUID(int=i) for i in range(1, 6))


@pytest.mark.parametrize(
    ("terms", "expected"),
    [
        (("classes",), ("class", "classe")),  # -es after a sibilant; the -s-only form is tried too
        (("babies",), ("baby",)),  # consonant + ies
        (("babies", "baby"), ()),  # the singular is asked already
        (("days", "subscriptions", "boxes"), ("day", "subscription", "box", "boxe")),
        (("class", "campus", "analysis"), ()),  # -ss, -us, -is: no plural
        (("family", "attend", "tank"), ()),  # singular terms get no plural
        (("ids", "订阅", "v1.2s"), ()),  # short, Chinese, digits: left alone
        (("cats",), ("cat",)),
    ],
)
def test_inflections_by_rule(terms: tuple[str, ...], expected: tuple[str, ...]) -> None:
    assert inflections(terms) == expected


def test_analysis_keeps_the_terms_and_lists_their_inflections_apart() -> None:
    a = analyze_query("How many fitness classes do I attend?")
    assert "classes" in a.terms and "class" not in a.terms
    assert "class" in a.variants and not set(a.variants) & set(a.terms)
    assert analyze_query("我参加了几个健身课").variants == ()


def test_session_spread_by_hand() -> None:
    ids, scores = [A1, A2, A3, B1, C1], [1.0, 0.9, 0.8, 0.6, 0.3]
    sessions = {A1: "a", A2: "a", A3: "a", B1: "b"}  # C1 has no session: never discounted
    got = session_spread(ids, scores, sessions, decay=0.5)
    # A1 1.0 | A2 0.45, A3 0.4, B1 0.6 → B1 | A2 0.45 → A2 | A3 0.8·0.25 = 0.2 < C1 0.3 → C1, A3
    assert [i for i, _ in got] == [A1, B1, A2, C1, A3]
    assert [v for _, v in got] == pytest.approx([1.0, 0.6, 0.45, 0.3, 0.2])
    assert [i for i, _ in session_spread(ids, scores, sessions, decay=1.0)] == ids  # 1 = off
    assert [i for i, _ in session_spread(ids, scores, {}, decay=0.1)] == ids  # no sessions known
    with pytest.raises(ValueError):
        session_spread(ids, scores, sessions, decay=0.0)


def plain_greedy(
    ids: list[uuid.UUID],
    scores: list[float],
    sessions: dict[uuid.UUID, str],
    decay: float,
) -> list[tuple[uuid.UUID, float]]:
    """The definition, O(n²): repeatedly the best ``score · decay^n`` (n: picks from its session)."""
    left, picked, out = list(range(len(ids))), dict[str, int](), []
    while left:
        values = {
            k: scores[k] * (decay ** picked.get(sessions[ids[k]], 0) if ids[k] in sessions else 1.0)
            for k in left
        }
        best = max(left, key=lambda k: (values[k], -k))
        out.append((ids[best], values[best]))
        left.remove(best)
        if ids[best] in sessions:
            picked[sessions[ids[best]]] = picked.get(sessions[ids[best]], 0) + 1
    return out


def test_session_spread_equals_the_plain_greedy_pick() -> None:
    """The heap of session heads picks what the definition picks."""
    rng = random.Random(7)
    for _ in range(50):
        ids = [uuid.UUID(int=i + 1) for i in range(rng.randint(1, 30))]
        scores = sorted((rng.choice([0.0, rng.random()]) for _ in ids), reverse=True)
        sessions = {i: rng.choice("abcd") for i in ids if rng.random() < 0.8}
        decay = rng.choice([0.3, 0.7, 1.0])
        want = plain_greedy(ids, scores, sessions, decay)
        got = session_spread(ids, scores, sessions, decay=decay)
        assert [i for i, _ in got] == [i for i, _ in want]
        assert [v for _, v in got] == pytest.approx([v for _, v in want])


LEXICAL = derive(BM25_ONLY, "lexical", fusion="linear", linear_weights={"bm25": 1.0}, normalization="minmax")


def test_bm25_searches_the_inflections_only_when_the_recipe_asks(memory: Memory) -> None:
    one = insert_memory(memory, "u", "I started a BodyPump class on Mondays", embed=False)
    insert_memory(memory, "u", "my weekly grocery list", embed=False)
    plain = memory.search("fitness classes", user_id="u", recipe=LEXICAL, trace=True)
    assert plain.hits == ()  # "classes" is not "class" in the index
    inflected = memory.search(
        "fitness classes", user_id="u", recipe=derive(LEXICAL, inflections=True), trace=True
    )
    assert [h.memory.id for h in inflected.hits] == [one.id]
    assert "class" in inflected.trace["stages"]["query"]["variants"]


def test_pipeline_spreads_the_top_over_sessions(memory: Memory) -> None:
    """BM25 scores min-max normalised, no four-factor, no MMR: the plain ranking is a1, a2, b1, b2 (b2,
    the weakest, scores 0). With ``decay`` below b1/a2 the second turn of session a falls behind b1,
    scored ``decay`` times its own score; b2 (the second of session b) stays last."""
    a1 = insert_memory(memory, "u", "kiwi kiwi kiwi kiwi", metadata={"session_id": "a"}, embed=False)
    a2 = insert_memory(memory, "u", "kiwi kiwi kiwi pie", metadata={"session_id": "a"}, embed=False)
    b1 = insert_memory(memory, "u", "kiwi kiwi jam tart", metadata={"session_id": "b"}, embed=False)
    b2 = insert_memory(
        memory, "u", "kiwi jam tart with plum and fig", metadata={"session_id": "b"}, embed=False
    )
    recipe = derive(LEXICAL, four_factor=False, mmr=False, time_filter=False)
    plain = memory.search("kiwi", user_id="u", recipe=recipe)
    assert [h.memory.id for h in plain.hits] == [a1.id, a2.id, b1.id, b2.id]
    s_a2, s_b1 = plain.hits[1].score.final, plain.hits[2].score.final
    assert 0 < s_b1 < s_a2 and plain.hits[3].score.final == pytest.approx(LEXICAL_TRACE / 4)
    decay = 0.9 * s_b1 / s_a2
    spread = memory.search("kiwi", user_id="u", recipe=derive(recipe, session_decay=decay))
    assert [h.memory.id for h in spread.hits] == [a1.id, b1.id, a2.id, b2.id]
    # b2, clipped to 0 by the fusion but found by BM25, keeps a trace of a score (``truth.lexical_traces``)
    assert [h.score.final for h in spread.hits] == pytest.approx([1.0, s_b1, decay * s_a2, LEXICAL_TRACE / 4])
    assert spread.hits[2].score.extra["session_spread"] == pytest.approx(decay)
