"""The asked person's statements first (issue 21 item 2). Pure.

A statement about another person's thing is no answer about the speaker's, however close its words lie to the
question: asked "Where did I park?", "I parked on level 3, bay 58" comes before "My mum's parked round the back on
level 1"; asked 我老婆用什么记账App？, 我老婆用的是随手记 before 我用的记账App是鲨鱼记账. Whom each is about, the words
tell (``text.whose``). Among the first :data:`~neuromem.recall.truth.SAME_SLOT_TOP` hits, a statement of the user
about someone the query asks of moves up above a statement about someone else ranked just above it, when it is at
most :data:`~neuromem.recall.truth.NEAR_BEST` less close to the query: the first such statement below, with no
statement of the one asked between, so that no pair recall put in time order (``truth.newer_first``, which runs
before) is turned round. A statement whose person the words do not tell (an impersonal one, a "she" standing for
anyone) neither moves nor is moved past."""

from __future__ import annotations

from collections.abc import Sequence

from ..text.whose import about_another, about_the_asked, whose
from ..types import SearchHit
from .truth import (
    NEAR_BEST,
    SAME_SLOT_TOP,
    STATEMENT_TYPES,
    closeness,
    is_outdated,
    moved_up,
    users_words,
    within,
)
from .units import is_turn_only


def _statement(hit: SearchHit) -> bool:
    return users_words(hit.memory) and (hit.memory.memory_type in STATEMENT_TYPES or is_turn_only(hit.memory))


def asked_of_first(hits: Sequence[SearchHit], query: str, top: int = SAME_SLOT_TOP) -> list[SearchHit]:
    """``hits`` with each statement about the one the ``query`` asks of moved above the statements about someone
    else just above it (module docstring); the places keep their scores."""
    out = list(hits)
    if not whose(query):
        return out
    place = 0
    while place < min(top, len(out)):
        if _statement(out[place]) and about_another(out[place].memory.content, query):
            below = next(
                (
                    k
                    for k in range(place + 1, min(top, len(out)))
                    if _statement(out[k]) and about_the_asked(out[k].memory.content, query)
                ),
                None,
            )
            if (
                below is not None
                and not is_outdated(out[below].memory)
                and within(closeness(out), place, below, NEAR_BEST)
            ):
                out = moved_up(out, below, place)
        place += 1
    return out
