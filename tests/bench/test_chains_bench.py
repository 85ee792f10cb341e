"""bench.chains: the chains it writes and what it writes first (issue 21)."""

from __future__ import annotations

from bench.chains import DEV, HELD_OUT_CHAINS, distractors

from neuromem.recall.chains import chain_shaped, links_to, names


def test_each_link_names_what_the_next_one_speaks_of() -> None:
    for chain in DEV + HELD_OUT_CHAINS:
        assert 2 <= chain.hops <= 3
        for link, following in zip(chain.links, chain.links[1:], strict=False):
            assert links_to(following, set(names(link))), (link, following)
        for old, new in chain.earlier:  # an older value of a link, which the link replaces
            assert new in chain.links and old != new


def test_the_other_facts_are_drawn_the_same_way_each_run() -> None:
    assert distractors(50, 1) == distractors(50, 1) != distractors(50, 2)
    assert len(set(distractors(200, 1))) > 190


def test_the_dev_questions_are_shaped_as_chains() -> None:
    assert all(chain_shaped(c.question) for c in DEV)
