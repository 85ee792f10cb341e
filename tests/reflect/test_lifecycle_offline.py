"""End-to-end trait life cycle with the offline detector (seed 001 §3.3–§4.5), replayed over weeks."""

from __future__ import annotations

from neuromem import Memory

from .helpers import by_content, day, say

U = "alice"


def test_behavior_created_then_rises_with_better_grades(memory: Memory) -> None:
    # three sessions, one context (personal) → behaviour at 0.4 (emerging)
    say(memory, U, day(0), ["I went jogging in the park this morning"], session="s1")
    say(memory, U, day(1), ["Another jogging session along the river today"], session="s2")
    say(memory, U, day(2), ["jogging again before breakfast, felt great"], session="s3")
    report = memory.reflect(user_id=U, now=day(2.5))
    assert report.created == 1
    [trait] = by_content(memory, U, "jogging")
    assert trait.trait_subtype == "behavior" and trait.trait_stage == "emerging"
    assert trait.trait_confidence == 0.4
    # an explicit self-statement (B) raises it further, then a cross-context one (A)
    say(memory, U, day(3), ["I always go jogging when I can"], session="s4")
    memory.reflect(user_id=U, now=day(3.5))
    [trait] = by_content(memory, U, "jogging")
    assert trait.trait_confidence > 0.5
    say(memory, U, day(4), ["jogging with colleagues after the work meeting"], session="s5")
    memory.reflect(user_id=U, now=day(4.5))
    [trait] = by_content(memory, U, "jogging")
    assert trait.trait_stage == "established", trait
    detail = memory.trait(trait.id, user_id=U)
    grades = {e.quality for e in detail.supporting}
    assert "A" in grades and len(detail.supporting) == 5
    assert detail.history[0].event == "ADD"


def test_trend_dissolves_without_reinforcement_and_one_is_promoted(memory: Memory) -> None:
    say(memory, U, day(0), ["Looked at photography cameras online"], session="a1")
    say(memory, U, day(1), ["Read a review of photography lenses"], session="a2")
    say(memory, U, day(0), ["我最近在考虑跳槽"], session="a1")
    say(memory, U, day(1), ["今天又看了跳槽的机会"], session="a2")
    memory.reflect(user_id=U, now=day(1.5))
    trends = [t for t in memory.traits(user_id=U).forming if t.trait_stage == "trend"]
    assert len(trends) == 2
    # only 跳槽 is reinforced in two later reflections inside its window
    say(memory, U, day(8), ["跳槽的事和猎头聊了"], session="a3")
    memory.reflect(user_id=U, now=day(8.5))
    say(memory, U, day(15), ["还在纠结跳槽"], session="a4")
    memory.reflect(user_id=U, now=day(15.5))
    memory.reflect(user_id=U, now=day(32))
    all_traits = memory.traits(user_id=U)
    assert not [
        t for t in memory.get_all(user_id=U, filters={"memory_type": "trait"}) if "photography" in t.content
    ]
    photo = [  # a dissolved trait is no current belief: only the inactive view lists it
        t
        for t in memory.get_all(user_id=U, filters={"memory_type": "trait"}, include_inactive=True)
        if "photography" in t.content and t.expired_at is None
    ]
    assert photo and photo[0].trait_stage == "dissolved"
    [job] = [t for t in all_traits.all() if "跳槽" in t.content]
    assert job.trait_stage == "candidate" and job.trait_confidence == 0.3
    assert job.trait_derived_from == "trend_promotion" and job.trait_window_end is None


def test_sensitive_memories_are_never_evidence(memory: Memory) -> None:
    for i, text in enumerate(
        [
            "I took my antidepressant this morning",
            "antidepressant dose changed",
            "forgot the antidepressant today",
        ]
    ):
        say(memory, U, day(i), [text], session=f"h{i}")
    for i in range(3):
        say(
            memory,
            U,
            day(i),
            [f"chess puzzle number {i} solved"],
            session=f"c{i}",
            metadata={"sensitive": ["health"]},
        )
    report = memory.reflect(user_id=U, now=day(3))
    assert report.created == 0 and report.scanned == 6
    assert memory.traits(user_id=U).all() == ()
