"""A multi-step question follows its chain of facts (issue 21; ``recall.chains``): "In which city was the author
of Solaris born?" needs "The author of Solaris is Stanislaw Lem" and then "Stanislaw Lem was born in the city
of Lviv", which shares no word with the question that the other birthplaces do not share."""

from __future__ import annotations

import datetime as dt
import uuid

import pytest

from neuromem import Memory
from neuromem.recall.chains import chain_shaped, linked_sentences, new_names, placed_after, seed_positions
from neuromem.recall.recipes import derive, get_recipe
from neuromem.types import MemoryRecord, MemoryType, ScoreBreakdown, SearchHit

AUTHOR = "The author of Solaris is Stanislaw Lem."
BIRTHPLACE = "Stanislaw Lem was born in the city of Lviv."
QUESTION = "In which city was the author of Solaris born?"
OTHERS = [
    f"{name} was born in the city of {city}."
    for name, city in [
        ("Maria Ortega", "Seville"),
        ("Kenji Sato", "Osaka"),
        ("Amara Okafor", "Lagos"),
        ("Lars Nilsson", "Malmo"),
        ("Chen Jing", "Suzhou"),
        ("Omar Haddad", "Amman"),
        ("Ines Duarte", "Porto"),
        ("Tom Ashby", "Leeds"),
    ]
] + ["The author of Dune is Frank Herbert.", "The author of Emma is Jane Austen."]


@pytest.mark.parametrize(
    ("question", "chain"),
    [
        (QUESTION, True),
        ("Who is the CEO of the company that produced the Walkman?", True),
        ("What field does Lina Park's spouse work in?", True),
        ("What is the capital of the country of citizenship of the founder of Zalora?", True),
        ("Where was the founder of Zalora born?", True),
        ("《长夜》的作者出生在哪个城市？", True),
        ("Who is the CEO of Sony?", False),  # one relation of one thing
        ("In which city was Barack Obama born?", False),
        ("What is my wife's car plate?", False),
        ("Where are the headquarters of Toyota?", False),
        ("小美的老公是谁？", False),
        ("What time do I wake up?", False),
    ],
)
def test_a_question_is_followed_only_when_shaped_as_a_chain(question: str, chain: bool) -> None:
    assert chain_shaped(question) is chain


def _hit(i: int, content: str, final: float) -> SearchHit:
    record = MemoryRecord(
        id=uuid.UUID(int=i),
        user_id="u",
        memory_type=MemoryType.FACT,
        content=content,
        created_at=dt.datetime(2024, 1, 1, tzinfo=dt.UTC),
    )
    return SearchHit(record, ScoreBreakdown(final, 0, 0, 0, final, {"vector": i}, {}))


def test_a_step_takes_the_names_of_the_hits_that_link_to_the_chain() -> None:
    texts = [OTHERS[0], AUTHOR, OTHERS[1]]
    known = {"solaris"}
    at = seed_positions(texts, known, 3)
    assert at == [1]  # the one hit that names what the question names
    assert new_names([texts[i] for i in at], known) == ["stanislaw lem"]
    assert seed_positions(texts, set(), 3) == [0]  # nothing named: the best hit


def test_a_turn_of_many_facts_gives_the_names_of_the_fact_it_links_by() -> None:
    turn = f"1. {OTHERS[0]}\n2. {AUTHOR}\n3. {OTHERS[1]}"
    assert linked_sentences([turn], {"solaris"}) == [AUTHOR]
    assert new_names(linked_sentences([turn], {"solaris"}), {"solaris"}) == ["stanislaw lem"]
    assert linked_sentences(["《长夜》的作者是林默。林默出生在杭州。"], {"长夜"}) == [
        "《长夜》的作者是林默。"
    ]


def test_a_fact_reached_through_a_hit_ranks_right_below_it() -> None:
    hits = [_hit(1, AUTHOR, 2.0), _hit(2, OTHERS[0], 1.0), _hit(3, OTHERS[1], 0.5), _hit(4, BIRTHPLACE, 0.1)]
    found = hits[3].memory
    placed = placed_after(hits, 0, [found], "bm25_follow1")
    assert [h.memory.id for h in placed] == [uuid.UUID(int=i) for i in (1, 4, 2, 3)]  # moved up, not twice
    assert 1.0 < placed[1].score.final < 2.0
    assert placed[1].score.ranks == {"bm25_follow1": 1}


def test_search_follows_the_chain_to_its_second_fact(memory: Memory) -> None:
    for text in [*OTHERS, AUTHOR, BIRTHPLACE]:
        memory.add(text, user_id="u")
    found = memory.search(QUESTION, user_id="u", limit=5, trace=True)
    texts = [h.memory.content for h in found.hits]
    assert texts.index(AUTHOR) + 1 == texts.index(BIRTHPLACE), texts
    assert found.trace["stages"]["follow"][0] == ["stanislaw lem"]  # then what that fact names, "lviv"
    # a recipe that never follows leaves the chain to the words alone
    never = derive(get_recipe(None), follow_hops=0)
    unfollowed = memory.search(QUESTION, user_id="u", limit=5, trace=True, recipe=never)
    assert "follow" not in unfollowed.trace["stages"]


def test_a_one_step_question_is_not_followed(memory: Memory) -> None:
    for text in [*OTHERS, AUTHOR, BIRTHPLACE]:
        memory.add(text, user_id="u")
    found = memory.search("Who is the author of Solaris?", user_id="u", limit=5, trace=True)
    assert found.hits[0].memory.content == AUTHOR
    assert "follow" not in found.trace["stages"]
