"""The facade is the validation boundary and the runtime is its one door (issue 25 items 2 and 3).

Every public call that names a user checks the id itself, before anything else is read or
written — also the calls that used to hand the raw id down (``forget``, ``conflicts``,
``sources``, receipts, documents, jobs). ``Memory.runtime`` is the read-only door to the
runtime, whose clock is what the calls read when no ``now`` is given.
"""

from __future__ import annotations

import datetime as dt
import json
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from neuromem import Memory
from neuromem.core import Runtime
from neuromem.errors import InvalidInputError, InvalidUserIdError
from neuromem.lifecycle.forget import reset

BAD_USER = "alice smith"  # a space: a forbidden character
SOME_ID = uuid.UUID(int=7)

CALLS: dict[str, Callable[[Memory, Any], object]] = {
    "add": lambda m, u: m.add("I like tea", user_id=u),
    "add messages": lambda m, u: m.add([{"role": "user", "content": "I like tea"}], user_id=u),
    "ingest": lambda m, u: m.ingest([{"role": "user", "content": "I like tea"}], user_id=u),
    "ingest later": lambda m, u: m.ingest([{"role": "user", "content": "I like tea"}], user_id=u, wait=False),
    "job_status": lambda m, u: m.job_status(SOME_ID, user_id=u),
    "import_chat_export": lambda m, u: m.import_chat_export("/no/such/export.json", user_id=u),
    "end_session": lambda m, u: m.end_session(user_id=u, session_id="s1"),
    "end_idle_sessions": lambda m, u: m.end_idle_sessions(user_id=u),
    "sources": lambda m, u: m.sources(SOME_ID, user_id=u),
    "events": lambda m, u: m.events(user_id=u),
    "related": lambda m, u: m.related(SOME_ID, user_id=u),
    "add_document": lambda m, u: m.add_document("Some text.", user_id=u, file_name="a.txt"),
    "add_document_file": lambda m, u: m.add_document_file("/no/such/file.pdf", user_id=u),
    "document_status": lambda m, u: m.document_status(SOME_ID, user_id=u),
    "list_documents": lambda m, u: m.list_documents(user_id=u),
    "delete_document": lambda m, u: m.delete_document(SOME_ID, user_id=u),
    "search": lambda m, u: m.search("tea", user_id=u),
    "recall_prompt": lambda m, u: m.recall_prompt("tea", user_id=u),
    "get": lambda m, u: m.get(SOME_ID, user_id=u),
    "get_all": lambda m, u: m.get_all(user_id=u),
    "history": lambda m, u: m.history(SOME_ID, user_id=u),
    "update": lambda m, u: m.update(SOME_ID, user_id=u, content="x"),
    "delete": lambda m, u: m.delete(SOME_ID, user_id=u),
    "reset": lambda m, u: m.reset(user_id=u),
    "add_team_member": lambda m, u: m.add_team_member("t1", user_id=u),
    "teams": lambda m, u: m.teams(user_id=u),
    "forget": lambda m, u: m.forget(user_id=u),  # no target either: the user id is checked first
    "forget memory": lambda m, u: m.forget(user_id=u, memory_id=SOME_ID),
    "compact_forgotten": lambda m, u: m.compact_forgotten(user_id=u),
    "forget_receipt": lambda m, u: m.forget_receipt(SOME_ID, user_id=u),
    "forget_receipts": lambda m, u: m.forget_receipts(user_id=u),
    "conflicts": lambda m, u: m.conflicts(user_id=u),
    "resolve_conflict": lambda m, u: m.resolve_conflict(SOME_ID, user_id=u, keep=SOME_ID),
    "pin": lambda m, u: m.pin(SOME_ID, user_id=u),
    "compress": lambda m, u: m.compress(user_id=u),
    "consolidate_concepts": lambda m, u: m.consolidate_concepts(user_id=u),
    "archive": lambda m, u: m.archive(user_id=u),
    "restore": lambda m, u: m.restore(SOME_ID, user_id=u),
    "enforce_retention": lambda m, u: m.enforce_retention(user_id=u),
    "reflect": lambda m, u: m.reflect(user_id=u),
    "maybe_reflect": lambda m, u: m.maybe_reflect(user_id=u),
    "traits": lambda m, u: m.traits(user_id=u),
    "trait": lambda m, u: m.trait(SOME_ID, user_id=u),
    "export": lambda m, u: m.export("/no/such/dir/out.jsonl", user_id=u),
    "sync_markdown": lambda m, u: m.sync_markdown("/no/such/dir", user_id=u),
    "record_procedure": lambda m, u: m.record_procedure("Deploy", ["build", "push"], user_id=u),
    "status": lambda m, u: m.status(user_id=u),
    "pending_embeddings": lambda m, u: m.pending_embeddings(user_id=u),
}


@pytest.mark.parametrize("name", list(CALLS))
def test_every_call_that_names_a_user_checks_the_id_first(memory: Memory, name: str) -> None:
    with pytest.raises(InvalidUserIdError):
        CALLS[name](memory, BAD_USER)
    with pytest.raises(InvalidUserIdError):
        CALLS[name](memory, 42)
    with memory.runtime.db.connection() as conn:  # nothing was written for anyone
        assert conn.execute("SELECT count(*) AS n FROM memories").fetchone()["n"] == 0  # type: ignore[index]
        assert conn.execute("SELECT count(*) AS n FROM ingest_jobs").fetchone()["n"] == 0  # type: ignore[index]


def test_every_public_call_with_a_user_id_is_covered() -> None:
    """A new public call that names a user joins ``CALLS`` (so its check is tested too)."""
    import inspect

    named = {
        n
        for n, f in inspect.getmembers(Memory, inspect.isfunction)
        if not n.startswith("_") and "user_id" in inspect.signature(f).parameters
    }
    covered = {name.split()[0] for name in CALLS}
    assert named - covered <= {"feedback", "upvote", "downvote", "unpin", "remove_team_member"}, (
        named - covered
    )


@pytest.mark.parametrize(
    ("name", "call"),
    [
        ("sources", lambda m: m.sources("not-a-uuid", user_id="ann")),
        ("forget_receipt", lambda m: m.forget_receipt("not-a-uuid", user_id="ann")),
        ("resolve_conflict", lambda m: m.resolve_conflict("not-a-uuid", user_id="ann", keep=SOME_ID)),
        ("resolve_conflict keep", lambda m: m.resolve_conflict(SOME_ID, user_id="ann", keep="nope")),
        ("document_status", lambda m: m.document_status("not-a-uuid", user_id="ann")),
        ("delete_document", lambda m: m.delete_document(3, user_id="ann")),
        ("job_status", lambda m: m.job_status("not-a-uuid", user_id="ann")),
        ("trait", lambda m: m.trait("not-a-uuid", user_id="ann")),
        ("restore", lambda m: m.restore("not-a-uuid", user_id="ann")),
        ("compress now", lambda m: m.compress(user_id="ann", now="yesterday")),
        ("reflect now", lambda m: m.reflect(user_id="ann", now=12)),
        ("archive dry_run", lambda m: m.archive(user_id="ann", dry_run="no")),
        ("forget actor", lambda m: m.forget(user_id="ann", memory_id=SOME_ID, actor="")),
        ("forget_receipts limit", lambda m: m.forget_receipts(user_id="ann", limit=0)),
        ("list_documents limit", lambda m: m.list_documents(user_id="ann", limit=10**6)),
    ],
)
def test_bad_ids_times_and_flags_get_typed_errors_at_the_facade(
    memory: Memory, name: str, call: Callable[[Memory], object]
) -> None:
    with pytest.raises(InvalidInputError):
        call(memory)


def test_runtime_is_the_one_read_only_door(memory: Memory) -> None:
    runtime = memory.runtime
    assert isinstance(runtime, Runtime)
    assert runtime.settings is memory.settings
    assert not hasattr(memory, "_core")
    with pytest.raises(AttributeError):
        memory.runtime = runtime  # type: ignore[misc]


def test_calls_without_now_read_the_runtimes_clock(memory: Memory, tmp_path: Path) -> None:
    memory.ingest(
        [{"role": "user", "content": "I am planning a trip to Kyoto"}], user_id="ann", session_id="s1"
    )
    assert memory.end_idle_sessions(user_id="ann") == []  # the session is fresh on the wall clock
    later = dt.datetime.now(dt.UTC) + dt.timedelta(days=3)
    memory.runtime.clock = lambda: later
    ended = memory.end_idle_sessions(user_id="ann")  # idle for three days on the runtime's clock
    assert [e.session_id for e in ended] == ["s1"]
    memory.export(tmp_path / "ann.jsonl", user_id="ann")
    header = json.loads((tmp_path / "ann.jsonl").read_text("utf-8").splitlines()[0])
    assert header["exported_at"] == later.isoformat()


def test_reset_lives_in_lifecycle_forget(memory: Memory) -> None:
    memory.add("Ann drinks green tea", user_id="ann")
    memory.add("Bo drinks coffee", user_id="bo")
    removed = reset(memory.runtime, "ann")
    assert removed["memories"] == 1
    assert memory.get_all(user_id="ann") == [] and len(memory.get_all(user_id="bo")) == 1
    assert memory.reset(user_id="bo")["memories"] == 1
