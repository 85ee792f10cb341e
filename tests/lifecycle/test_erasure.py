"""Issue 23 item 4: forgotten words leave the disk — the bytes of the data directory are scanned.

The test runs its own embedded server (neuromem's, as ``memctl`` starts it: ``wal_recycle`` off),
so the scan covers one small data directory that no other test writes to.
"""

from __future__ import annotations

import os
import secrets
import shutil
import string
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from neuromem import ForgetReceipt, Memory
from neuromem.store.server import stop_embedded
from tests.conftest import base_settings


def _canary() -> str:
    """A word no data directory holds by chance: 24 random lowercase letters (one token for jieba)."""
    return "zq" + "".join(secrets.choice(string.ascii_lowercase) for _ in range(22))


def scan(data_dir: Path, needle: str) -> dict[str, int]:
    """Occurrences of ``needle`` (UTF-8) in every file of ``data_dir``, by path relative to it."""
    raw = needle.encode()
    hits: dict[str, int] = {}
    for root, _dirs, files in os.walk(data_dir):
        for name in files:
            path = Path(root) / name
            try:
                n = path.read_bytes().count(raw)
            except OSError:  # a file removed while walking (a WAL segment, a temp file)
                continue
            if n:
                hits[str(path.relative_to(data_dir))] = n
    return hits


def outside_wal(hits: dict[str, int]) -> dict[str, int]:
    return {p: n for p, n in hits.items() if not p.startswith("pg_wal")}


@pytest.fixture(scope="module")
def own_server() -> Iterator[Memory]:
    # outside pytest's basetemp, like conftest.pg_server: its 0700 parents would keep out the server's
    # unprivileged system user when the tests run as root
    parent = Path(tempfile.mkdtemp(prefix="neuromem-erasure-"))
    parent.chmod(0o755)
    data_dir = parent / "pgdata"
    settings = base_settings(store={"data_dir": data_dir, "idle_shutdown_s": 0, "shared_buffers_mb": 32})
    try:
        memory = Memory(settings)
        try:
            yield memory
        finally:
            memory.close()
    finally:
        stop_embedded(data_dir)
        shutil.rmtree(parent, ignore_errors=True)


def _checkpoint(memory: Memory) -> None:
    with psycopg.connect(memory.runtime.db.server.url, autocommit=True) as conn:
        conn.execute("CHECKPOINT")


def test_forget_and_compaction_leave_no_byte_of_the_words(own_server: Memory) -> None:
    m = own_server
    data_dir = Path(m.settings.store.data_dir)
    canary = _canary()
    fact = m.add(f"My locker combination word is {canary}", user_id="alice")[0].memory
    m.ingest(
        [{"role": "user", "content": f"Please remember that my vault password is {canary} now"}],
        user_id="alice",
        session_id="s1",
    )
    m.add("Bob keeps his bicycle in the garage", user_id="bob")
    _checkpoint(m)  # the rows reach their files
    before = outside_wal(scan(data_dir, canary))
    assert before, "the scan must find the words while they are stored"  # a scan that cannot fail is no test

    receipt = m.forget(user_id="alice", query=canary)
    assert isinstance(receipt, ForgetReceipt) and receipt.proves(fact.id) and receipt.erased_at is None
    assert {"memories_fact", "conversation_messages", "raw_chunks"} <= set(receipt.relations)
    _checkpoint(m)
    assert outside_wal(scan(data_dir, canary)), "a DELETE alone leaves the bytes in the files"

    started = time.perf_counter()
    report = m.compact_forgotten()
    took = time.perf_counter() - started
    after = scan(data_dir, canary)
    assert outside_wal(after) == {}, after
    assert after == {}, (
        f"WAL segments still hold the words: {after}"
    )  # wal_recycle = off: removed, not recycled
    assert report.erased == (receipt.id,) and report.wal_retired and not report.skipped
    assert "memories_fact" in report.relations
    stamped = m.forget_receipt(receipt.id, user_id="alice")
    assert stamped.erased_at is not None and stamped.erased_at >= stamped.created_at
    assert [r.content for r in m.get_all(user_id="bob")] == ["Bob keeps his bicycle in the garage"]
    print(f"compaction of {len(report.relations)} relations: {took:.2f} s")


def test_forget_compact_true_returns_an_erased_receipt(own_server: Memory) -> None:
    m = own_server
    canary = _canary()
    stored = m.add(f"The garden gate code is {canary}", user_id="carol")[0].memory
    receipt = m.forget(user_id="carol", memory_id=stored.id, compact=True)
    assert isinstance(receipt, ForgetReceipt) and receipt.erased_at is not None
    assert outside_wal(scan(Path(m.settings.store.data_dir), canary)) == {}
    assert m.compact_forgotten().erased == ()  # nothing left pending


def test_memctl_forget_compact_and_the_job(memory: Memory, memctl) -> None:  # type: ignore[no-untyped-def]
    memory.add("Dana hides the spare key under the blue flowerpot", user_id="dana")
    memory.add("Dana's bike lock code is 3321", user_id="dana")
    out = memctl("forget", "-u", "dana", "--query", "flowerpot", "--compact", "--yes")
    assert out.exit_code == 0, out.output
    assert "physically erased" in out.output and "memories_fact" in out.output
    pending = memory.forget(user_id="dana", query="bike lock")
    assert isinstance(pending, ForgetReceipt) and pending.erased_at is None
    assert memory.run_job("compact_forgotten", dry_run=True) == 1  # one receipt waits
    out = memctl("forget", "-u", "dana", "--compact")
    assert out.exit_code == 0 and "compaction: 1 receipts erased" in out.output, out.output
    assert memory.forget_receipt(pending.id, user_id="dana").erased_at is not None
    assert memory.run_job("compact_forgotten", dry_run=True) == 0
