"""Forgetting with a receipt (seed 003 §24), modelled on MEME's deletion tasks: after each kind
of forget a scan of every table of the catalog and of the chunk directory finds neither the
words nor the ids; search, the prompt block, traits, sources and history never return them."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from neuromem import Memory, Settings
from neuromem.errors import (
    DocumentNotFoundError,
    ForgetTargetError,
    MemoryNotFoundError,
    ReceiptNotFoundError,
    SessionNotFoundError,
)
from neuromem.lifecycle.forget import ForgetPreview, ForgetReceipt, unreinforce
from neuromem.types import sha256_text

from ..reflect.helpers import by_content, day, say
from .traces import chunk_files, find_traces

U = "alice"
OTHER = "bob"


@pytest.fixture
def chunk_dir(tmp_path: Path) -> Path:
    return tmp_path / "raw"


@pytest.fixture
def mem(settings: Settings, chunk_dir: Path) -> Iterator[Memory]:
    with Memory(settings.with_updates(ingest={"raw_chunk_dir": str(chunk_dir)})) as m:
        yield m


def _turns(*texts: str, start: dt.datetime | None = None) -> list[dict[str, str]]:
    base = start or dt.datetime(2026, 1, 5, 9, tzinfo=dt.UTC)
    return [
        {"role": "user", "content": t, "timestamp": (base + dt.timedelta(minutes=i)).isoformat()}
        for i, t in enumerate(texts)
    ]


def _message_ids(db_url: str, user: str) -> set[str]:
    with psycopg.connect(db_url) as conn:
        return {
            str(r[0])
            for r in conn.execute("SELECT id FROM conversation_messages WHERE user_id = %s", (user,))
        }


def _assert_unrecallable(m: Memory, words: list[str], query: str) -> None:
    hits = m.search(query, user_id=U, limit=20)
    text = " ".join(h.memory.content for h in hits).lower() + " ".join(p.text for p in hits.passages).lower()
    block = m.recall_prompt(query, user_id=U).text.lower()
    for w in words:
        assert w.lower() not in text and w.lower() not in block, (w, text, block)


def _receipt_is_clean(db_url: str, receipt: ForgetReceipt, words: list[str]) -> None:
    with psycopg.connect(db_url) as conn:
        (row,) = conn.execute("SELECT r::text FROM forget_receipts r WHERE id = %s", (receipt.id,)).fetchone()
    assert not [w for w in words if w.lower() in row.lower()]


def test_exactly_one_target_or_a_typed_error(mem: Memory, db_url: str) -> None:
    mem.add("I keep bees", user_id=U)
    with pytest.raises(ForgetTargetError, match="exactly one target"):
        mem.forget(user_id=U)
    with pytest.raises(ForgetTargetError, match="several targets"):
        mem.forget(user_id=U, query="bees", session_id="s1")
    with pytest.raises(ForgetTargetError):
        mem.forget(user_id=U, since="2026-02-01", until="2026-01-01")
    with pytest.raises(ForgetTargetError):
        mem.forget(user_id=U, query="   ")
    with pytest.raises(MemoryNotFoundError):
        mem.forget(user_id=U, memory_id="01a209ae-5f82-70ba-a7db-928c05d87882")
    with pytest.raises(SessionNotFoundError):
        mem.forget(user_id=U, session_id="nope")
    with pytest.raises(DocumentNotFoundError):
        mem.forget(user_id=U, document_id="01a209ae-5f82-70ba-a7db-928c05d87882")
    with pytest.raises(ReceiptNotFoundError):
        mem.forget_receipt("01a209ae-5f82-70ba-a7db-928c05d87882", user_id=U)
    assert mem.forget_receipts(user_id=U) == []
    assert [x.content for x in mem.get_all(user_id=U)] == ["I keep bees"]


def test_forget_one_memory_every_version_every_trace(mem: Memory, db_url: str, chunk_dir: Path) -> None:
    report = mem.ingest(
        _turns("I am allergic to zanzibarnuts since childhood.", "I work at Quokkacorp now."),
        user_id=U,
        session_id="s1",
    )
    mem.ingest(_turns("I keep bees in my garden."), user_id=OTHER, session_id="s1")
    [target] = [r.memory for r in report.results if "zanzibarnuts" in r.memory.content]
    v2 = mem.update(target.id, user_id=U, content="I am severely allergic to zanzibarnuts.")
    messages_before = _message_ids(db_url, U)
    files_before = len(chunk_files(chunk_dir))
    receipt = mem.forget(user_id=U, memory_id=v2.id)
    assert isinstance(receipt, ForgetReceipt)
    assert receipt.counts["memories"] == 2 and receipt.counts["conversation_messages"] == 1
    assert receipt.counts["raw_chunks"] == 1 and receipt.files_removed == 1
    assert len(chunk_files(chunk_dir)) == files_before - 1
    gone_messages = messages_before - _message_ids(db_url, U)
    assert len(gone_messages) == 1
    ids = [target.id, v2.id, *gone_messages]
    words = ["zanzibarnuts"]
    assert find_traces(db_url, [*words, *ids], chunk_dir) == []
    assert receipt.proves(target.id) and receipt.proves(v2.id) and not receipt.proves("something else")
    assert sha256_text("I am severely allergic to zanzibarnuts.") in receipt.content_sha256
    _receipt_is_clean(db_url, receipt, [*words, *map(str, ids)])
    _assert_unrecallable(mem, words, "what am I allergic to? zanzibarnuts")
    for gone in (target.id, v2.id):
        with pytest.raises(MemoryNotFoundError):
            mem.history(gone, user_id=U)
        with pytest.raises(MemoryNotFoundError):
            mem.sources(gone, user_id=U)
    # the rest stays, with its sources; the other user is untouched; the receipt can be read back
    [kept] = [x for x in mem.get_all(user_id=U) if "Quokkacorp" in x.content]
    assert mem.sources(kept.id, user_id=U).quotes == ("I work at Quokkacorp now.",)
    assert [x.content for x in mem.get_all(user_id=OTHER)] == ["I keep bees in my garden."]
    fetched = mem.forget_receipt(receipt.id, user_id=U)
    assert (fetched.digest, fetched.id_sha256, fetched.actor) == (receipt.digest, receipt.id_sha256, "user")
    [listed] = mem.forget_receipts(user_id=U)
    assert listed.id == receipt.id and listed.digest == receipt.digest and listed.counts == receipt.counts
    with psycopg.connect(db_url) as conn:
        tombs = conn.execute(
            "SELECT old_content, new_content, memory_id FROM memory_history WHERE user_id = %s AND event = 'FORGET'",
            (U,),
        ).fetchall()
    assert tombs == [(None, None, receipt.id), (None, None, receipt.id)]


def test_forget_session_and_window(mem: Memory, db_url: str, chunk_dir: Path) -> None:
    jan = dt.datetime(2026, 1, 10, 8, tzinfo=dt.UTC)
    mar = dt.datetime(2026, 3, 10, 8, tzinfo=dt.UTC)
    mem.ingest(_turns("My locker code word is xylophonic.", start=jan), user_id=U, session_id="jan")
    mem.ingest(
        _turns("I adopted a cat named Brambleworth.", start=jan + dt.timedelta(days=1)),
        user_id=U,
        session_id="jan2",
    )
    mem.ingest(_turns("I enjoy sailing on the lake.", start=mar), user_id=U, session_id="mar")
    with psycopg.connect(db_url) as conn:
        sessions = {
            r[0]: str(r[1])
            for r in conn.execute(
                "SELECT external_id, id FROM conversation_sessions WHERE user_id = %s", (U,)
            )
        }
    receipt = mem.forget(user_id=U, session_id="jan")
    assert isinstance(receipt, ForgetReceipt) and receipt.counts["conversation_sessions"] == 1
    assert find_traces(db_url, ["xylophonic", sessions["jan"]], chunk_dir) == []
    _assert_unrecallable(mem, ["xylophonic"], "what is my locker code word xylophonic")
    # a time window: everything said in January (by the turns' time) goes
    receipt = mem.forget(user_id=U, since="2026-01-01", until="2026-02-01")
    assert isinstance(receipt, ForgetReceipt) and receipt.counts["conversation_messages"] == 1
    assert find_traces(db_url, ["brambleworth", sessions["jan2"]], chunk_dir) == []
    assert [x.content for x in mem.get_all(user_id=U)] == ["I enjoy sailing on the lake."]


def test_forget_document(mem: Memory, db_url: str, chunk_dir: Path) -> None:
    doc = mem.add_document(
        "Project Thunderquill budget.\n\nThe Thunderquill launch is in May.",
        user_id=U,
        file_name="thunderquill.md",
    )
    keep = mem.add_document("Garden notes: tomatoes need sun.", user_id=U, file_name="garden.md")
    assert mem.search("Thunderquill launch", user_id=U).hits
    receipt = mem.forget(user_id=U, document_id=doc.id)
    assert isinstance(receipt, ForgetReceipt) and receipt.counts["document_files"] == 1
    assert find_traces(db_url, ["thunderquill", doc.id], chunk_dir) == []
    _assert_unrecallable(mem, ["thunderquill"], "Thunderquill launch budget")
    assert [d.id for d in mem.list_documents(user_id=U)] == [keep.id]


def test_topic_dry_run_previews_then_forgets_every_mention(mem: Memory, db_url: str, chunk_dir: Path) -> None:
    mem.ingest(
        [
            {"role": "user", "content": "My secret recipe uses glorbleberries."},
            {"role": "assistant", "content": "Glorbleberries sound delicious!"},
            {"role": "user", "content": "I also like plain oatmeal."},
        ],
        user_id=U,
        session_id="s1",
    )
    mem.add("Buy glorbleberries on Friday", user_id=U)
    before = find_traces(db_url, ["glorbleberries"], chunk_dir)
    preview = mem.forget(user_id=U, query="glorbleberries", dry_run=True)
    assert isinstance(preview, ForgetPreview)
    assert {p.content for p in preview.memories} == {
        "My secret recipe uses glorbleberries.",
        "Buy glorbleberries on Friday",
    }
    assert preview.counts["messages"] == 2 and preview.counts["raw_chunks"] == 2
    assert find_traces(db_url, ["glorbleberries"], chunk_dir) == before  # nothing deleted
    assert mem.forget_receipts(user_id=U) == []
    receipt = mem.forget(user_id=U, query="glorbleberries")
    assert isinstance(receipt, ForgetReceipt)
    assert find_traces(db_url, ["glorbleberries"], chunk_dir) == []
    assert [x.content for x in mem.get_all(user_id=U)] == ["I also like plain oatmeal."]


def test_forget_entity(mem: Memory, db_url: str, chunk_dir: Path) -> None:
    mem.ingest(_turns("I work at Quokkacorp.", "I live in Berlin."), user_id=U, session_id="s1")
    receipt = mem.forget(user_id=U, entity="Quokkacorp")
    assert isinstance(receipt, ForgetReceipt) and receipt.counts.get("graph_nodes", 0) >= 1
    assert find_traces(db_url, ["quokkacorp"], chunk_dir) == []
    assert [x.content for x in mem.get_all(user_id=U)] == ["I live in Berlin."]


def test_forget_everything_and_reset_remove_every_row_and_file(
    mem: Memory, db_url: str, chunk_dir: Path
) -> None:
    mem.ingest(_turns("I am allergic to zanzibarnuts.", "I work at Quokkacorp."), user_id=U, session_id="s1")
    mem.add_document("Thunderquill notes.", user_id=U, file_name="t.md")
    mem.ingest(_turns("I keep bees in my garden."), user_id=OTHER, session_id="s1")
    preview = mem.forget(user_id=U, everything=True, dry_run=True)
    assert isinstance(preview, ForgetPreview) and preview.counts["memories"] == 3
    receipt = mem.forget(user_id=U, everything=True)
    assert isinstance(receipt, ForgetReceipt) and receipt.counts["memories"] == 3
    with psycopg.connect(db_url) as conn:
        tables = [
            r[0]
            for r in conn.execute(
                """SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
               JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'user_id'
               WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p')"""
            )
        ]
        left = {
            t: conn.execute(f'SELECT count(*) FROM "{t}" WHERE user_id = %s', (U,)).fetchone()[0]
            for t in tables
        }
    assert {t: n for t, n in left.items() if n} == {"forget_receipts": 1}
    assert find_traces(db_url, ["zanzibarnuts", "quokkacorp", "thunderquill"], chunk_dir) == []
    assert [x.content for x in mem.get_all(user_id=OTHER)] == ["I keep bees in my garden."]
    # reset removes the chunk files too
    assert chunk_files(chunk_dir)
    mem.reset(user_id=OTHER)
    assert chunk_files(chunk_dir) == []


def test_cascade_trait_recomputed_then_dissolved(mem: Memory, db_url: str) -> None:
    say(mem, U, day(0), ["I went jogging in the park this morning"], session="s1")
    say(mem, U, day(1), ["Another jogging session along the river today"], session="s2")
    say(mem, U, day(2), ["jogging again before breakfast, felt great"], session="s3")
    say(mem, U, day(3), ["I always go jogging when I can"], session="s4")
    mem.reflect(user_id=U, now=day(2.5))
    mem.reflect(user_id=U, now=day(3.5))
    [trait] = by_content(mem, U, "jogging")
    detail = mem.trait(trait.id, user_id=U)
    assert len(detail.supporting) == 4
    last = detail.supporting[-1]
    receipt = mem.forget(user_id=U, memory_id=last.memory_id)
    assert isinstance(receipt, ForgetReceipt) and receipt.traits_recomputed == 1
    [after] = by_content(mem, U, "jogging")
    expected = unreinforce(trait.trait_confidence, last.quality, mem.settings.traits)
    assert (
        after.trait_confidence == pytest.approx(expected, abs=1e-6)
        and after.trait_confidence < trait.trait_confidence
    )
    assert after.trait_reinforcement_count == trait.trait_reinforcement_count - 1
    assert len(mem.trait(trait.id, user_id=U).supporting) == 3
    # forgetting the rest of the evidence dissolves the trait: it is gone everywhere
    for e in mem.trait(trait.id, user_id=U).supporting:
        mem.forget(user_id=U, memory_id=e.memory_id)
    assert by_content(mem, U, "jogging") == []
    assert find_traces(db_url, ["jogging", trait.id]) == []
    assert "jogging" not in mem.recall_prompt("do I like jogging?", user_id=U).text.lower()


def test_absence_a_question_about_a_forgotten_fact_is_answered_from_nothing(mem: Memory) -> None:
    report = mem.ingest(
        _turns("My passport number is stored under the word quintessor."), user_id=U, session_id="s1"
    )
    mem.add("I prefer tea over coffee", user_id=U, category="preference")
    [fact] = [r.memory for r in report.results]
    mem.forget(user_id=U, memory_id=fact.id)
    hits = mem.search("quintessor passport", user_id=U, limit=10)
    assert all("quintessor" not in h.memory.content for h in hits)
    assert not [p for p in hits.passages if "quintessor" in p.text]
    assert (
        "quintessor" not in mem.recall_prompt("what is the word for my passport? quintessor", user_id=U).text
    )


def test_memctl_forget_dry_run_then_receipt(memory: Memory, memctl, db_url: str) -> None:  # type: ignore[no-untyped-def]
    [written] = memory.add("I am allergic to zanzibarnuts", user_id=U)
    out = memctl("forget", "-u", U, "--query", "zanzibarnuts", "--dry-run")
    assert out.exit_code == 0 and "nothing deleted" in out.output and str(written.memory.id) in out.output
    bad = memctl("forget", "-u", U, "--query", "x", "--everything", "--yes")
    assert bad.exit_code == 2 and "ForgetTargetError" in bad.output
    out = memctl("forget", "-u", U, "--memory", str(written.memory.id), "--yes")
    assert out.exit_code == 0 and "memories 1" in out.output and "by memctl" in out.output
    assert find_traces(db_url, ["zanzibarnuts", written.memory.id]) == []
    listed = memctl("receipts", "-u", U)
    assert listed.exit_code == 0 and listed.output.startswith("receipt ")
