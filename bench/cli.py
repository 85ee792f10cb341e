"""Command-line latency (issue 12 item 10, issue 22 item 2): wall time of whole ``memctl`` processes.

Three situations, each over ``--runs`` runs (p50/p95 in milliseconds of wall time, and of the
command's own CPU time, which a busy machine does not inflate):

- ``first``: no server running — the command starts the embedded PostgreSQL
  (``memctl server stop`` between runs, not timed);
- ``cold``: the embedded server is up (it outlives a command for ``store.idle_shutdown_s``),
  no service runs (``service.auto_start`` off, so none is left behind between runs) — the
  command imports, connects and, for ``search`` and ``add``, loads the model;
- ``warm``: a neuromem service runs — the one the first command leaves behind
  (``service.auto_start``) when this neuromem does that, else ``memctl serve``, else the
  minimal service below, which answers the same ``/v1/search`` contract from a warm ``Memory``
  — a command is one HTTP round trip.

The store is a throw-away embedded data directory with a few dozen memories of one user, the
default embedder (bundled multilingual-e5-small). Targets (issue 22): search ≤ 1.5 s cold; add
≤ 2 s cold and ≤ 300 ms warm.

    PYTHONPATH=. python -m bench.cli --runs 10
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import secrets
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from bench.latency import percentiles

USER = "bench-cli"
FACTS = [
    "我对花生过敏",
    "My sister Mei is a nurse in Vancouver",
    "I prefer green tea in the morning",
    "周末我喜欢去西湖边散步",
    "I am learning to sail on Lake Geneva",
    "我在字节跳动上班，住在杭州",
    "The dentist appointment is on Friday",
    "I keep my bike in the garage",
    "我不喜欢咖啡",
    "My daughter plays the cello",
    "I run five kilometres every Tuesday",
    "我最喜欢的电影是《千与千寻》",
]
QUERY = "what is the user allergic to"


def memctl(*args: str) -> list[str]:
    return [sys.executable, "-m", "neuromem.cli.main", *args]


def add(tag: str) -> list[str]:
    """``memctl add`` of a new memory (a different one each run: never a NOOP)."""
    return memctl("add", "-u", USER, f"I had jasmine tea at four in the afternoon ({tag})")


CPU_MS: dict[str, list[float]] = {}  # the command process's own CPU time (user + system), per label


def timed(cmd: list[str], env: dict[str, str], label: str = "") -> float:
    """Wall time of one command in ms; its CPU time goes to ``CPU_MS[label]`` (on a busy machine
    the wall time mostly measures the queue for a core, the CPU time what the command costs)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=300)
    elapsed = (time.perf_counter() - started) * 1000
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{done.stdout}\n{done.stderr}")
    if label:
        cpu = (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000
        CPU_MS.setdefault(label, []).append(cpu)
    return elapsed


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_service(
    env: dict[str, str], data_dir: Path
) -> tuple[subprocess.Popen[bytes] | None, dict[str, str], str]:
    """A running service and the environment that makes ``memctl`` use it: the one a command leaves
    behind, or ``memctl serve`` (found by the CLI through the ``serve.json`` it writes) when this
    neuromem has it and it comes up, else the minimal service of this module (``NEUROMEM_SERVE_URL``)."""
    from neuromem.cli.remote import Remote, find_remote

    auto = {**env, "NEUROMEM_SERVICE__AUTO_START": "true"}
    if subprocess.run(memctl("list", "-u", USER), env=auto, capture_output=True).returncode == 0:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if find_remote(data_dir, external_database=False, environ={}) is not None:
                return None, auto, "left behind by the first command (memctl serve --auto)"
            time.sleep(0.5)
    if subprocess.run(memctl("serve", "--help"), env=env, capture_output=True).returncode == 0:
        proc = subprocess.Popen(
            memctl("serve"), env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        deadline = time.monotonic() + 120
        while proc.poll() is None and time.monotonic() < deadline:
            if find_remote(data_dir, external_database=False, environ={}) is not None:
                return proc, env, "memctl serve"
            time.sleep(0.5)
        proc.terminate()
        proc.wait(30)
    port, token = free_port(), secrets.token_hex(8)
    proc = subprocess.Popen(
        [sys.executable, "-m", "bench.cli", "--serve", str(port), token],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while not Remote(url).healthy():
        if proc.poll() is not None or time.monotonic() > deadline:
            raise SystemExit("the minimal service did not start")
        time.sleep(0.2)
    return proc, {**env, "NEUROMEM_SERVE_URL": url, "NEUROMEM_API_KEY": token}, "bench.cli minimal service"


def serve(port: int, token: str) -> None:
    """A minimal service for the ``warm`` case: /healthz, /v1/search, /v1/recall from a warm Memory."""
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    from neuromem import Memory

    memory = Memory.from_env()
    memory.search("warm up", user_id=USER, limit=1)

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def answer(self, status: int, payload: object) -> None:
            data = json.dumps(payload, ensure_ascii=False, default=str).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:
            self.answer(200, {"status": "ok"})

        def do_POST(self) -> None:
            if self.headers.get("Authorization") != f"Bearer {token}":
                return self.answer(401, {"error": {"type": "AuthenticationError", "message": "bad key"}})
            body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
            if self.path == "/v1/recall":
                block = memory.recall_prompt(
                    body["query"], user_id=body["user_id"], token_budget=body["token_budget"]
                )
                return self.answer(200, {"text": block.text, "citations": []})
            hits = memory.search(body["query"], user_id=body["user_id"], limit=body["limit"])
            return self.answer(
                200,
                {
                    "hits": [
                        {
                            "memory": {
                                "id": str(h.memory.id),
                                "memory_type": h.memory.memory_type.value,
                                "content": h.memory.content,
                            },
                            "score": {
                                "final": h.score.final,
                                "rrf": h.score.rrf,
                                "recency": h.score.recency,
                                "importance": h.score.importance,
                                "stage_boost": h.score.stage_boost,
                                "ranks": h.score.ranks,
                                "extra": h.score.extra,
                            },
                        }
                        for h in hits
                    ]
                },
            )

    ThreadingHTTPServer(("127.0.0.1", port), Handler).serve_forever()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=10, help="runs per command and situation")
    parser.add_argument("--first-runs", type=int, default=3, help="runs that start the server")
    parser.add_argument("--out", type=Path, default=Path("bench/results"))
    parser.add_argument("--serve", nargs=2, metavar=("PORT", "TOKEN"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve:
        serve(int(args.serve[0]), args.serve[1])
        return 0
    if args.runs < 1 or args.first_runs < 0:
        parser.error("--runs must be at least 1 and --first-runs at least 0")

    from neuromem import Memory, Settings
    from neuromem.admin import stop_embedded_server

    with tempfile.TemporaryDirectory(prefix="neuromem-bench-cli-") as tmp:
        Path(tmp).chmod(0o755)
        data_dir = Path(tmp) / "pgdata"
        env = {k: v for k, v in os.environ.items() if not k.startswith("NEUROMEM_")}
        env["NEUROMEM_DATA_DIR"] = str(data_dir)
        env["NEUROMEM_SERVICE__AUTO_START"] = "false"  # first and cold: no service between runs
        settings = Settings.from_env(env)
        with Memory(settings) as m:
            for fact in FACTS:
                m.add(fact, user_id=USER)
        search = memctl("search", "-u", USER, QUERY, "-k", "5")
        samples: dict[str, dict[str, list[float]]] = {"first": {}, "cold": {}, "warm": {}}
        try:
            for _ in range(args.first_runs):
                stop_embedded_server(settings)
                samples["first"].setdefault("search", []).append(timed(search, env, "first search"))
            timed(memctl("status"), env)  # the server is up from here on
            commands = {
                "search": search,
                "add": None,
                "list": memctl("list", "-u", USER),
                "status": memctl("status"),
                "help": memctl("--help"),
            }
            for name, cmd in commands.items():
                samples["cold"][name] = [
                    timed(cmd or add(f"cold {i}"), env, f"cold {name}") for i in range(args.runs)
                ]
            proc, remote_env, kind = start_service(env, data_dir)
            try:
                samples["warm"]["search"] = [
                    timed(search, remote_env, "warm search") for _ in range(args.runs)
                ]
                samples["warm"]["add"] = [
                    timed(add(f"warm {i}"), remote_env, "warm add") for i in range(args.runs)
                ]
                samples["warm"]["list"] = [
                    timed(memctl("list", "-u", USER), remote_env, "warm list") for _ in range(args.runs)
                ]
                samples["warm"]["recall --prompt"] = [
                    timed(
                        memctl("recall", "-u", USER, QUERY, "--prompt", "200"),
                        remote_env,
                        "warm recall --prompt",
                    )
                    for _ in range(args.runs)
                ]
            finally:
                if proc is not None:
                    proc.terminate()
                    proc.wait(30)
                else:
                    subprocess.run(memctl("server", "stop"), env=env, capture_output=True)
        finally:
            stop_embedded_server(settings)

    report = {
        situation: {name: percentiles(v) for name, v in cmds.items()} for situation, cmds in samples.items()
    }
    report["cpu_ms"] = {label: percentiles(v) for label, v in CPU_MS.items()}  # type: ignore[assignment]
    report["service"] = kind  # type: ignore[assignment]
    report["load_average"] = os.getloadavg()  # type: ignore[assignment]
    args.out.mkdir(parents=True, exist_ok=True)
    out = args.out / f"cli-{time.strftime('%Y%m%d-%H%M%S')}.json"
    out.write_text(json.dumps(report, indent=1))
    for situation, cmds in samples.items():
        for name, values in cmds.items():
            p, c = percentiles(values), percentiles(CPU_MS[f"{situation} {name}"])
            print(
                f"{situation:<6} {name:<16} wall p50 {p['p50']:>7.0f} ms  p95 {p['p95']:>7.0f} ms   "
                f"cpu p50 {c['p50']:>6.0f} ms  p95 {c['p95']:>6.0f} ms   (n={p['n']})"
            )
    print(f"warm service: {kind}; load average {os.getloadavg()[0]:.1f}; {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
