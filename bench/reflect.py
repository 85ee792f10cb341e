"""Benchmark: one offline reflection cycle over 1,000 and 10,000 new memories of one user (issue 5).

Run from the repo root (starts its own embedded PostgreSQL in a temp dir)::

    .venv/bin/python -m bench.reflect            # sizes 1000 and 10000
    .venv/bin/python -m bench.reflect 1000

Memories are synthetic, time-stamped over 60 days, in Chinese and English, from
40 recurring themes plus noise; rows are inserted directly (the write path is
not what is measured) with the 64-d hashing embedder. Target: ≤ 5 s for 1,000.
"""

from __future__ import annotations

import argparse
import datetime as dt
import random
import time
from collections.abc import Sequence

from bench.harness import bench_settings, temporary_server

from neuromem.core import Runtime
from neuromem.embed.hashing import HashingEmbedder
from neuromem.reflect.offline import OfflineDetector
from neuromem.reflect.service import ReflectionService
from neuromem.store.db import Database
from neuromem.store.memories import NewMemory, insert_many
from neuromem.text.tokenize import search_text
from neuromem.types import MemoryType
from neuromem.validation import content_hash

DIM = 64
T0 = dt.datetime(2025, 1, 1, tzinfo=dt.UTC)
_EN = [
    "jogging",
    "chess",
    "baking",
    "guitar",
    "photography",
    "hiking",
    "painting",
    "coding",
    "swimming",
    "reading",
    "gardening",
    "cycling",
    "yoga",
    "cooking",
    "karaoke",
    "fishing",
    "sketching",
    "climbing",
    "podcasts",
    "tennis",
]
_ZH = [
    "跑步",
    "下棋",
    "烘焙",
    "吉他",
    "摄影",
    "徒步",
    "画画",
    "编程",
    "游泳",
    "读书",
    "园艺",
    "骑行",
    "瑜伽",
    "做饭",
    "唱歌",
    "钓鱼",
    "素描",
    "攀岩",
    "播客",
    "网球",
]


def synthetic(n: int, seed: int = 7) -> list[tuple[str, dt.datetime, str]]:
    rng = random.Random(seed)
    out = []
    for i in range(n):
        when = T0 + dt.timedelta(minutes=rng.randrange(60 * 24 * 60))
        session = f"s{rng.randrange(max(1, n // 5))}"
        if rng.random() < 0.5:
            w = rng.choice(_EN)
            text = f"{rng.choice(['Did some', 'Spent the evening on', 'Enjoyed'])} {w} {rng.choice(['today', 'again', 'with friends', 'at work'])} #{i}"
        else:
            w = rng.choice(_ZH)
            text = (
                f"{rng.choice(['今天', '周末', '晚上'])}{rng.choice(['又去', '和朋友', '一个人'])}{w}了 {i}"
            )
        out.append((text, when, session))
    return out


def run(n: int, pg_url: str) -> float:
    settings = bench_settings(pg_url, dim=DIM, traits={"refresh_view_after_reflect": False})
    db = Database.open(settings)
    embedder = HashingEmbedder(dim=DIM)
    runtime = Runtime(settings, db, embedder)
    rows = synthetic(n)
    vectors = embedder.embed_passages([r[0] for r in rows])
    with db.transaction() as conn:
        insert_many(
            conn,
            [
                NewMemory(
                    user_id="bench",
                    memory_type=MemoryType.EPISODIC,
                    content=text,
                    content_hash=content_hash(text),
                    search_tokens=search_text(text),
                    embedding=vectors[k],
                    metadata={"session_id": s},
                    valid_at=when,
                )
                for k, (text, when, s) in enumerate(rows)
            ],
            DIM,
        )
    service = ReflectionService(runtime, OfflineDetector(settings.traits))
    started = time.perf_counter()
    report = service.reflect("bench", T0 + dt.timedelta(days=61))
    elapsed = time.perf_counter() - started
    print(
        f"n={n:>6}  cycle {elapsed:6.2f} s  scanned={report.scanned} created={report.created} "
        f"updated={report.updated} promoted={report.promoted}"
    )
    service.close()
    db.close()
    return elapsed


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "sizes",
        nargs="*",
        type=int,
        default=[1000, 10000],
        help="new memories per cycle (default: 1000 10000)",
    )
    args = parser.parse_args(argv)
    if any(n < 1 for n in args.sizes):
        parser.error("sizes must be positive")
    with temporary_server() as url:
        for n in args.sizes:
            run(n, url)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
