"""Defects of issue 13 item 7, each pinned: a corrected trait keeps its state, traits are never added
directly, episodes are append-only, and the unused seed 000 §7 tables are gone."""

from __future__ import annotations

import psycopg
import pytest

from neuromem import Memory, MemoryType, Operation
from neuromem.errors import TraitWriteError
from tests.recall.helpers import insert_trait, refresh_traits


def test_correcting_a_trait_keeps_subtype_stage_and_confidence(memory: Memory) -> None:
    """``update(content=…)`` of a trait is a new version of the same trait (seed 001 §1.3: a
    corrected wording), so it stays recallable with its subtype, stage and confidence."""
    old = insert_trait(
        memory,
        "tr",
        "Prefers green tea in the morning",
        stage="established",
        subtype="preference",
        confidence=0.72,
    )
    new = memory.update(old.id, user_id="tr", content="Prefers green tea in the early morning")
    assert new.version == old.version + 1 and new.memory_type is MemoryType.TRAIT
    assert (new.trait_subtype, new.trait_stage, new.trait_confidence) == ("preference", "established", 0.72)
    assert (
        new.trait_last_reinforced == old.trait_last_reinforced
    )  # the decay clock is not reset by a rewording
    refresh_traits(memory)
    hits = memory.search("green tea morning", user_id="tr", memory_types=["trait"])
    assert [h.memory.id for h in hits] == [new.id]
    assert [t.id for t in memory.traits(user_id="tr").preferences] == [new.id]


def test_adding_a_trait_directly_is_refused_and_writes_nothing(memory: Memory) -> None:
    """Seed 001 §1.3: traits come only from reflection."""
    with pytest.raises(TraitWriteError, match="reflection"):
        memory.add("Prefers morning meetings", user_id="tw", memory_type="trait")
    with pytest.raises(TraitWriteError):
        memory.add("Prefers morning meetings", user_id="tw", memory_type=MemoryType.TRAIT)
    assert memory.get_all(user_id="tw", include_inactive=True) == []
    assert memory.add("Prefers morning meetings", user_id="tw")[0].operation is Operation.ADD  # as a fact


def test_a_near_duplicate_episode_never_supersedes(settings) -> None:  # type: ignore[no-untyped-def]
    """Seed 001 §2.3: episodes are append-only. The same pair as facts is a restatement (UPDATE);
    as episodes both stay current, the second linked SIMILAR_TO the first."""
    first, again = "I ran the Berlin marathon today.", "I really ran the Berlin marathon today!"
    with Memory(settings.with_updates(write={"near_duplicate_threshold": 0.01})) as m:
        [fact] = m.add(first, user_id="ep-f")
        [restated] = m.add(again, user_id="ep-f")
        assert (
            restated.operation is Operation.UPDATE and restated.previous_id == fact.memory.id
        )  # the control
        [older] = m.add(first, user_id="ep", memory_type="episodic")
        [newer] = m.add(again, user_id="ep", memory_type="episodic")
        assert newer.operation is Operation.ADD and newer.previous_id is None
        assert m.get(older.memory.id, user_id="ep").expired_at is None
        assert {r.content for r in m.get_all(user_id="ep")} == {first, again}
        with psycopg.connect(settings.store.database_url.get_secret_value()) as conn:
            link = conn.execute(
                "SELECT source_id, target_id FROM graph_edges WHERE edge_type = 'SIMILAR_TO' "
                "AND user_id = 'ep'"
            ).fetchall()
        assert link == [(newer.memory.id, older.memory.id)]


def test_unused_tables_of_seed_000_section_7_are_dropped(memory: Memory) -> None:
    """Migration 0012: nothing wrote ``key_values`` or ``emotion_profiles``; they are gone."""
    with memory.runtime.db.connection() as conn:
        rows = conn.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' "
            "AND table_name IN ('key_values', 'emotion_profiles')"
        ).fetchall()
    assert rows == []
