"""bench.ordered_facts: the facts it writes and how it scores a ranking (issue 21)."""

from __future__ import annotations

from bench.ordered_facts import HELD_OUT, RELATIONS, Fact, facts, order, ranks


def test_each_subject_gets_two_different_values_of_one_relation() -> None:
    dev, held_out = facts(1, "dev"), facts(1, "heldout")
    assert len(dev) == sum(len(r[3]) for r in RELATIONS) and len(held_out) == sum(len(r[3]) for r in HELD_OUT)
    for f in dev + held_out:
        assert f.old_value != f.new_value and f.old != f.new
        assert f.old.replace(f.old_value, f.new_value) == f.new  # one slot, another value
    assert facts(1, "all") == dev + held_out and facts(2, "dev") != dev


def test_every_old_statement_comes_before_every_new_one() -> None:
    fs = facts(1, "dev")
    written = order(fs, 1)
    last_old = max(written.index(f.old) for f in fs)
    assert all(written.index(f.new) > last_old for f in fs)


def test_a_ranking_is_scored_by_where_the_new_and_the_old_value_stand() -> None:
    f = Fact("The capital of X is A.", "The capital of X is B.", "What is the capital of X?", "A", "B", True)
    assert ranks([f.new, f.old], f) == (True, False)
    assert ranks([f.old, f.new], f) == (False, True)
    assert ranks(["Unrelated.", f.new], f) == (False, False)
    assert ranks(["Unrelated."], f) == (False, False)
