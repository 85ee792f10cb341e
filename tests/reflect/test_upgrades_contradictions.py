"""Upgrades with lineage, contradiction split/dissolve, decay over months, concurrency (seed 001 §3.3, §4.2–§4.4)."""

from __future__ import annotations

import threading

from neuromem import Memory

from .helpers import by_content, day, say

U = "bob"


def _behaviour(memory: Memory, word: str, extra: str, start: int) -> None:
    for i in range(3):
        say(memory, U, day(start + i), [f"{word} {extra} number {i} this morning"], session=f"{word}{i}")


def test_behaviours_make_preferences_and_preferences_a_core_with_lineage(memory: Memory) -> None:
    # two tendencies, each shown by two behaviours (shared theme word), all in the personal context
    phrases = {"jogging": "at dawn", "swimming": "at dawn", "sketching": "portraits", "painting": "portraits"}
    for word, theme in phrases.items():
        for i in range(3):
            say(
                memory,
                U,
                day(i),
                [f"{word} {theme} {i}"],
                session=f"{word}{i}",
                metadata={"context": "personal"},
            )
    memory.reflect(user_id=U, now=day(3))
    assert len(memory.traits(user_id=U, now=day(3)).behaviors) == 4
    for round_, now in ((0, 4), (1, 5)):  # explicit self-statements (B) lift each behaviour past 0.5
        for word, theme in phrases.items():
            say(
                memory,
                U,
                day(now),
                [f"I always enjoy {word} {theme}"],
                session=f"x{round_}{word}",
                metadata={"context": "personal"},
            )
        memory.reflect(user_id=U, now=day(now + 0.5))
    groups = memory.traits(user_id=U, now=day(5.5))
    assert len(groups.preferences) == 2, groups.preferences
    pref = groups.preferences[0]
    detail = memory.trait(pref.id, user_id=U, now=day(5.5))
    assert len(detail.children) == 2 and all(c.trait_parent_id == pref.id for c in detail.children)
    assert detail.supporting  # inherited from the children (seed 001 §4.3)
    # reinforcement propagates upwards until both preferences pass 0.6 → one core trait above them
    for round_, now in ((2, 7), (3, 8)):
        for word, theme in phrases.items():
            say(
                memory,
                U,
                day(now),
                [f"I always enjoy {word} {theme} again"],
                session=f"x{round_}{word}",
                metadata={"context": "personal"},
            )
        memory.reflect(user_id=U, now=day(now + 0.5))
    groups = memory.traits(user_id=U, now=day(8.5))
    assert len(groups.core) == 1, groups
    core = memory.trait(groups.core[0].id, user_id=U, now=day(8.5))
    assert {c.trait_subtype for c in core.children} == {"preference", "behavior"}
    assert core.trait.trait_context == "personal"
    behaviour = next(c for c in core.children if c.trait_subtype == "behavior")
    assert [p.trait_subtype for p in memory.trait(behaviour.id, user_id=U).parents] == ["preference", "core"]


def test_contradiction_splits_by_context(memory: Memory) -> None:
    for i in range(3):
        say(
            memory,
            U,
            day(i),
            [f"careful review of every detail in the project {i}"],
            session=f"w{i}",
            metadata={"context": "work"},
        )
    memory.reflect(user_id=U, now=day(3))
    [trait] = by_content(memory, U, "detail")
    for i in range(3):
        say(
            memory,
            U,
            day(4 + i),
            [f"at home I don't review any detail {i}"],
            session=f"p{i}",
            metadata={"context": "personal"},
        )
    memory.reflect(user_id=U, now=day(7))
    trait = memory.get(trait.id, user_id=U)
    assert trait.trait_context == "contextual", trait
    assert set(trait.metadata["contexts"]) == {"work", "personal"}
    assert trait.metadata["last_judgement"]["action"] == "split"
    assert [h.event for h in memory.trait(trait.id, user_id=U).history].count("ADD") == 1


def test_contradiction_dissolves_a_weak_trait(memory: Memory) -> None:
    for i in range(3):
        say(memory, U, day(i), [f"played chess online game {i}"], session=f"c{i}")
    [trait_id] = memory.reflect(user_id=U, now=day(3)).created_ids
    denials = [
        "I never play chess anymore",
        "chess bores me now, I quit",
        "no chess for me this month, I stopped",
    ]
    for i, text in enumerate(denials):
        say(memory, U, day(4 + i), [text], session=f"n{i}")
    memory.reflect(user_id=U, now=day(7))
    trait = memory.get(trait_id, user_id=U)
    assert trait.trait_stage == "dissolved", (
        trait.trait_confidence,
        trait.trait_contradiction_count,
        trait.trait_reinforcement_count,
        trait.metadata,
    )
    assert trait.trait_contradiction_count == 3


def test_decay_over_months_of_silence(memory: Memory) -> None:
    _behaviour(memory, "painting", "watercolour", 0)
    memory.reflect(user_id=U, now=day(3))
    [trait] = by_content(memory, U, "painting")
    assert trait.trait_stage == "emerging"
    memory.reflect(user_id=U, now=day(200))  # 0.4·exp(−0.0045·197) ≈ 0.16 → candidate
    trait = memory.get(trait.id, user_id=U)
    assert trait.trait_stage == "candidate"
    memory.reflect(user_id=U, now=day(800))  # far below 0.05 → dissolved
    assert memory.get(trait.id, user_id=U).trait_stage == "dissolved"
    assert memory.run_job("consistency_check")["trait_evidence_without_memory"] == 0


def test_two_workers_on_one_user_end_consistent(memory: Memory) -> None:
    for word in ("reading", "baking"):
        _behaviour(memory, word, "novels", 0)
    results: list[object] = []

    def worker() -> None:
        results.append(memory.reflect(user_id=U, now=day(3)))

    threads = [threading.Thread(target=worker) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 2
    traits = [t for t in memory.get_all(user_id=U, filters={"memory_type": "trait"})]
    contents = [t.content for t in traits]
    assert len(contents) == len(set(contents)) and len(traits) >= 1
    assert sum(r.created for r in results) == len(traits)  # type: ignore[attr-defined]
