"""Concurrent writers on one user (issue 12 item 3): ``add`` and ``ingest`` never raise
``VersionConflictError`` on each other and lose no acknowledged write; only a stale ``update`` does."""

from __future__ import annotations

import threading

import psycopg

from neuromem import Memory, Operation

WRITERS = 6
ROUNDS = 5


def test_concurrent_adds_and_ingests_neither_fail_nor_lose_writes(settings) -> None:  # type: ignore[no-untyped-def]
    # two Memory objects, two connection pools: as two processes of one application would be
    with Memory(settings) as first, Memory(settings) as second:
        barrier = threading.Barrier(WRITERS)
        errors: list[BaseException] = []
        tea: list[str] = []  # every acknowledged restatement of the shared fact, by add
        turns: list[str] = []  # and by ingest
        lockers: list[str] = []
        lock = threading.Lock()

        def writer(n: int) -> None:
            m = first if n % 2 else second
            barrier.wait()
            try:
                for r in range(ROUNDS):
                    k = n * ROUNDS + r + 1
                    text = "I like green tea" + "!" * k  # each one restates all the others
                    if r % 2:
                        report = m.ingest(
                            [{"role": "user", "content": text}], user_id="u", session_id=f"s{n}"
                        )
                        assert report.turns == 1 and report.results
                    else:
                        [result] = m.add(text, user_id="u")
                        assert result.operation in (Operation.ADD, Operation.UPDATE)
                    locker = f"Visitor{k}'s locker number is {k * 7}."  # one slot per visitor: distinct facts
                    m.add(locker, user_id="u")
                    with lock:
                        (turns if r % 2 else tea).append(text)
                        lockers.append(locker)
            except BaseException as exc:
                errors.append(exc)

        threads = [threading.Thread(target=writer, args=(n,)) for n in range(WRITERS)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert errors == []
        assert len(tea) + len(turns) == WRITERS * ROUNDS
        current = first.get_all(user_id="u", limit=1000)
        everything = {m.content for m in first.get_all(user_id="u", limit=1000, include_inactive=True)}
        assert set(tea) <= everything  # every acknowledged write is stored, current or as a version
        with psycopg.connect(settings.store.database_url.get_secret_value()) as conn:
            stored_turns = [
                r[0] for r in conn.execute("SELECT content FROM conversation_messages WHERE user_id = 'u'")
            ]
        assert sorted(stored_turns) == sorted(turns)  # every acknowledged turn, once
        assert set(lockers) <= {m.content for m in current}  # distinct facts all stay current
        tea_facts = [m.content for m in current if "green tea" in m.content and m.memory_type.value == "fact"]
        assert len(tea_facts) == 1, tea_facts  # the restatements form one chain


def test_restatements_racing_to_supersede_one_memory_all_succeed(memory: Memory) -> None:
    """Before issue 12 every writer but one raised VersionConflictError here."""
    [base] = memory.add("I'm allergic to penicillin.", user_id="u")
    barrier = threading.Barrier(WRITERS)
    outcomes: list[object] = []

    def restate(n: int) -> None:
        barrier.wait()
        try:
            outcomes.extend(memory.add("I'm allergic to penicillin" + "!" * (n + 1), user_id="u"))
        except BaseException as exc:
            outcomes.append(exc)

    threads = [threading.Thread(target=restate, args=(n,)) for n in range(WRITERS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(getattr(o, "operation", None) is Operation.UPDATE for o in outcomes), outcomes
    [current] = memory.get_all(user_id="u")
    assert current.version == WRITERS + 1  # one chain: base, then each restatement in turn
    assert len(memory.history(base.memory.id, user_id="u")) == 1 + 2 * WRITERS
