"""Every stored turn is recallable (issue 14 item 1): turns of every role are a retrieval unit beside
the memories, a memory and its source turn are one hit, and what extraction drops is still found."""

from __future__ import annotations

import datetime as dt

import psycopg

from neuromem import Memory
from neuromem.recall.recipes import derive, get_recipe

T0 = dt.datetime(2024, 5, 3, 18, 0, tzinfo=dt.UTC)

DROPPED = [
    {"role": "user", "content": "haha ok thanks!", "timestamp": T0},  # small talk
    {
        "role": "user",
        "content": "What time does the pottery workshop start on Saturday?",
        "timestamp": T0 + dt.timedelta(minutes=1),
    },  # a question
    {
        "role": "assistant",
        "content": "I recommend Lupa Osteria on Thompson Street for the anniversary dinner.",
        "timestamp": T0 + dt.timedelta(minutes=2),
    },  # an assistant turn (not mined)
    {
        "role": "user",
        "content": "the weather turned grey over the harbour cranes",
        "timestamp": T0 + dt.timedelta(minutes=3),
    },  # mined, nothing worth keeping
]


def _turn_texts(hits) -> list[str]:  # type: ignore[no-untyped-def]
    return [t.content for h in hits for t in h.turns]


def test_turns_extraction_drops_are_found(memory: Memory) -> None:
    report = memory.ingest(DROPPED, user_id="u1", session_id="s1")
    memory.flush()  # the turn vectors (ingest.turn_vectors="background"): both turn lists take part
    assert report.turns == 4
    assert sum(report.dropped.values()) >= 2  # extraction dropped most of them
    written = {r.memory.content for r in report.results}
    queries = {
        "haha ok thanks!": "haha ok thanks",
        DROPPED[1]["content"]: "pottery workshop Saturday",
        DROPPED[2]["content"]: "which restaurant did you recommend for the anniversary dinner?",
        DROPPED[3]["content"]: "harbour cranes weather",
    }
    for content, query in queries.items():
        hits = memory.search(query, user_id="u1", limit=5)
        assert content in _turn_texts(hits), (query, [h.memory.content for h in hits])
        if content not in written:  # a turn no memory came from is a hit of its own
            hit = next(h for h in hits if content in _turn_texts([h]))
            assert hit.memory.metadata["turn_only"] is True
            assert hit.memory.content == content
            assert hit.retrievers and set(hit.retrievers) <= {"bm25_turns", "vector_turns"}
    assistant = next(
        h
        for h in memory.search("restaurant recommended", user_id="u1", limit=3)
        if h.turns and h.turns[0].role == "assistant"
    )
    assert assistant.turns[0].session_id == "s1" and assistant.turns[0].sent_at == T0 + dt.timedelta(
        minutes=2
    )


def test_memory_and_its_turn_are_one_hit(memory: Memory) -> None:
    text = "I live in Lisbon and I work at Calamar Robotics."
    report = memory.ingest([{"role": "user", "content": text, "timestamp": T0}], user_id="u2", session_id="s")
    assert report.results, "the rules extract memories from this turn"
    hits = memory.search("Calamar Robotics Lisbon", user_id="u2", limit=10)
    top = hits[0]
    assert top.memory.metadata.get("turn_only") is not True  # the memory, not the bare turn
    assert [t.content for t in top.turns] == [text]
    # found by both channels, counted once: no other hit stands for the same turn
    assert {"bm25_turns", "vector_turns"} & set(top.retrievers)
    assert sum(1 for h in hits for t in h.turns if t.content == text) == 1


def test_turn_vectors_are_stored_and_shared(memory: Memory, db_url: str) -> None:
    text = "I adopted a greyhound named Pixel."
    memory.ingest(
        [
            {"role": "user", "content": text, "timestamp": T0},
            {"role": "assistant", "content": "Congratulations on Pixel!", "timestamp": T0},
        ],
        user_id="u3",
        session_id="s",
    )
    memory.flush()  # the assistant turn's vector comes from the backfill (ingest.turn_vectors="background")
    with psycopg.connect(db_url) as conn:
        turns = conn.execute(
            "SELECT content, embedding::text, token_count, search_tokens FROM conversation_messages "
            "WHERE user_id = 'u3' ORDER BY seq"
        ).fetchall()
        same = conn.execute(
            "SELECT embedding::text FROM memories WHERE user_id = 'u3' AND content = %s", (text,)
        ).fetchall()
    assert len(turns) == 2 and all(t[1] is not None and t[2] > 0 and t[3] for t in turns)
    assert "pixel" in turns[1][3]
    if same:  # a memory whose text is its turn's carries the turn's vector
        assert same[0][0] == turns[0][1]


def test_deleted_memory_hides_its_turn_and_filters_exclude_turns(memory: Memory) -> None:
    text = "I live in Lisbon and I work at Calamar Robotics."
    report = memory.ingest(
        [
            {"role": "user", "content": text, "timestamp": T0},
            {"role": "user", "content": "haha ok thanks!", "timestamp": T0},
        ],
        user_id="u4",
        session_id="s",
    )
    for r in report.results:
        memory.delete(r.memory.id, user_id="u4")
    assert text not in _turn_texts(memory.search("Calamar Robotics Lisbon", user_id="u4", limit=10))
    assert memory.search("haha thanks", user_id="u4", memory_types=["fact"], limit=5).hits == ()
    off = derive(get_recipe("hybrid"), use_turns=False)
    assert "haha ok thanks!" not in _turn_texts(memory.search("haha thanks", user_id="u4", recipe=off))
    assert "haha ok thanks!" in _turn_texts(memory.search("haha thanks", user_id="u4"))


def test_turns_stored_without_a_vector_are_backfilled(settings) -> None:  # type: ignore[no-untyped-def]
    """Async mode (or an embedder that was down) stores turns for BM25 only; the backfill gives each
    turn its vector, so the turn channel's vector list finds it too."""
    async_settings = settings.with_updates(embedder={"mode": "async"})
    url = settings.store.database_url.get_secret_value()
    with Memory(async_settings) as m:
        m._backfill.stop()  # type: ignore[union-attr]  # this test drives the backfill itself
        m.ingest(DROPPED, user_id="u5", session_id="s5")
        with psycopg.connect(url) as conn:
            missing = conn.execute(
                "SELECT count(*) FROM conversation_messages WHERE user_id = 'u5' AND embedding IS NULL"
            ).fetchone()
        assert missing == (4,)
        assert m.flush() >= 4  # the memories (if any) and the four turns
        with psycopg.connect(url) as conn:
            missing = conn.execute(
                "SELECT count(*) FROM conversation_messages WHERE user_id = 'u5' AND embedding IS NULL"
            ).fetchone()
        assert missing == (0,)
        hits = m.search("which restaurant did you recommend for the anniversary dinner?", user_id="u5")
        assert any("vector_turns" in h.retrievers and DROPPED[2]["content"] in _turn_texts([h]) for h in hits)
