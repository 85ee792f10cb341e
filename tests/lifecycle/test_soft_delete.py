"""``delete`` stays a recoverable soft delete, but no recall path returns a deleted row or document
(issue 16: the raw-text fallback used to return the original words), and the purge job hard-deletes
what was soft-deleted past ``lifecycle.soft_delete_retention_days``."""

from __future__ import annotations

import datetime as dt

import pytest

from neuromem import Memory
from neuromem.errors import MemoryNotFoundError

from ..reflect.helpers import by_content, day, say
from .traces import find_traces

U = "alice"
CODE = "zqx-4711"


def _everything_recalled(m: Memory, query: str, **kw: object) -> str:
    hits = m.search(query, user_id=U, limit=20, **kw)  # type: ignore[arg-type]
    return (" ".join(h.memory.content for h in hits) + " " + " ".join(p.text for p in hits.passages)).lower()


def test_no_recall_path_returns_a_soft_deleted_memory(memory: Memory) -> None:
    report = memory.ingest(
        [
            {"role": "user", "content": f"My build fails with error {CODE.upper()} every night."},
            {"role": "user", "content": "I work at Quokkacorp."},
        ],
        user_id=U,
        session_id="s1",
    )
    [target] = [r.memory for r in report.results if CODE in r.memory.content.lower()]
    query = f"what was the original error {CODE.upper()}?"
    before_delete = dt.datetime.now(dt.UTC)
    assert CODE in _everything_recalled(memory, query)  # the raw fallback and BM25 find it while it lives
    assert [p for p in memory.search(query, user_id=U).passages if CODE in p.text.lower()]
    assert memory.sources(target.id, user_id=U).quotes
    memory.delete(target.id, user_id=U)
    assert CODE not in _everything_recalled(memory, query)  # passages of the raw fallback included
    assert CODE not in _everything_recalled(memory, query, as_of=before_delete)  # time travel included
    assert CODE not in memory.recall_prompt(query, user_id=U).text.lower()
    with pytest.raises(MemoryNotFoundError, match="deleted"):
        memory.sources(target.id, user_id=U)
    # recoverable: the row, its history and get_all(include_inactive) still hold it until the purge
    assert memory.get(target.id, user_id=U).expired_at is not None
    assert [e.event for e in memory.history(target.id, user_id=U)] == ["ADD", "DELETE"]


def test_deleted_document_never_recalled(memory: Memory) -> None:
    doc = memory.add_document("Thunderquill launch plan: ship in May.", user_id=U, file_name="t.md")
    assert "thunderquill" in _everything_recalled(memory, "original words about Thunderquill launch")
    memory.delete_document(doc.id, user_id=U)
    assert "thunderquill" not in _everything_recalled(memory, "original words about Thunderquill launch")


def test_trait_evidence_never_shows_a_deleted_memory(memory: Memory) -> None:
    say(memory, U, day(0), ["I went jogging in the park this morning"], session="s1")
    say(memory, U, day(1), ["Another jogging session along the river today"], session="s2")
    say(memory, U, day(2), ["jogging again before breakfast, felt great"], session="s3")
    memory.reflect(user_id=U, now=day(2.5))
    [trait] = by_content(memory, U, "jogging")
    first = memory.trait(trait.id, user_id=U).supporting[0]
    memory.delete(first.memory_id, user_id=U)
    assert first.memory_id not in {e.memory_id for e in memory.trait(trait.id, user_id=U).supporting}
    memory.delete(trait.id, user_id=U)
    with pytest.raises(MemoryNotFoundError):
        memory.trait(trait.id, user_id=U)
    assert by_content(memory, U, "jogging") == []


def test_purge_job_hard_deletes_after_the_retention(memory: Memory, db_url: str) -> None:
    report = memory.ingest(
        [
            {"role": "user", "content": "I am allergic to zanzibarnuts."},
            {"role": "user", "content": "I work at Quokkacorp."},
        ],
        user_id=U,
        session_id="s1",
    )
    [target] = [r.memory for r in report.results if "zanzibarnuts" in r.memory.content]
    [kept] = [r.memory for r in report.results if "Quokkacorp" in r.memory.content]
    memory.delete(target.id, user_id=U)
    now = dt.datetime.now(dt.UTC)
    days = memory.settings.lifecycle.soft_delete_retention_days
    early = memory.run_job("purge_soft_deleted", now=now + dt.timedelta(days=days - 1))
    assert early.receipts == () and memory.get(target.id, user_id=U)
    done = memory.run_job("purge_soft_deleted", now=now + dt.timedelta(days=days + 1))
    [receipt] = done.receipts
    assert receipt.target_kind == "purge" and receipt.actor == "job:purge" and done.memories == 1
    assert receipt.proves(target.id)
    assert find_traces(db_url, ["zanzibarnuts", target.id]) == []
    with pytest.raises(MemoryNotFoundError):
        memory.get(target.id, user_id=U)
    # what the live memory stands on stays: its message, its words
    assert memory.sources(kept.id, user_id=U).quotes == ("I work at Quokkacorp.",)
    assert memory.run_job("purge_soft_deleted", now=now + dt.timedelta(days=days + 2)).receipts == ()
