"""Searching what other users share (issue 26 item 2): ``search`` / ``recall_prompt`` with
``include_shared=True`` find the team memories of the user's teams and public ones, never another
member's private ones — in process, and as the service role under row-level security, where a
deliberately unfiltered query still sees no private row of another user."""

from __future__ import annotations

import pytest
from psycopg import sql

from neuromem import InvalidInputError, Memory
from neuromem.store import scope
from neuromem.store.memories import M_MEMORY_COLUMNS
from neuromem.store.scope import Scope
from neuromem.store.shared import SHARED_CANDIDATES

TEAM = "Carol's team note: the release train leaves on Friday"
PRIVATE = "Carol's private note: the release train on Friday worries me"
OTHER_TEAM = "Dave's ops note: the release train freeze starts Friday"
PUBLIC = "Public notice: the release train party is on Friday"
OWN = "Bob's own note: pack the release train slides"


def _seed(memory: Memory) -> None:
    memory.add(TEAM, user_id="carol", visibility="team", team_id="eng")
    memory.add(PRIVATE, user_id="carol")
    memory.add(OTHER_TEAM, user_id="dave", visibility="team", team_id="ops")
    memory.add(PUBLIC, user_id="dave", visibility="public")
    memory.add(OWN, user_id="bob", agent_id="helper")
    memory.add_team_member("eng", user_id="bob")
    memory.add_team_member("eng", user_id="carol")


def _found(results: object) -> set[str]:
    return {h.memory.content for h in results}  # type: ignore[attr-defined]


def test_a_member_searches_what_its_teams_and_everyone_share(memory: Memory) -> None:
    _seed(memory)
    query = "release train Friday"
    assert _found(memory.search(query, user_id="bob", limit=20)) == {OWN}  # by default: the user's own
    found = memory.search(query, user_id="bob", limit=20, include_shared=True)
    assert _found(found) == {OWN, TEAM, PUBLIC}
    shared = [h for h in found if h.memory.user_id != "bob"]
    assert all(h.score.extra["shared"] == 1.0 and h.score.final > 0 for h in shared)
    assert {h.memory.user_id for h in shared} == {"carol", "dave"}
    # as one of bob's agents: its own memories, the user's shared ones, and what others share
    assert _found(memory.search(query, user_id="bob", agent_id="helper", limit=20, include_shared=True)) == {
        OWN,
        TEAM,
        PUBLIC,
    }
    # not a member of eng: only the public row of others
    assert _found(memory.search(query, user_id="erin", limit=20, include_shared=True)) == {PUBLIC}
    block = memory.recall_prompt("when does the release train leave?", user_id="bob", include_shared=True)
    assert "Carol's team note" in block.text and "private note" not in block.text
    assert (
        "Carol's team note"
        not in memory.recall_prompt("when does the release train leave?", user_id="bob").text
    )
    with pytest.raises(InvalidInputError):
        memory.search(query, user_id="bob", include_shared="yes")  # type: ignore[arg-type]


def test_under_rls_the_same_and_an_unfiltered_query_sees_no_private_row(memory: Memory) -> None:
    _seed(memory)
    with scope.bind(Scope("default", "bob")):  # as the service role, scoped to bob
        found = memory.search("release train Friday", user_id="bob", limit=20, include_shared=True)
        assert _found(found) == {OWN, TEAM, PUBLIC}
    everything = SHARED_CANDIDATES.format(
        shared=sql.SQL("true"), scope=sql.SQL("true"), columns=M_MEMORY_COLUMNS
    )
    params = {"types": ["fact"], "k": 100, "tsq": "'release' | 'train'", "v": None}
    with (
        scope.bind(Scope("default", "bob")),
        memory.runtime.db.transaction() as conn,
    ):  # no user predicate at all
        assert {r["content"] for r in conn.execute(everything, params).fetchall()} == {OWN, TEAM, PUBLIC}
    with scope.bind(Scope("default", "erin")), memory.runtime.db.transaction() as conn:
        assert {r["content"] for r in conn.execute(everything, params).fetchall()} == {PUBLIC}
    # the owner (no RLS) sees every row with that query: the library's predicate is what keeps them out
    with memory.runtime.db.transaction() as conn:
        assert PRIVATE in {r["content"] for r in conn.execute(everything, params).fetchall()}
