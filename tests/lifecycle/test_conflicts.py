"""Conflicts resolved on purpose (seed 003 §7.2–§7.3): the conflict priority decides between
sources of different trust, a close call lands in the review queue, every conflict draws
CONTRADICTS both ways and emits ConflictDetected / FactPromoted / FactDemoted."""

from __future__ import annotations

import psycopg
import pytest

from neuromem import Memory
from neuromem.conflict_priority import Side, attribute_and_value, judge, priority
from neuromem.errors import ConflictNotFoundError, InvalidInputError

U = "alice"


def _say(m: Memory, text: str, session: str, **metadata: object):  # type: ignore[no-untyped-def]
    [result] = m.ingest(
        [{"role": "user", "content": text}], user_id=U, session_id=session, metadata=metadata or None
    ).results
    return result.memory


def _events(db_url: str) -> list[str]:
    with psycopg.connect(db_url) as conn:
        return [
            r[0]
            for r in conn.execute(
                "SELECT kind FROM pipeline_events WHERE user_id = %s ORDER BY created_at", (U,)
            )
        ]


def test_priority_formula_by_hand() -> None:
    from neuromem.config import ConflictSettings

    s = ConflictSettings()
    side = Side(trust=0.8, newer=True, support=2, agreeing=1, others=2)
    expected = 0.5 * 0.8 + 0.3 * 1 + 0.15 * (1 - 2.718281828459045**-1) + 0.05 * 0.5
    assert priority(side, s) == pytest.approx(expected)
    assert judge(Side(0.8, False, 1, 0, 0), Side(0.8, True, 1, 0, 0), s).winner == "new"
    assert (
        judge(Side(1.0, False, 1, 0, 0), Side(0.4, True, 1, 0, 0), s).winner is None
    )  # 0.5·0.6 = 0.3: a tie
    assert attribute_and_value("My favourite colour is blue.") == ("my favourite colour", "blue")
    assert attribute_and_value("我的生日是五月三日") == ("我的生日", "五月三日")
    assert attribute_and_value("I like tea") is None


def test_trusted_old_source_beats_an_untrusted_newer_one(memory: Memory, db_url: str) -> None:
    google = _say(memory, "I work at Google.", "s1", source_trust=1.0)
    microsoft = _say(memory, "I work at Microsoft now.", "s2", source_trust=0.2)
    assert microsoft.invalid_at is not None  # the loser is kept as a version with invalid_at
    assert memory.get(google.id, user_id=U).invalid_at is None
    [c] = memory.conflicts(user_id=U, status="auto")
    s = memory.settings.conflicts
    old = Side(1.0, False, 1, 0, 0)
    new = Side(0.2, True, 1, 0, 0)
    assert (c.row.old_score, c.row.new_score) == pytest.approx((priority(old, s), priority(new, s)), abs=1e-6)
    assert c.row.winner_id == google.id and c.row.attribute == "employer"
    assert sorted(_events(db_url)[-3:]) == ["ConflictDetected", "FactDemoted", "FactPromoted"]
    with psycopg.connect(db_url) as conn:
        edges = {
            (str(r[0]), str(r[1]))
            for r in conn.execute(
                "SELECT source_id, target_id FROM graph_edges WHERE user_id = %s AND edge_type = 'CONTRADICTS'",
                (U,),
            )
        }
    assert {(str(google.id), str(microsoft.id)), (str(microsoft.id), str(google.id))} <= edges
    # same trust: the newer statement wins (recency), and an offline attribute conflict is found too
    _say(memory, "I live in Berlin.", "s3")
    munich = _say(memory, "I moved to Munich.", "s4")
    blue = _say(memory, "My favourite colour is blue.", "s5")
    _say(memory, "My favourite colour is green.", "s6")
    assert memory.get(blue.id, user_id=U).invalid_at is not None
    assert munich.invalid_at is None
    assert {c.row.detector for c in memory.conflicts(user_id=U, status="auto")} == {"slot", "attribute"}
    assert memory.conflicts(user_id=U) == []


def test_close_call_goes_to_review_and_is_resolved(memory: Memory, memctl) -> None:  # type: ignore[no-untyped-def]
    google = _say(memory, "I work at Google.", "s1", source_trust=1.0)
    apple = _say(memory, "I work at Apple.", "s2", source_trust=0.4)
    [c] = memory.conflicts(user_id=U)
    assert c.row.status == "open" and c.row.winner_id is None
    assert memory.get(google.id, user_id=U).invalid_at is None and apple.invalid_at is None
    listed = memctl("conflicts", "list", "-u", U)
    assert listed.exit_code == 0 and str(c.row.id) in listed.output and "I work at Apple." in listed.output
    with pytest.raises(InvalidInputError):
        memory.resolve_conflict(c.row.id, user_id=U, keep="01a209ae-5f82-70ba-a7db-928c05d87882")
    with pytest.raises(ConflictNotFoundError):
        memory.resolve_conflict("01a209ae-5f82-70ba-a7db-928c05d87882", user_id=U, keep=apple.id)
    out = memctl("conflicts", "resolve", "-u", U, str(c.row.id), "--keep", str(apple.id))
    assert out.exit_code == 0 and "resolved" in out.output
    assert memory.get(google.id, user_id=U).invalid_at is not None
    assert memory.get(apple.id, user_id=U).invalid_at is None
    [done] = memory.conflicts(user_id=U, status="resolved")
    assert done.row.winner_id == apple.id and done.row.resolved_by == "memctl"
    assert [e.actor for e in memory.history(google.id, user_id=U)][-1] == "memctl"
    with pytest.raises(InvalidInputError, match="already resolved"):
        memory.resolve_conflict(c.row.id, user_id=U, keep=apple.id)


def test_forgetting_one_side_forgets_the_conflict(memory: Memory, db_url: str) -> None:
    from .traces import find_traces

    _say(memory, "My secret word is plumbago.", "s1")
    newer = _say(memory, "My secret word is quillwort.", "s2")
    [c] = memory.conflicts(user_id=U, status="all")
    memory.forget(user_id=U, memory_id=newer.id)
    assert find_traces(db_url, ["quillwort", newer.id, c.row.id]) == []
    assert memory.conflicts(user_id=U, status="all") == []
