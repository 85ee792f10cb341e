"""Scopes beyond the user (issue 26 item 2): agent_id / run_id, visibility private / team / public
with a team, enforced by the library's queries and by row-level security in the store."""

from __future__ import annotations

import psycopg
import pytest

from neuromem import ForgetReceipt, Memory
from neuromem.errors import InvalidScopeError
from neuromem.store import scope
from neuromem.store.scope import Scope
from neuromem.store.tenancy import scope_for


def _contents(records: object) -> set[str]:
    return {r.content for r in records}  # type: ignore[attr-defined]


def _seed_alice(memory: Memory) -> None:
    memory.add("Alice drinks green tea every morning", user_id="alice")  # the user's shared memory
    memory.add("The planner books trains before flights", user_id="alice", agent_id="planner")
    memory.add("The coder prefers tabs over spaces", user_id="alice", agent_id="coder")
    memory.add(
        "The coder's style guide is shared with the team",
        user_id="alice",
        agent_id="coder",
        visibility="team",
        team_id="eng",
    )
    memory.add("Run 7 of the planner targets Lisbon", user_id="alice", agent_id="planner", run_id="r7")
    memory.add("Run 8 of the planner targets Oslo", user_id="alice", agent_id="planner", run_id="r8")


def test_writes_carry_their_scope(memory: Memory) -> None:
    [result] = memory.add(
        "The planner books trains before flights",
        user_id="alice",
        agent_id="planner",
        run_id="r1",
        visibility="team",
        team_id="eng",
    )
    record = memory.get(result.memory.id, user_id="alice")
    assert (record.agent_id, record.run_id, record.visibility, record.team_id) == (
        "planner",
        "r1",
        "team",
        "eng",
    )
    plain = memory.add("Alice drinks green tea", user_id="alice")[0].memory
    assert (plain.agent_id, plain.run_id, plain.visibility, plain.team_id) == (None, None, "private", None)
    report = memory.ingest(
        [{"role": "user", "content": "I work at Initech as a data engineer"}],
        user_id="alice",
        session_id="s1",
        agent_id="coder",
        run_id="r2",
    )
    assert report.results and all(
        (r.memory.agent_id, r.memory.run_id) == ("coder", "r2") for r in report.results
    )
    via_add = memory.add(
        [{"role": "user", "content": "I live in Berlin since 2020"}],
        user_id="alice",
        session_id="s2",
        agent_id="coder",
    )
    assert via_add and all(r.memory.agent_id == "coder" for r in via_add)


def test_an_agent_sees_its_own_and_the_users_shared_memories(memory: Memory) -> None:
    _seed_alice(memory)
    everything = _contents(memory.get_all(user_id="alice"))
    assert len(everything) == 6  # no scope: the user's whole memory, as before scopes existed
    planner = _contents(memory.get_all(user_id="alice", agent_id="planner"))
    assert planner == {
        "Alice drinks green tea every morning",
        "The planner books trains before flights",
        "The coder's style guide is shared with the team",  # another agent's, shared beyond it
        "Run 7 of the planner targets Lisbon",
        "Run 8 of the planner targets Oslo",
    }
    run7 = _contents(memory.get_all(user_id="alice", agent_id="planner", run_id="r7"))
    assert "Run 7 of the planner targets Lisbon" in run7 and "Run 8 of the planner targets Oslo" not in run7
    assert (
        "The planner books trains before flights" in run7 and "Alice drinks green tea every morning" in run7
    )
    hits = memory.search("coder prefers tabs spaces", user_id="alice", agent_id="planner", limit=20)
    assert "The coder prefers tabs over spaces" not in _contents(h.memory for h in hits)
    hits = memory.search("coder prefers tabs spaces", user_id="alice", agent_id="coder", limit=20)
    assert "The coder prefers tabs over spaces" in _contents(h.memory for h in hits)
    hits = memory.search("planner targets", user_id="alice", agent_id="planner", run_id="r8", limit=20)
    assert "Run 7 of the planner targets Lisbon" not in _contents(h.memory for h in hits)
    assert "Run 8 of the planner targets Oslo" in _contents(h.memory for h in hits)
    block = memory.recall_prompt("what does the coder prefer, tabs?", user_id="alice", agent_id="planner")
    assert "tabs over spaces" not in block.text


def test_the_same_content_in_two_agents_is_two_memories(memory: Memory) -> None:
    first = memory.add("Prefers concise answers", user_id="alice", agent_id="planner")[0]
    second = memory.add("Prefers concise answers", user_id="alice", agent_id="coder")[0]
    again = memory.add("Prefers concise answers", user_id="alice", agent_id="coder")[0]
    assert first.memory.id != second.memory.id and str(second.operation) == "add"
    assert str(again.operation) == "noop" and again.memory.id == second.memory.id
    assert len(memory.get_all(user_id="alice", agent_id="coder")) == 1


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"agent_id": ""}, "agent_id must not be empty"),
        ({"run_id": "bad run!"}, "run_id"),
        ({"agent_id": 7}, "agent_id must be a string"),
        ({"visibility": "everyone"}, "visibility must be one of"),
        ({"visibility": "team"}, "needs a team_id"),
        ({"team_id": "eng"}, "needs a team_id"),
        ({"visibility": "team", "team_id": "x" * 300}, "team_id is longer"),
    ],
)
def test_bad_scopes_are_typed_errors_and_write_nothing(memory: Memory, kwargs: dict, message: str) -> None:
    with pytest.raises(InvalidScopeError, match=message):
        memory.add("Alice drinks green tea", user_id="alice", **kwargs)
    assert memory.get_all(user_id="alice") == []
    read_kwargs = {k: v for k, v in kwargs.items() if k in ("agent_id", "run_id")}
    if read_kwargs:
        with pytest.raises(InvalidScopeError):
            memory.search("tea", user_id="alice", **read_kwargs)
        with pytest.raises(InvalidScopeError):
            memory.forget(user_id="alice", **read_kwargs)


def test_forgetting_a_scope_erases_it_with_a_receipt(memory: Memory) -> None:
    _seed_alice(memory)
    receipt = memory.forget(user_id="alice", agent_id="planner", run_id="r7")
    assert (
        isinstance(receipt, ForgetReceipt)
        and receipt.target_kind == "scope"
        and receipt.counts["memories"] == 1
    )
    assert "Run 7 of the planner targets Lisbon" not in _contents(memory.get_all(user_id="alice"))
    receipt = memory.forget(user_id="alice", agent_id="coder")
    assert isinstance(receipt, ForgetReceipt) and receipt.counts["memories"] == 2
    left = _contents(memory.get_all(user_id="alice"))
    assert left == {
        "Alice drinks green tea every morning",
        "The planner books trains before flights",
        "Run 8 of the planner targets Oslo",
    }
    with psycopg.connect(memory.runtime.db.server.url) as conn:
        gone = conn.execute("SELECT count(*) FROM memories WHERE agent_id = 'coder'").fetchone()
    assert gone == (0,)  # hard-deleted, every version
    assert memory.forget_receipt(receipt.id, user_id="alice").target_kind == "scope"


def test_team_membership(memory: Memory) -> None:
    assert memory.add_team_member("eng", user_id="bob") is True
    assert memory.add_team_member("eng", user_id="bob") is False
    assert memory.teams(user_id="bob") == ["eng"]
    assert memory.remove_team_member("eng", user_id="bob") is True
    assert memory.teams(user_id="bob") == []
    with pytest.raises(InvalidScopeError):
        memory.add_team_member("bad team!", user_id="bob")


# -- row-level security: deliberately unfiltered queries, as the service role, per scope ----------


def _seen(memory: Memory, who: Scope) -> set[str]:
    with scope.bind(who), memory.runtime.db.transaction() as conn:
        assert conn.execute("SELECT current_user AS u").fetchone()["u"] == scope.SERVICE_ROLE
        return {
            r["content"] for r in conn.execute("SELECT content FROM memories").fetchall()
        }  # no WHERE at all


def test_rls_an_agents_scope_sees_its_own_and_shared_rows(memory: Memory) -> None:
    _seed_alice(memory)
    memory.add("Bob keeps his notes private", user_id="bob")
    memory.add("Bob's coder agent keeps its notes private", user_id="bob", agent_id="coder")
    planner = _seen(memory, Scope("default", "alice", agent_id="planner"))
    assert planner == {
        "Alice drinks green tea every morning",
        "The planner books trains before flights",
        "The coder's style guide is shared with the team",
        "Run 7 of the planner targets Lisbon",
        "Run 8 of the planner targets Oslo",
    }
    run8 = _seen(memory, Scope("default", "alice", agent_id="planner", run_id="r8"))
    assert run8 == planner - {"Run 7 of the planner targets Lisbon"}
    assert len(_seen(memory, Scope("default", "alice"))) == 6  # the user's scope: as before
    # another user's agent of the same name sees none of alice's rows
    assert _seen(memory, Scope("default", "bob", agent_id="coder")) == {
        "Bob keeps his notes private",
        "Bob's coder agent keeps its notes private",
    }


def test_rls_a_team_member_sees_team_rows_never_a_members_private_ones(memory: Memory) -> None:
    _seed_alice(memory)
    memory.add(
        "Carol's team note: the release is on Friday", user_id="carol", visibility="team", team_id="eng"
    )
    memory.add("Carol's private diary entry", user_id="carol")
    memory.add("Dave's note for the ops team", user_id="dave", visibility="team", team_id="ops")
    memory.add("The office wifi password rotates monthly", user_id="dave", visibility="public")
    memory.add_team_member("eng", user_id="bob")
    memory.add_team_member("eng", user_id="carol")
    memory.add("Bob's own note", user_id="bob")
    public = "The office wifi password rotates monthly"
    assert _seen(memory, Scope("default", "bob")) == {
        "Bob's own note",
        "The coder's style guide is shared with the team",
        "Carol's team note: the release is on Friday",
        public,
    }
    # not a member of eng: only the public row of others
    assert _seen(memory, Scope("default", "erin")) == {public}
    # another tenant's member of a team called eng sees nothing of the default tenant
    memory.add_team_member("eng", user_id=scope_for("acme", "bob").user_key)
    assert _seen(memory, scope_for("acme", "bob")) == set()
    # a team member cannot change or delete another member's team rows
    with scope.bind(Scope("default", "bob")), memory.runtime.db.transaction() as conn:
        assert conn.execute("UPDATE memories SET importance = 0.9 WHERE user_id = 'carol'").rowcount == 0
        assert conn.execute("DELETE FROM memories WHERE user_id <> 'bob'").rowcount == 0
    # nor write a row as an agent other than its scope's
    with (
        pytest.raises(Exception, match="row-level security"),
        scope.bind(Scope("default", "alice", agent_id="planner")),
        memory.runtime.db.transaction() as conn,
    ):
        conn.execute("UPDATE memories SET agent_id = 'coder' WHERE agent_id = 'planner' AND run_id IS NULL")


def test_rls_an_agent_setting_without_its_proof_matches_nobody(memory: Memory) -> None:
    _seed_alice(memory)
    memory.add("A public notice", user_id="dave", visibility="public")
    with scope.bind(Scope("default", "alice", agent_id="planner")), memory.runtime.db.transaction() as conn:
        assert (
            conn.execute("SELECT count(*) AS n FROM memories").fetchone()["n"] == 6
        )  # 5 of alice's + public
        # an unsigned change of agent, made as the scope makes its own (SET LOCAL: on a Citus cluster it reaches
        # the workers, where the policies run; a set_config() stays on the coordinator and changes nothing there)
        conn.execute("SET LOCAL neuromem.agent_id = 'coder'")
        assert conn.execute("SELECT count(*) AS n FROM memories").fetchone()["n"] == 0  # not even public rows


def test_a_member_lists_what_others_share_with_it(memory: Memory) -> None:
    _seed_alice(memory)
    memory.add("Dave's notice to everyone", user_id="dave", visibility="public")
    memory.add("Dave's ops note", user_id="dave", visibility="team", team_id="ops")
    memory.add("Dave's private note", user_id="dave")
    memory.add_team_member("eng", user_id="bob")
    memory.add("Bob's own note", user_id="bob", agent_id="helper")
    expected = {
        "Bob's own note",
        "The coder's style guide is shared with the team",
        "Dave's notice to everyone",
    }
    assert _contents(memory.get_all(user_id="bob")) == {"Bob's own note"}  # by default: the user's own only
    assert _contents(memory.get_all(user_id="bob", include_shared=True)) == expected
    with scope.bind(Scope("default", "bob", agent_id="helper")):  # the same through the service role's RLS
        assert _contents(memory.get_all(user_id="bob", agent_id="helper", include_shared=True)) == expected
    other_tenant = scope_for("acme", "bob").user_key
    memory.add_team_member("eng", user_id=other_tenant)
    assert _contents(memory.get_all(user_id=other_tenant, include_shared=True)) == set()
