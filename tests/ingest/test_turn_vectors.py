"""When a turn gets its vector (issue 14 item 1, ``ingest.turn_vectors``): by default the ingest stores the
turns — searchable by full text at once — and returns, and the backfill thread embeds them right after;
``pending_embeddings`` counts them and ``flush()`` waits for them. ``"inline"`` embeds them in the ingest."""

from __future__ import annotations

import datetime as dt
import json
import time
from pathlib import Path
from typing import Any

import psycopg
import pytest

from neuromem import Memory, Settings
from neuromem.lifecycle.backfill import BackfillWorker
from neuromem.recall.recipes import derive, get_recipe
from neuromem.store.vectors import to_halfvec

T0 = dt.datetime(2024, 5, 3, 18, 0, tzinfo=dt.UTC)
SHARED = "I work at Calamar Robotics."  # the rules keep this sentence whole: memory text == turn text
ONLY_BY_VECTOR = "Reservations confirmed at Zucchinella for Friday."
TURNS: list[dict[str, Any]] = [
    {"role": "user", "content": SHARED, "timestamp": T0},
    {"role": "assistant", "content": ONLY_BY_VECTOR, "timestamp": T0 + dt.timedelta(minutes=1)},
    {"role": "user", "content": "haha ok thanks!", "timestamp": T0 + dt.timedelta(minutes=2)},
]
# shares no word with ONLY_BY_VECTOR (BM25 cannot find it), only character trigrams (the hashing embedder's)
VECTOR_QUERY = "zucchinelli reservation"
VECTOR_TURNS_ONLY = derive(
    get_recipe("hybrid"), use_bm25=False, use_vector=False, use_graph=False, use_traits=False, use_raw=False
)


def _turn_vectors(db_url: str, user_id: str) -> dict[str, bool]:
    """Each stored turn of ``user_id``: has it a vector?"""
    with psycopg.connect(db_url) as conn:
        rows = conn.execute(
            "SELECT content, embedding IS NOT NULL FROM conversation_messages WHERE user_id = %s", (user_id,)
        ).fetchall()
    return dict(rows)


def _pending_after_waiting(m: Memory, user_id: str, seconds: float = 30) -> int:
    """Poll (no flush) until nothing of ``user_id`` waits for a vector or the deadline passes."""
    deadline = time.monotonic() + seconds
    while m.pending_embeddings(user_id=user_id) and time.monotonic() < deadline:
        time.sleep(0.05)
    return m.pending_embeddings(user_id=user_id)


def _found_by_vector(m: Memory, user_id: str) -> bool:
    hits = m.search(VECTOR_QUERY, user_id=user_id, recipe=VECTOR_TURNS_ONLY, limit=5)
    return any(t.content == ONLY_BY_VECTOR and "vector_turns" in h.retrievers for h in hits for t in h.turns)


def test_background_is_the_default(settings: Settings) -> None:
    assert settings.ingest.turn_vectors == "background"


def test_background_turns_wait_for_the_backfill_and_flush_embeds_them(memory: Memory, db_url: str) -> None:
    # an ingest call in flight holds the backfill thread back: the state right after the ingest is observable
    with memory._foreground:
        report = memory.ingest(TURNS, user_id="u1", session_id="s")
        assert report.turns == 3 and any(r.memory.content == SHARED for r in report.results)
        vectors = _turn_vectors(db_url, "u1")
        # the turn whose text is a memory's shares the vector embedded anyway; the others wait
        assert vectors == {SHARED: True, ONLY_BY_VECTOR: False, "haha ok thanks!": False}
        assert memory.pending_embeddings(user_id="u1") == 2
        assert memory.pending_embeddings(user_id="someone-else") == 0
        status = memory.status(user_id="u1")
        assert (status.pending_embeddings, status.pending_turns) == (2, 2)
        # BM25 finds every turn at once; the vector list not yet
        assert any(
            ONLY_BY_VECTOR in [t.content for t in h.turns] for h in memory.search("Zucchinella", user_id="u1")
        )
        assert not _found_by_vector(memory, "u1")
        started = time.monotonic()
        assert memory.flush() == 2  # takes over from the thread, which waits (30 s) for the ingest to end
        assert time.monotonic() - started < 15
        assert memory.pending_embeddings() == 0
    assert all(_turn_vectors(db_url, "u1").values())
    assert _found_by_vector(memory, "u1")
    bm25 = memory.search(VECTOR_QUERY, user_id="u1", recipe=derive(VECTOR_TURNS_ONLY, use_bm25=True))
    assert not any("bm25_turns" in h.retrievers for h in bm25)  # reachable by its vector only


def test_the_backfill_thread_embeds_the_turns_without_a_flush(memory: Memory, db_url: str) -> None:
    memory.ingest(TURNS, user_id="u2", session_id="s")
    assert _pending_after_waiting(memory, "u2") == 0
    assert all(_turn_vectors(db_url, "u2").values())
    assert _found_by_vector(memory, "u2")


def test_inline_embeds_every_turn_before_ingest_returns(settings: Settings, db_url: str) -> None:
    with Memory(settings.with_updates(ingest={"turn_vectors": "inline"})) as m:
        m.ingest(TURNS, user_id="u3", session_id="s")
        assert m._backfill is None  # nothing was left to a backfill thread
        assert all(_turn_vectors(db_url, "u3").values()) and len(_turn_vectors(db_url, "u3")) == 3
        assert m.pending_embeddings() == 0
        assert _found_by_vector(m, "u3")


def test_turns_without_a_vector_of_their_own_are_not_pending(settings: Settings, db_url: str) -> None:
    """Over-long turns (stored as document pieces, embedded inline) and, with ``embed_turns`` off, every
    turn: nothing waits for them, so ``while pending: flush()`` ends."""
    long_turn = ("The harbour cranes lift containers all night. " * 12).strip()
    tight = settings.with_updates(write={"max_content_chars": 200})
    with Memory(tight) as m, m._foreground:
        report = m.ingest([{"role": "user", "content": long_turn}, TURNS[1]], user_id="u4", session_id="s")
        assert len(report.documents) == 1
        assert m.pending_embeddings(user_id="u4") == 1  # the short turn only
        assert m.flush() == 1 and m.pending_embeddings() == 0
    assert _turn_vectors(db_url, "u4") == {long_turn: False, ONLY_BY_VECTOR: True}
    with Memory(settings.with_updates(ingest={"embed_turns": False})) as m, m._foreground:
        m.ingest(TURNS, user_id="u5", session_id="s")
        assert m.pending_embeddings(user_id="u5") == 0 and m.flush() == 0
    assert not any(_turn_vectors(db_url, "u5").values())


def test_prepare_embeds_only_shared_turns_in_background(memory: Memory) -> None:
    prepared = memory._ingest.prepare(TURNS, "u6", "s")
    assert [unit[2] is not None for unit in prepared.turn_index] == [True, False, False]
    shared_row = [d.content for d in prepared.drafts].index(SHARED)  # the memory's vector is the turn's
    assert prepared.turn_index[0][2] == to_halfvec(
        prepared.vectors[shared_row], memory.settings.store.embedding_dim
    )


@pytest.mark.parametrize("wait", [True, False])
def test_memctl_ingest_waits_for_the_turn_vectors(
    memctl, settings: Settings, tmp_path: Path, wait: bool
) -> None:  # type: ignore[no-untyped-def]
    export = tmp_path / "chat.jsonl"
    export.write_text(
        "".join(
            json.dumps({"session_id": "s", **t, "timestamp": t["timestamp"].isoformat()}) + "\n"
            for t in TURNS
        ),
        encoding="utf-8",
    )
    result = memctl("ingest", "-u", "u7", "--no-progress", *([] if wait else ["--no-wait"]), str(export))
    assert result.exit_code == 0, result.output
    assert "3 turns ingested" in result.output
    if wait:
        assert "still to embed" not in result.output
        with Memory(settings) as m:
            assert m.pending_embeddings(user_id="u7") == 0


def test_a_stream_of_ingests_that_never_pauses_still_gets_its_vectors(memory: Memory, db_url: str) -> None:
    """The thread gives way to ingest calls in flight, but at most ``max_defer_s`` per batch."""
    memory._backfill = BackfillWorker(memory.runtime, foreground=memory._foreground, max_defer_s=0.2).start()
    with memory._foreground:  # an ingest call that never ends
        memory.ingest(TURNS, user_id="u8", session_id="s")
        assert _pending_after_waiting(memory, "u8") == 0
    assert all(_turn_vectors(db_url, "u8").values())
