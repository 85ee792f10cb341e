"""Benchmark: compression of old episodes on LongMemEval_S haystacks (issue 16, seed 004 §2.2).

Run from the repo root (starts its own embedded PostgreSQL in a temp dir; reads the dataset
from ``$NEUROMEM_BENCH_DATA``, default ``shared/data`` beside the checkout)::

    PYTHONPATH=. .venv/bin/python -m bench.consolidate                 # 2 questions
    PYTHONPATH=. .venv/bin/python -m bench.consolidate --questions 5

For each question, its haystack (about 50 sessions) is ingested as one user, every turn at its
session's date, by the offline rules with the 64-d hashing embedder. Then the clock is moved
``--months`` (default 6) past the question's date, so every episode is past the 90-day line,
and ``Memory.compress`` runs. Reported before / after: current memory rows, their tokens, and a
session-level recall check — whether a memory citing one of the question's answer sessions is
among the top 10 hits for the question (a small stand-in for the dev-set recall figures).
"""

from __future__ import annotations

import argparse
import datetime as dt
import time
from collections.abc import Sequence

from bench.datasets import LMEQuestion, load_longmemeval
from bench.harness import bench_settings, temporary_server

from neuromem import Memory
from neuromem.embed.hashing import HashingEmbedder
from neuromem.text.token_count import count_tokens

DIM = 64


def _state(m: Memory, user: str) -> tuple[int, int]:
    rows = m.get_all(user_id=user, limit=10_000)
    return len(rows), sum(count_tokens(r.content) for r in rows)


def _hit(m: Memory, user: str, q: LMEQuestion, k: int = 10) -> bool:
    gold = set(q.answer_session_ids)
    for hit in m.search(q.question, user_id=user, limit=k):
        if gold & {msg["session_id"] for msg in m.sources(hit.memory.id, user_id=user).messages}:
            return True
    return False


def run(q: LMEQuestion, m: Memory, user: str, months: int) -> tuple[int, int, int, int, bool, bool, float]:
    for s in q.sessions:
        turns = [{"role": t.role, "content": t.content, "timestamp": s.date.isoformat()}
                 for t in s.turns if t.content.strip()]  # fmt: skip
        if turns:
            m.ingest(turns, user_id=user, session_id=s.session_id)
    rows0, tokens0 = _state(m, user)
    hit0 = _hit(m, user, q)
    started = time.perf_counter()
    report = m.compress(user_id=user, now=q.question_date + dt.timedelta(days=30 * months))
    elapsed = time.perf_counter() - started
    rows1, tokens1 = _state(m, user)
    assert report.archived >= 0
    return rows0, tokens0, rows1, tokens1, hit0, _hit(m, user, q), elapsed


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--questions", type=int, default=2, help="haystacks to run (default 2)")
    parser.add_argument("--months", type=int, default=6, help="months past the question date (default 6)")
    args = parser.parse_args(argv)
    if args.questions < 1 or args.months < 4:
        parser.error("--questions must be positive and --months at least 4 (the 90-day line)")
    totals = [0, 0, 0, 0, 0, 0]
    with temporary_server() as url:
        settings = bench_settings(url, dim=DIM)
        with Memory(settings, embedder=HashingEmbedder(dim=DIM)) as m:
            for i, q in enumerate(load_longmemeval(limit=args.questions)):
                user = f"lme{i}"
                r0, t0, r1, t1, h0, h1, secs = run(q, m, user, args.months)
                print(f"{q.question_id:>12}  rows {r0:>5} → {r1:>5}  tokens {t0:>7} → {t1:>7}  "
                      f"answer session in top 10: {h0} → {h1}  (compress {secs:.1f} s)")  # fmt: skip
                for j, v in enumerate((r0, r1, t0, t1, h0, h1)):
                    totals[j] += int(v)
    r0, r1, t0, t1, h0, h1 = totals
    print(f"total: rows {r0} → {r1} ({100 * (r0 - r1) / max(1, r0):.1f}% fewer), tokens {t0} → {t1} "
          f"({100 * (t0 - t1) / max(1, t0):.1f}% fewer), recall hits {h0} → {h1} of {args.questions}")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
