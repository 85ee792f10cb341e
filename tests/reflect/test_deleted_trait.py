"""A deleted trait stays deleted (issue 27 item 5): reflection does not form it again from the same
evidence; new evidence stored after the deletion brings it back only when it outweighs the old."""

from __future__ import annotations

import datetime as dt
import uuid

from neuromem import Memory
from neuromem.reflect.suppression import matches, outweighs
from neuromem.store import traits as stored_traits
from neuromem.store.suppressions import Suppression

OLD = (
    "I run along the river every morning",
    "I ran along the river before work today",
    "Went running by the river again this morning",
)
NEW = (
    "I run along the river every morning again",
    "Ran along the river this morning",
    "Another morning run along the river",
    "Morning run by the river as usual",
    "I ran by the river early this morning",
)


def _live_traits(memory: Memory, user_id: str, now: dt.datetime) -> dict[uuid.UUID, set[uuid.UUID]]:
    """Each live trait's supporting memories."""
    ids = [t.id for t in memory.traits(user_id=user_id, now=now).all()]
    with memory.runtime.db.connection() as conn:
        evidence = stored_traits.evidence_for(conn, user_id, ids)
    return {
        i: {e.memory_id for e in evidence if e.trait_id == i and e.evidence_type == "supporting"} for i in ids
    }


def _add(memory: Memory, texts: tuple[str, ...], user_id: str) -> set[uuid.UUID]:
    return {r.memory.id for t in texts for r in memory.add(t, user_id=user_id)}


def _held(memory: Memory, user_id: str) -> list[int]:
    with memory.runtime.db.connection() as conn:
        return [c["details"].get("suppressed", 0) for c in stored_traits.cycles(conn, user_id)]


def test_a_deleted_trait_does_not_form_again_from_the_same_evidence(memory: Memory) -> None:
    uid = "del"
    old = _add(memory, OLD, uid)
    now = dt.datetime.now(dt.UTC) + dt.timedelta(hours=1)
    memory.reflect(user_id=uid, now=now)
    [(trait, rejected)] = [(t, ev) for t, ev in _live_traits(memory, uid, now).items() if ev & old]
    assert len(rejected) >= 2
    memory.delete(trait, user_id=uid)

    # two more observations of the theme: with the old ones (no longer explained by a live trait) they
    # made the trait again before issue 27; now the deletion holds, and the cycle says so
    fresh = _add(memory, NEW[:2], uid)
    memory.reflect(user_id=uid, now=now + dt.timedelta(hours=1))
    assert not any(ev & rejected for ev in _live_traits(memory, uid, now + dt.timedelta(hours=1)).values())
    assert sum(_held(memory, uid)) >= 1

    # new evidence after the deletion that outweighs the old (5 > 2 or 3): the theme forms again, from it alone
    fresh |= _add(memory, NEW[2:], uid)
    later = now + dt.timedelta(hours=2)
    memory.reflect(user_id=uid, now=later)
    back = {t: ev for t, ev in _live_traits(memory, uid, later).items() if ev & fresh}
    assert back and trait not in back
    assert all(ev <= fresh for ev in back.values())  # none of the rejected evidence


def test_the_suppression_rule() -> None:
    a, b, c, d, e, f = (uuid.uuid4() for _ in range(6))
    entry = Suppression(
        uuid.uuid4(),
        uuid.uuid4(),
        "runs by the river",
        ("morning", "river"),
        frozenset({a, b}),
        dt.datetime(2026, 1, 1, tzinfo=dt.UTC),
    )
    assert (
        matches(entry, ("morning",), [c])
        and matches(entry, ("work",), [a])
        and not matches(entry, ("work",), [c])
    )
    assert not matches(entry, (), [c])
    assert not outweighs(entry, [c, d])  # two new against two rejected: the deletion holds
    assert not outweighs(entry, [a, b, c])  # the rejected memories never count
    assert outweighs(entry, [c, d, e]) and outweighs(entry, [c, d, e, f])


def test_only_the_users_deletion_suppresses(memory: Memory) -> None:
    uid = "keep"
    _add(memory, OLD, uid)
    memory.reflect(user_id=uid, now=dt.datetime.now(dt.UTC) + dt.timedelta(hours=1))
    fact = memory.add("I keep a diary", user_id=uid)[0].memory.id
    memory.delete(fact, user_id=uid)  # a fact's deletion is no trait's: nothing suppressed
    with memory.runtime.db.connection() as conn:
        row = conn.execute("SELECT count(*) AS n FROM trait_suppressions").fetchone()
    assert row is not None and row["n"] == 0
