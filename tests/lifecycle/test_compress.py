"""Compression of old, rarely used episodes (seed 004 §2.2 / §4.1): summaries replace them in
recall, originals are archived (never lost, never purged), citations still resolve to the original
words; forgetting an original updates the summary (cascade)."""

from __future__ import annotations

import datetime as dt

import psycopg
import pytest

from neuromem import Memory, Settings

from .traces import find_traces

U = "alice"
OLD = [
    "Yesterday I went hiking with Tom near the lake.",
    "Last weekend we visited the science museum in Boston.",
    "This morning I fixed the bike chain myself.",
]
NOW = dt.datetime(2025, 9, 1, tzinfo=dt.UTC)
KEEP = 30  # characters kept of each episode by the rule summary


@pytest.fixture
def memory(settings: Settings):  # type: ignore[no-untyped-def]
    with Memory(settings.with_updates(lifecycle={"compress_item_chars": KEEP})) as m:
        yield m


def _ingest_old(m: Memory) -> list:  # type: ignore[type-arg]
    turns = [{"role": "user", "content": t, "timestamp": "2025-01-05T10:00:00Z"} for t in OLD]
    report = m.ingest(turns, user_id=U, session_id="old")
    m.ingest(
        [{"role": "user", "content": "Today I baked sourdough bread.", "timestamp": "2025-08-30T10:00:00Z"}],
        user_id=U,
        session_id="new",
    )
    return [r.memory for r in report.results if r.memory.memory_type == "episodic"]


def test_dry_run_then_compress_keeps_originals_and_citations(memory: Memory, db_url: str, memctl) -> None:  # type: ignore[no-untyped-def]
    originals = _ingest_old(memory)
    assert [o.content for o in originals] == OLD
    out = memctl("compress", "-u", U, "--now", NOW.isoformat(), "--dry-run")
    assert out.exit_code == 0 and "would archive 3 episodes into 1 summaries" in out.output
    assert all(memory.get(o.id, user_id=U).expired_at is None for o in originals)
    report = memory.compress(user_id=U, now=NOW)
    [group] = report.groups
    assert report.archived == 3 and report.tokens_after < report.tokens_before
    summary = memory.get(group.summary_id, user_id=U)
    assert sorted(summary.metadata["summary_of"]) == sorted(str(o.id) for o in originals)
    for o in originals:
        archived = memory.get(o.id, user_id=U)
        assert archived.superseded_by == summary.id and archived.content == o.content  # archived, not lost
        assert memory.history(o.id, user_id=U)[-1].actor == "consolidate:compress"
    # recall finds the summary, and its citations resolve to the original words
    in_time_order = [o.content for o in sorted(originals, key=lambda o: o.valid_at)]
    assert [o.content for o in group.originals] == in_time_order
    assert group.summary == "; ".join(
        t[: KEEP - 1].rstrip() + "…" for t in in_time_order
    )  # first sentences, cut
    hits = memory.search("hiking with Tom", user_id=U)
    assert hits[0].memory.id == summary.id
    assert set(memory.sources(summary.id, user_id=U).quotes) == set(OLD)
    # the recent episode is untouched; archived rows are not purged as deleted
    assert memory.run_job("purge_soft_deleted", now=NOW + dt.timedelta(days=400)).receipts == ()
    assert memory.get(originals[0].id, user_id=U).superseded_by == summary.id
    assert memory.compress(user_id=U, now=NOW).groups == ()  # idempotent


def test_forgetting_an_original_updates_the_summary(memory: Memory, db_url: str) -> None:
    originals = _ingest_old(memory)
    [group] = memory.compress(user_id=U, now=NOW).groups
    receipt = memory.forget(user_id=U, memory_id=originals[1].id)
    assert find_traces(db_url, ["science museum", originals[1].id, group.summary_id]) == []
    current = {x.content for x in memory.get_all(user_id=U)}
    assert OLD[0] in current and OLD[2] in current  # the others are current again…
    assert receipt.counts["memories"] >= 2  # the episode, the summary (and what else came from its words)
    [again] = memory.compress(user_id=U, now=NOW).groups  # …and summarised again without it
    assert "museum" not in again.summary and len(again.originals) == 2
    with psycopg.connect(db_url) as conn:
        actors = [
            r[0]
            for r in conn.execute(
                "SELECT actor FROM memory_history WHERE user_id = %s AND memory_id = %s ORDER BY created_at",
                (U, originals[0].id),
            )
        ]
    assert actors == ["ingest:rules", "consolidate:compress", "forget:restore", "consolidate:compress"]


def test_llm_summary_when_configured_rules_when_it_fails(settings: Settings, fake_openai) -> None:  # type: ignore[no-untyped-def]
    import json

    from tests.fakes.openai_server import FakeError

    s = settings.with_updates(llm={"base_url": fake_openai.base_url, "api_key": "k", "max_retries": 0})
    with Memory(s) as m:
        old = dt.datetime(2025, 1, 5, tzinfo=dt.UTC)
        for session in ("a", "b"):
            for text in OLD[:2]:
                m.add(
                    f"{text} ({session})",
                    user_id=U,
                    memory_type="episodic",
                    valid_at=old,
                    metadata={"session_id": session},
                )
        fake_openai.chat_responses.append(
            json.dumps({"bullets": [{"text": "Hiked with Tom; museum in Boston", "sources": [1, 2]}]})
        )
        fake_openai.chat_responses.append(FakeError(500))
        summaries = sorted(g.summary for g in m.compress(user_id=U, now=NOW).groups)
    assert summaries[0].startswith("Hiked with Tom")  # the LLM's bullets for one session…
    assert summaries[1].startswith("Yesterday I went")  # …the rules for the other, after the LLM failed
    assert len(fake_openai.requests_to("/v1/chat/completions")) == 2


def test_without_now_the_runtimes_clock_decides(memory: Memory) -> None:
    from neuromem.lifecycle.compress import compress_user

    written = dt.datetime.now(dt.UTC) - dt.timedelta(days=10)
    turns = [{"role": "user", "content": t, "timestamp": written.isoformat()} for t in OLD]
    memory.ingest(turns, user_id=U, session_id="recent")
    runtime = memory.runtime
    assert compress_user(runtime, U).archived == 0  # 10 days old: under the 90-day line
    runtime.clock = lambda: written + dt.timedelta(days=100)
    assert compress_user(runtime, U, dry_run=True).archived == 3
