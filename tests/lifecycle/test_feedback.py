"""Feedback (seed 003 §9.1): pin keeps a memory in every prompt block; votes move its weight in recall."""

from __future__ import annotations

import pytest

from neuromem import Memory
from neuromem.errors import InvalidInputError, MemoryNotFoundError

U = "alice"


def test_pin_puts_a_memory_in_every_prompt_block(memory: Memory) -> None:
    [parking] = memory.add("My car is parked on level 4, spot 17", user_id=U)
    memory.add("I like green tea in the morning", user_id=U)
    assert (
        "level 4"
        not in memory.recall_prompt("what tea do I like?", user_id=U, token_budget=200, limit=1).text
    )
    pinned = memory.pin(parking.memory.id, user_id=U)
    assert pinned.metadata["pinned"] is True and pinned.version == 2
    block = memory.recall_prompt("what tea do I like?", user_id=U, token_budget=200, limit=1)
    assert "level 4" in block.text
    assert memory.history(parking.memory.id, user_id=U)[-1].actor == "feedback:pin"
    memory.unpin(parking.memory.id, user_id=U)
    assert (
        "level 4"
        not in memory.recall_prompt("what tea do I like?", user_id=U, token_budget=200, limit=1).text
    )


def test_votes_move_the_weight_in_recall(memory: Memory) -> None:
    [a] = memory.add("I play chess on Sundays", user_id=U)
    [b] = memory.add("The chess club meets at the library downtown", user_id=U)

    def score(mid):  # type: ignore[no-untyped-def]
        return next(h.score for h in memory.search("chess", user_id=U) if h.memory.id == mid)

    before_a, before_b = score(a.memory.id), score(b.memory.id)
    up = memory.upvote(a.memory.id, user_id=U)
    down = memory.downvote(b.memory.id, user_id=U)
    step = memory.settings.lifecycle.feedback_step
    assert up.importance == pytest.approx(a.memory.importance + step)
    assert down.importance == pytest.approx(b.memory.importance - step)
    assert up.metadata["feedback"] == {"up": 1} and down.metadata["feedback"] == {"down": 1}
    after_a, after_b = score(a.memory.id), score(b.memory.id)
    assert after_a.importance > before_a.importance and after_a.final > before_a.final
    assert after_b.importance < before_b.importance
    assert [h.memory.id for h in memory.search("chess", user_id=U)][:2] == [a.memory.id, b.memory.id]
    with pytest.raises(InvalidInputError):
        memory.feedback(a.memory.id, user_id=U, kind="love")
    with pytest.raises(MemoryNotFoundError):
        memory.upvote(a.memory.id, user_id="someone-else")
