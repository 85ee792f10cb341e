"""Restatements with reordered words are one fact (issue 21 item 6); the roles of the words still count."""

from __future__ import annotations

import pytest

from neuromem import Memory, Operation
from neuromem.text.restatement import restatement_reason


@pytest.mark.parametrize(
    ("new", "old"),
    [
        ("Every morning I take 10 mg of lisinopril", "I take 10 mg of lisinopril every morning"),
        ("On Sundays I visit my mother.", "I visit my mother on Sundays."),
        ("每天早上我吃一片降压药", "我每天早上吃一片降压药"),
    ],
)
def test_a_moved_adverbial_is_the_same_fact(new: str, old: str) -> None:
    assert restatement_reason(new, old) is not None


@pytest.mark.parametrize(
    ("new", "old"),
    [
        ("Bob likes Alice", "Alice likes Bob"),  # the roles changed
        ("Every morning I take 20 mg of lisinopril", "I take 10 mg of lisinopril every morning"),
        ("Every evening I take 10 mg of lisinopril", "I take 10 mg of lisinopril every morning"),
        ("Tom owes Anna money", "Anna owes Tom money"),
    ],
)
def test_other_orders_and_other_words_are_other_facts(new: str, old: str) -> None:
    assert restatement_reason(new, old) is None


def test_add_merges_the_reordered_restatement(memory: Memory) -> None:
    [first] = memory.add("I take 10 mg of lisinopril every morning", user_id="u")
    [second] = memory.add("Every morning I take 10 mg of lisinopril", user_id="u")
    assert second.operation is Operation.UPDATE and second.previous_id == first.memory.id
    assert [m.content for m in memory.get_all(user_id="u")] == ["Every morning I take 10 mg of lisinopril"]
