"""Benchmark: forgetting latency (issue 16: < 1 s for one memory, < 30 s for a user with 100k memories).

Run from the repo root (starts its own embedded PostgreSQL in a temp dir)::

    PYTHONPATH=. .venv/bin/python -m bench.forget                 # 10,000 and 100,000 memories
    PYTHONPATH=. .venv/bin/python -m bench.forget 20000 --single 10

For each size, one user gets N fact memories written the way ingest writes them: one
conversation message and one raw chunk per memory (the memory cites the chunk in
``raw_refs``, a ``memory_sources`` row links it to its message), 64-d hashing-embedder vectors,
50 memories per session; a second user of 1,000 memories shares the database. Rows are
inserted directly through the store (the write path is not what is measured). Then:

- ``single``: ``Memory.forget(memory_id=…)`` of ``--single`` random memories, one at a time
  (each is its own transaction with its receipt); p50 / p95 / max;
- ``everything``: ``Memory.forget(everything=True)`` of the whole user;
- ``compact`` (issue 23 item 4): ``Memory.compact_forgotten()`` after the single forgets (it rewrites
  ``memories_fact`` with the user's N memories and the neighbour's, its HNSW index rebuilt, and the
  messages, chunks, history and sources tables) and again after ``everything``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import random
import statistics
import time
from collections.abc import Sequence

from bench.harness import bench_settings, temporary_server

from neuromem import Memory
from neuromem.embed.hashing import HashingEmbedder
from neuromem.lifecycle.forget import ForgetReceipt
from neuromem.store import conversations, raw_chunks
from neuromem.store.conversations import NewMessage
from neuromem.store.memories import NewMemory, insert_many
from neuromem.store.raw_chunks import RawChunk, sha256_of
from neuromem.text.tokenize import search_text
from neuromem.types import MemoryType
from neuromem.validation import content_hash

DIM = 64
T0 = dt.datetime(2025, 1, 1, tzinfo=dt.UTC)
_THINGS = [
    "tea",
    "chess",
    "Berlin",
    "a cat",
    "jazz",
    "sushi",
    "tennis",
    "Python",
    "the sea",
    "hiking",
    "Kyoto",
    "bread",
    "violins",
    "rain",
    "maps",
    "cycling",
    "garlic",
    "poetry",
    "tulips",
    "astronomy",
]
_BATCH = 5_000


def load(memory: Memory, user: str, n: int, seed: int) -> list:  # type: ignore[type-arg]
    """N memories with their messages, chunks and sources; returns the memory ids."""
    rng = random.Random(seed)
    embedder = HashingEmbedder(dim=DIM)
    runtime = memory.runtime
    ids = []
    for start in range(0, n, _BATCH):
        texts = [
            f"Note {i}: I like {rng.choice(_THINGS)} and {rng.choice(_THINGS)} ({i})"
            for i in range(start, min(n, start + _BATCH))
        ]
        vectors = embedder.embed_passages(texts)
        with runtime.db.transaction() as conn:
            chunks = [RawChunk(sha256_of(t), t, search_text(t)) for t in texts]
            raw_chunks.put_many(conn, user, chunks)
            sessions = {}
            messages = []
            for k, t in enumerate(texts):
                i = start + k
                key = f"s{i // 50}"
                if key not in sessions:
                    sessions[key] = conversations.lock_session(conn, user, key, T0)[0].id
                messages.append(
                    NewMessage(
                        sessions[key],
                        i % 50,
                        "user",
                        None,
                        t,
                        T0 + dt.timedelta(minutes=i),
                        sha256_of(t),
                        chunks[k].sha256,
                        {},
                        turn_key=sha256_of(f"{key}:{i}"),
                    )
                )
            message_ids = conversations.insert_messages(conn, user, messages)
            rows = insert_many(
                conn,
                [
                    NewMemory(
                        user_id=user,
                        memory_type=MemoryType.FACT,
                        content=t,
                        content_hash=content_hash(t),
                        search_tokens=search_text(t),
                        embedding=vectors[k],
                        valid_at=T0,
                        raw_refs=({"sha256": chunks[k].sha256, "offset": 0, "length": len(t)},),
                    )
                    for k, t in enumerate(texts)
                ],
                DIM,
            )
            conversations.add_sources(
                conn, user, [(r.id, messages[k].session_id, message_ids[k]) for k, r in enumerate(rows)]
            )
        ids.extend(r.id for r in rows)
    return ids


def run(n: int, singles: int, admin_url: str) -> None:
    settings = bench_settings(admin_url, dim=DIM)
    with Memory(settings, embedder=HashingEmbedder(dim=DIM)) as memory:
        started = time.perf_counter()
        ids = load(memory, "bench", n, seed=n)
        load(memory, "neighbour", 1_000, seed=1)
        print(f"n={n:>7}  loaded in {time.perf_counter() - started:6.1f} s")
        picks = random.Random(3).sample(ids, min(singles, len(ids)))
        times = []
        for mid in picks:
            t = time.perf_counter()
            receipt = memory.forget(user_id="bench", memory_id=mid)
            times.append(time.perf_counter() - t)
            assert isinstance(receipt, ForgetReceipt) and receipt.counts["memories"] == 1, receipt.counts
        times.sort()
        p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
        print(
            f"           forget one memory ×{len(times)}: p50 {statistics.median(times) * 1000:7.1f} ms  "
            f"p95 {p95 * 1000:7.1f} ms  max {times[-1] * 1000:7.1f} ms"
        )
        _compact(memory, "after the single forgets")
        t = time.perf_counter()
        receipt = memory.forget(user_id="bench", everything=True)
        elapsed = time.perf_counter() - t
        assert isinstance(receipt, ForgetReceipt)
        print(
            f"           forget everything: {elapsed:6.2f} s  ({receipt.counts.get('memories', 0)} memories, "
            f"{receipt.total} rows)"
        )
        _compact(memory, "after forget everything")
        assert len(memory.get_all(user_id="neighbour", limit=2_000)) == 1_000


def _compact(memory: Memory, when: str) -> None:
    report = memory.compact_forgotten()
    assert report.erased and not report.waiting, report
    print(
        f"           compact {when}: {report.seconds:6.2f} s  ({len(report.erased)} receipts, "
        f"{len(report.relations)} relations, WAL retired: {report.wal_retired})"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "sizes",
        nargs="*",
        type=int,
        default=[10_000, 100_000],
        help="memories of the user (default: 10000 100000)",
    )
    parser.add_argument("--single", type=int, default=20, help="single-memory forgets timed (default 20)")
    args = parser.parse_args(argv)
    if any(n < 1 for n in args.sizes) or args.single < 1:
        parser.error("sizes and --single must be positive")
    with temporary_server() as url:
        for n in args.sizes:
            run(n, args.single, url)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
