"""The recall pipeline (MISSION capability 3; seed 003 §5, §18; seed 000 §6).

    analyze → embed query → bm25 ∥ vector ∥ traits → graph (PPR) → raw fallback
            → fuse (RRF / λ-sum) → four-factor score → time filter → MMR → top-k

The facade validates once and builds a :class:`~neuromem.recall.request.RecallRequest`;
:meth:`RecallPipeline.run` takes it. The retrievers are a table (``recall.retriever_table``)
consumed by one loop, and every retriever runs in its own (sub)transaction: if one fails — the
graph under maintenance, full text broken — or is switched off by the recipe, or the embedder is
down, recall answers with what is left and the trace says which path ran and why (seed 003 §18
degradation matrix).
"""

from __future__ import annotations

import datetime as dt
import functools
import logging
import threading
import time
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

from ..deadlines import model_work
from ..errors import DatabaseUnavailableError, InvalidInputError, RecallDegradedError
from ..llm.factory import create_chat_model
from ..store import conversations, recall_truth
from ..store import recall_queries as rq
from ..store.db import Conn
from ..store.db_errors import map_db_error
from ..text.continuations import leans_on_what_was_said
from ..text.tokenize import query_terms
from ..types import MemoryRecord, ScoreBreakdown, SearchHit, SearchResults, TurnRef
from . import chains, retrievers
from .access import AccessTracker
from .candidate_rows import CandidateRows
from .chains import FOLLOW_DEPTH, FOLLOW_LISTS, FOLLOW_READ, FOLLOW_TAKE, chain_shaped
from .fusion import Fused, Ranked, final_score, fuse, linear_base, memory_factors, neighbour_context
from .hop import anchor_window, expansion_terms
from .mmr import mmr_order, session_spread
from .query import QueryAnalysis, analyze_query
from .query_cache import QueryEmbeddingCache
from .reads import isolated, statements_on_their_own
from .recipes import RecallRecipe
from .request import Recalled, RecallRequest
from .rerank import Reranker, create_reranker
from .retriever_table import HOP_RETRIEVERS, NOT_APPLICABLE, RETRIEVERS, Retriever, Search, in_fusion_order
from .retrievers import Probe
from .shared import merged, shared_hits
from .trace import NO_VECTOR, Trace
from .truth import (
    SAME_SLOT_TOP,
    STATEMENT_TYPES,
    Outdated,
    TruthFacts,
    above_floor,
    continues,
    lexical_traces,
    newer_account_first,
    newer_first,
)
from .units import (
    TURN_LISTS,
    Units,
    is_assistant_question,
    is_turn_only,
    memory_ids,
    to_units,
    turn_record,
    turn_ref,
)
from .whose_first import asked_of_first

if TYPE_CHECKING:
    from ..core import Runtime

log = logging.getLogger(__name__)
T = TypeVar("T")

#: The score of a hit recall adds beside a scored one (a continuation): ``truth.newer_first`` places it
_UNSCORED = ScoreBreakdown(0.0, 0.0, 0.0, 0.0, 0.0)


class RecallPipeline:
    """Runs recall requests against the runtime's database; shared by the sync and async facades."""

    def __init__(
        self, runtime: Runtime, tracker: AccessTracker | None = None, reranker: Reranker | None = None
    ) -> None:
        settings = runtime.settings
        self.runtime = runtime
        self.settings = settings
        # the relevance judge (issue 14 item 4): given, or built from ``settings.reranker`` (off by default)
        judge = (
            create_chat_model(settings.llm, state_file=settings.breaker_file())
            if settings.reranker.provider == "llm"
            else None
        )
        self.reranker = reranker if reranker is not None else create_reranker(settings.reranker, judge)
        self.tracker = tracker
        self.query_cache = QueryEmbeddingCache(settings.recall.query_embedding_cache)
        self._pool: ThreadPoolExecutor | None = None
        self._executor_lock = threading.Lock()

    def run(self, request: RecallRequest, *, first: Callable[[Conn], Any] | None = None) -> Recalled:
        """Recall for ``request`` (checked by the facade): the hits, the trace, the raw passages, the
        degraded paths — and the query vector. ``first`` reads what does not depend on the question
        (``Memory.recall_prompt``'s pinned lines) on recall's own connection before the lists, while the
        question is embedded on another core; its answer is ``Recalled.first`` (None when it failed: the
        trace's path ``first`` says why)."""
        tr = Trace(request.trace)
        started = time.perf_counter()
        recipe = request.recipe
        # the query embedding (the longest step) starts first and overlaps analysis and BM25
        wants_vector = recipe.use_vector or recipe.use_traits or recipe.use_turns or recipe.use_concepts
        pending = self._start_embedding(request.query, tr) if wants_vector else None
        clock = self.runtime.now()
        now = request.reference or request.valid_at or request.as_of or clock
        analysis = tr.timed("analyze", lambda: analyze_query(request.query, now))
        later = request.reference is not None and request.reference > clock
        present = request.reference if later and request.as_of is None and request.valid_at is None else None
        if request.trace:
            tr.stages["query"] = analysis.as_trace()
        probe = Probe(
            request.user_id,
            analysis,
            None,
            request.types,
            request.limit,
            recipe,
            request.as_of,
            request.where,
            request.valid_at,
            present,
        )
        vectors: dict[uuid.UUID, np.ndarray] = {}
        with self.runtime.db.connection() as conn, statements_on_their_own(conn):
            early = None if first is None else self._attempt(conn, tr, "first", lambda: first(conn))
            rows = CandidateRows(conn, request.user_id)
            found = Search(conn, probe, self.settings, tr, pending=pending, embed=self._embed_cached)
            self._run_table(RETRIEVERS, found)
            found.lists = in_fusion_order(found.lists)
            for name, listed in found.lists.items():
                tr.candidates(name, listed)
            lists, req = found.lists, found.probe
            if present is not None:  # the database's filter of what is current reads the clock
                lists = (
                    self._attempt(conn, tr, "ended_by", lambda: _without_ended(conn, req, lists, present))
                    or lists
                )
            degraded = check_degraded(tr, strict=request.strict)
            results = tr.timed("fuse_score", lambda: self._score(rows, req, lists, tr, vectors))
            if recipe.second_hop and results:
                results = tr.timed(
                    "second_hop", lambda: self._second_hop(rows, req, lists, results, tr, vectors)
                )
            ranked = [h for h, _ in results]
            if recipe.follow_hops and ranked and chain_shaped(request.query):
                ranked = tr.timed("follow", lambda: self._follow(rows, req, ranked, tr))
            # the store's word on what is current is a refinement: if it fails, the ranking stands (seed 003 §18)
            facts = TruthFacts()
            if not ranked:
                tr.paths["truth"] = "skipped: no hits"
            else:
                facts = self._attempt(conn, tr, "truth", lambda: self._truth(conn, req, ranked, tr)) or facts
        depth = max(request.limit, self._rerank_depth())
        ranked = lexical_traces(self._rerank(request.query, ranked[:depth], tr) + ranked[depth:])
        ranked = newer_first(ranked, facts, vectors, recipe.same_subject_cosine, request.query)
        ranked = asked_of_first(ranked, request.query)
        hits = newer_account_first(above_floor(ranked, recipe.relevance_floor), request.query)[
            : request.limit
        ]
        tr.timings_ms["total"] = round((time.perf_counter() - started) * 1000, 3)
        if request.trace:
            tr.stages["final"] = [
                {"id": str(h.memory.id), "final": round(h.score.final, 6), "ranks": h.score.ranks}
                for h in hits
            ]
        if request.track_access and self.tracker is not None and hits:
            self.tracker.record(
                request.user_id,
                [h.memory.id for h in hits if not is_turn_only(h.memory)],
                [h.memory.id for h in hits if h.memory.memory_type == "trait"],
                request.query,
            )
        answer = SearchResults(tuple(hits), tr.as_dict(), tuple(found.passages), degraded)
        if request.include_shared:  # what others share with the user, ranked with the user's own hits
            answer = self._with_shared(request, answer, req.vector, now)
        return Recalled(answer, req.vector, early)

    def _with_shared(
        self, request: RecallRequest, own: SearchResults, vector: np.ndarray | None, now: dt.datetime
    ) -> SearchResults:
        """``own`` merged with the memories other users share with the user (``recall.shared``), ranked with
        the query vector recall already has (the question is not embedded again)."""
        others = shared_hits(
            self.runtime.db,
            self.settings,
            lambda _query: vector,
            request.query,
            request.user_id,
            recipe=request.recipe,
            types=request.types,
            limit=request.limit,
            as_of=request.as_of,
            valid_at=request.valid_at,
            where=request.where,
            reference=now,
        )
        return merged(own, others, request.limit, request.recipe.rrf_k)

    # ------------------------------------------------------------------ retrieval
    def _run_table(self, table: tuple[Retriever, ...], search: Search) -> None:
        """Each retriever of ``table`` that is not off, in order, its list kept under its name."""
        for retriever in table:
            why = retriever.off(search)
            if why is not None:
                if why != NOT_APPLICABLE:
                    search.trace.paths[retriever.name] = why
                continue
            found = self._attempt(
                search.conn, search.trace, retriever.name, functools.partial(retriever.run, search)
            )
            if found is not None:
                search.lists[retriever.name] = found

    def _attempt(self, conn: Conn, tr: Trace, name: str, fn: Callable[[], T]) -> T | None:
        """``fn`` on its own (:func:`isolated`); on an error the path says why and the answer is None."""
        try:
            with isolated(conn):
                out = tr.timed(name, fn)
        except Exception as exc:
            raise_if_fatal(exc)
            log.warning("recall retriever %s failed, continuing without it: %s", name, exc)
            tr.paths[name] = f"failed: {type(exc).__name__}: {exc}".splitlines()[0][:300]
            return None
        tr.paths[name] = "ran"
        return out

    def _second_hop(
        self,
        rows: CandidateRows,
        req: Probe,
        lists: dict[str, list[Ranked]],
        first: list[tuple[SearchHit, Fused]],
        tr: Trace,
        vectors: dict[uuid.UUID, np.ndarray],
    ) -> list[tuple[SearchHit, Fused]]:
        """Search again with the words of the best first-hop hits, and a time anchor dated by them
        (``recall.hop``); the new lists join the first ones and everything is fused again."""
        seeds = [h for h, _ in first[: req.recipe.hop_seeds]]
        texts = [h.turns[0].content if h.turns else h.memory.content for h in seeds]
        terms = expansion_terms(req.analysis.terms, texts, req.recipe.hop_terms)
        window = None
        if req.analysis.time is None:
            dated = [(t, h.memory.valid_at or h.memory.created_at) for t, h in zip(texts, seeds, strict=True)]
            window = anchor_window(req.analysis.text, dated, req.analysis.reference)
        if tr.enabled:
            tr.stages["second_hop"] = {
                "terms": terms,
                "anchor": None if window is None else [window.start.isoformat(), window.end.isoformat()],
            }
        if not terms and window is None:
            return first
        sub = replace(req, analysis=replace(req.analysis, terms=tuple(terms)))
        more = Search(rows.conn, sub, self.settings, tr, lists=lists)
        self._run_table(HOP_RETRIEVERS, more)
        again = req if window is None else replace(req, analysis=replace(req.analysis, time=window))
        return self._score(rows, again, more.lists, tr, vectors)

    def _follow(self, rows: CandidateRows, req: Probe, ranked: list[SearchHit], tr: Trace) -> list[SearchHit]:
        """Follow the chain of a multi-step question (``recall.chains``): at each step, the best hits that name
        what the question or an earlier step named give the names they add; BM25 searches with the question's
        words and those names, and the best facts found that name one of them rank right below the last of
        those hits (a fact reached through a hit ranks next to it: a list of a few hits fused with the others
        would be clipped to nothing by the z-score)."""
        known = set(chains.names(req.analysis.text))
        steps: list[list[str]] = []
        for list_name in FOLLOW_LISTS[: req.recipe.follow_hops]:
            texts = [h.memory.content for h in ranked[:FOLLOW_DEPTH]]
            at = chains.seed_positions(texts, known, req.recipe.hop_seeds)
            added = chains.new_names(chains.linked_sentences([texts[i] for i in at], known), known)
            if not added:
                break
            known.update(added)
            steps.append(added)
            terms = tuple(dict.fromkeys([*req.analysis.terms, *(t for n in added for t in query_terms(n))]))
            step = replace(req, analysis=replace(req.analysis, terms=terms))
            found = self._attempt(
                rows.conn,
                tr,
                list_name,
                functools.partial(retrievers.bm25, rows.conn, step, self.settings.recall),
            )
            above = {h.memory.id for h in ranked[: at[-1] + 1]}
            ids = [r.id for r in found or () if r.id not in above][:FOLLOW_READ]
            records, _ = rows.records_with_vectors(ids)
            taken = [
                records[i] for i in ids if i in records and chains.links_to(records[i].content, set(added))
            ][:FOLLOW_TAKE]
            ranked = chains.placed_after(ranked, at[-1], taken, list_name)
        if tr.enabled:
            tr.stages["follow"] = steps
        return ranked

    def _rerank_depth(self) -> int:
        return self.settings.reranker.top_n if self.reranker is not None else 0

    def _rerank(self, query: str, hits: list[SearchHit], tr: Trace) -> list[SearchHit]:
        """The best ``reranker.top_n`` hits in the judge's order (``recall.rerank``), the rest after them;
        on an error or past ``reranker.timeout_s`` the fused order stands and the trace says why."""
        if self.reranker is None:
            return hits
        head, tail = hits[: self.settings.reranker.top_n], hits[self.settings.reranker.top_n :]
        if len(head) < 2:
            return hits
        timeout = self.settings.reranker.timeout_s
        texts = [h.turns[0].content if is_turn_only(h.memory) and h.turns else h.memory.content for h in head]
        judge = self.reranker
        future = self._executor().submit(lambda: judge.score(query, texts, deadline_s=timeout))
        try:
            scores = tr.timed("rerank", lambda: future.result(timeout=timeout))
        except Exception as exc:  # a late or failing judge: the fused order stands (seed 003 §18)
            why = "timed out" if isinstance(exc, TimeoutError) else f"{type(exc).__name__}: {exc}"
            tr.paths["rerank"] = f"failed: {why}".splitlines()[0][:300]
            log.warning("reranker failed, keeping the fused order: %s", why)
            return hits
        tr.paths["rerank"] = "ran"
        return reorder(head, scores) + tail

    def _start_embedding(self, query: str, tr: Trace) -> Callable[[], np.ndarray | None]:
        """The query vector from the LRU, or embedded in a worker thread while BM25 runs on the
        database (the embedder releases the GIL); the returned callable waits for it."""
        cached = self.query_cache.get(query)
        if cached is not None:
            tr.timings_ms["embed_query"] = 0.0
            if tr.enabled:
                tr.stages["query_embedding"] = "cached"
            return lambda: cached

        def work() -> np.ndarray | None:
            start = time.perf_counter()
            vector = self.runtime.embed_query(query)
            tr.timings_ms["embed_query"] = round((time.perf_counter() - start) * 1000, 3)
            if vector is not None:
                self.query_cache.put(query, vector)
            return vector

        def wait() -> np.ndarray | None:
            with model_work():  # the call waits on the model: no database time (``deadlines.model_work``)
                return future.result()

        future = self._executor().submit(work)
        return lambda: tr.timed("embed_wait", wait)

    def _embed_cached(self, text: str) -> np.ndarray | None:
        vector = self.query_cache.get(text)
        if vector is None:
            vector = self.runtime.embed_query(text)
            if vector is not None:
                self.query_cache.put(text, vector)
        return vector

    def _executor(self) -> ThreadPoolExecutor:
        with self._executor_lock:
            if self._pool is None:
                # query embeddings: a few at once (a service embeds the questions of concurrent requests)
                self._pool = ThreadPoolExecutor(max_workers=4, thread_name_prefix="neuromem-recall")
            return self._pool

    def close(self) -> None:
        with self._executor_lock:
            if self._pool is not None:
                self._pool.shutdown(wait=True)
                self._pool = None

    def _units(self, rows: CandidateRows, lists: dict[str, list[Ranked]], tr: Trace) -> Units:
        """The lists re-keyed to units (a memory and its source turn are one, with or without the turn
        channel), without the turns a deleted memory came from."""
        if not any(lists.values()):
            return Units(lists, {}, {})
        source = tr.timed("provenance", lambda: rows.source_turns(memory_ids(lists)))
        turn_ids = {h.id for name in TURN_LISTS for h in lists.get(name, ())}
        withdrawn = rows.withdrawn_turns(list(turn_ids))
        if withdrawn:
            lists = {
                n: [h for h in hits if h.id not in withdrawn] if n in TURN_LISTS else hits
                for n, hits in lists.items()
            }
        return to_units(lists, source)

    def _records(
        self, rows: CandidateRows, req: Probe, ids: list[uuid.UUID], units: Units
    ) -> tuple[
        dict[uuid.UUID, MemoryRecord], dict[uuid.UUID, np.ndarray], dict[uuid.UUID, tuple[TurnRef, ...]]
    ]:
        """For each candidate unit: its record (the memory, or the turn's read-only view), vectors by
        record id (for MMR), and the turns it stands for."""
        wanted = [units.memory_of.get(u, u) for u in ids if u in units.memory_of or u not in units.turn_of]
        memory_records, vectors = rows.records_with_vectors(wanted)
        turn_rows = rows.turns_by_id([units.turn_of[u] for u in ids if u in units.turn_of])
        records: dict[uuid.UUID, MemoryRecord] = {}
        turns: dict[uuid.UUID, tuple[TurnRef, ...]] = {}
        for u in ids:
            turn = turn_rows.get(units.turn_of[u]) if u in units.turn_of else None
            record = memory_records.get(units.memory_of.get(u, u))
            if record is None and turn is not None:
                record = turn_record(turn, req.user_id)
                if turn.vector is not None:
                    vectors[turn.id] = turn.vector
            if record is None:
                continue
            records[u] = record
            if turn is not None:
                turns[u] = (turn_ref(turn),)
        return records, vectors, turns

    # ------------------------------------------------------------------ scoring
    def _score(
        self,
        rows: CandidateRows,
        req: Probe,
        lists: dict[str, list[Ranked]],
        tr: Trace,
        vectors_out: dict[uuid.UUID, np.ndarray],
    ) -> list[tuple[SearchHit, Fused]]:
        """Fused and scored hits, best first; the candidates' stored vectors go to ``vectors_out``."""
        recipe, rs = req.recipe, self.settings.recall
        units = self._units(rows, lists, tr)
        fused = fuse(units.lists, recipe)
        if not fused:
            return []
        if recipe.fusion == "linear" and recipe.neighbour_weight > 0:
            self._neighbours(rows.conn, req, fused, tr)
        candidates = prune(
            fused,
            recipe,
            rs,
            keep=max(req.limit, recipe.mmr_pool if recipe.mmr else 0),
            filtering=req.analysis.time is not None and recipe.time_filter,
        )
        if tr.enabled:
            tr.stages["scored_candidates"] = {"fused": len(fused), "scored": len(candidates)}
        records, vectors, turns = tr.timed("records", lambda: self._records(rows, req, candidates, units))
        vectors_out.update(vectors)
        now = req.as_of or req.analysis.reference
        scored: list[tuple[SearchHit, Fused]] = []
        for id_, f in fused.items():
            record = records.get(id_)
            if record is None:
                continue
            factors = memory_factors(record, now, rs, self.settings.lifecycle.feedback_step)
            base, final = final_score(f, factors, recipe)
            extra = {f"score_{k}": v for k, v in f.scores.items()}
            extra.update({f"norm_{k}": v for k, v in f.normalized.items()})
            extra.update({"base": base, "lambda_sum": f.lam})
            breakdown = ScoreBreakdown(
                f.rrf, factors.recency, factors.importance, factors.stage_boost, final, dict(f.ranks), extra
            )
            scored.append((SearchHit(record, breakdown, turns.get(id_, ())), f))
        scored.sort(key=lambda p: (-p[0].score.final, p[0].memory.id))
        scored = self._time_filter(req, scored, tr)
        if recipe.session_decay < 1 and len(scored) > 1:
            scored = spread_sessions(scored, recipe)
        if recipe.mmr and len(scored) > 1:
            scored = self._mmr(req, scored, vectors)
        return scored

    def _truth(self, conn: Conn, req: Probe, ranked: list[SearchHit], tr: Trace) -> TruthFacts:
        """What the store says about which of ``ranked`` is current (``store.recall_truth``): same-subject
        links, and — recalling the present, not a past state — turns whose value a newer memory replaced,
        with that memory when it may be shown (no metadata filter, its type wanted)."""
        memory_ids = [h.memory.id for h in ranked if not is_turn_only(h.memory)]
        links = recall_truth.same_subject_links(conn, req.user_id, memory_ids)
        if req.as_of is not None or req.valid_at is not None:
            return TruthFacts(links)
        turn_ids = [h.memory.id for h in ranked if is_turn_only(h.memory)]
        ended = recall_truth.outdated_turns(conn, req.user_id, turn_ids, req.later_present)
        new_ids = [v.replaced_by for v in ended.values() if v.replaced_by is not None]
        source = conversations.source_turns(conn, req.user_id, new_ids)
        # the hit that already stands for each replacement: the memory itself, or the unit of its source turn
        shown = {h.memory.id: h.memory.id for h in ranked} | {
            t.id: h.memory.id for h in ranked for t in h.turns
        }

        def stands_for(memory_id: uuid.UUID | None) -> uuid.UUID | None:
            if memory_id is None:
                return None
            return shown.get(memory_id) or (shown.get(source[memory_id]) if memory_id in source else None)

        outdated = {k: Outdated(v.replaced_by, v.until, stands_for(v.replaced_by)) for k, v in ended.items()}
        missing = (
            []
            if req.where is not None
            else [
                v.replaced_by for v in outdated.values() if v.replaced_by is not None and v.shown_as is None
            ]
        )
        found, _ = rq.records_with_vectors(conn, req.user_id, missing)
        turn_rows = conversations.turns_by_id(conn, req.user_id, [source[i] for i in found if i in source])
        types = {str(t) for t in req.types}
        replacements = {
            i: SearchHit(
                r,
                _UNSCORED,
                (turn_ref(turn_rows[source[i]]),) if source.get(i) in turn_rows else (),
            )
            for i, r in found.items()
            if not types or str(r.memory_type) in types
        }
        continuations = {} if req.where is not None else self._continuations(conn, req, ranked, types)
        if tr.enabled:
            tr.stages["truth"] = {
                "links": len(links),
                "outdated_turns": [str(k) for k in outdated],
                "replacements": [str(k) for k in replacements],
                "continuations": [str(k) for k in continuations],
            }
        return TruthFacts(links, outdated, replacements, continuations)

    def _continuations(
        self, conn: Conn, req: Probe, ranked: list[SearchHit], types: set[str]
    ) -> dict[uuid.UUID, SearchHit]:
        """Of the first hits, the statement the user told or said next when it continues it (``truth.continues``),
        of a type wanted: by hit id."""
        now = dt.datetime.now(dt.UTC)
        return self._told_next(conn, req, ranked, types, now) | self._said_next(conn, req, ranked, types, now)

    def _said_next(
        self, conn: Conn, req: Probe, ranked: list[SearchHit], types: set[str], now: dt.datetime
    ) -> dict[uuid.UUID, SearchHit]:
        """Of the first hits that stand for a turn of the user or an assistant's question, the turn the user sent
        next (``store.recall_truth.next_turns``: nobody between but the assistant asking about it), when it
        continues it: "She dropped it after a taster day and swapped to Russian"
        after "How's Tallulah finding the German?", "Kinsale now — she's bought a cottage …" after "My cousin
        Siobhán's flat is in Cork city centre." The hit already standing for that turn, else its first current
        memory, else the turn itself."""
        heads = {
            h.turns[0].id: h
            for h in ranked[:SAME_SLOT_TOP]
            if h.turns and (h.turns[0].role == "user" or is_assistant_question(h.turns[0]))
        }
        if not heads:
            return {}
        after = {
            head: (n, memory_id)
            for head, (n, words, memory_id) in recall_truth.next_turns(conn, req.user_id, list(heads)).items()
            if leans_on_what_was_said(words)  # read no turn that cannot continue
        }
        turns = conversations.turns_by_id(conn, req.user_id, sorted({n for n, _ in after.values()}))
        leaning = {head: (turns[n], memory_id) for head, (n, memory_id) in after.items() if n in turns}
        shown = {t.id: h for h in ranked for t in h.turns}
        wanted = sorted({m for t, m in leaning.values() if m is not None and t.id not in shown})
        found, _ = rq.records_with_vectors(conn, req.user_id, wanted)
        out: dict[uuid.UUID, SearchHit] = {}
        for head, (turn, memory_id) in leaning.items():
            if turn.id in shown:
                hit = shown[turn.id]
            elif memory_id is None:
                hit = SearchHit(turn_record(turn, req.user_id), _UNSCORED, (turn_ref(turn),))
            elif memory_id in found:
                hit = SearchHit(found[memory_id], _UNSCORED, (turn_ref(turn),))
            else:
                continue
            # by when the turns were sent: a dated fact's event time is not when it was said
            apart = turn.sent_at - heads[head].turns[0].sent_at
            if (not types or str(hit.memory.memory_type) in types) and continues(
                hit.memory, heads[head].memory, now, apart
            ):
                out[heads[head].memory.id] = hit
        return out

    def _told_next(
        self, conn: Conn, req: Probe, ranked: list[SearchHit], types: set[str], now: dt.datetime
    ) -> dict[uuid.UUID, SearchHit]:
        """Of the first statements among ``ranked`` told by ``add``, the statement the user told next when it
        continues it ("Yes, it was approved yesterday" after "My visa application status is pending")."""
        heads = {
            h.memory.id: h.memory
            for h in ranked[:SAME_SLOT_TOP]
            if not is_turn_only(h.memory) and not h.turns and h.memory.memory_type in STATEMENT_TYPES
        }
        told = {
            head: after
            for head, (after, words) in recall_truth.next_statements(
                conn, req.user_id, list(heads), sorted(str(t) for t in STATEMENT_TYPES)
            ).items()
            if leans_on_what_was_said(words)  # read no row that cannot continue
        }
        found, _ = rq.records_with_vectors(conn, req.user_id, sorted(set(told.values())))
        return {
            head: SearchHit(found[after], _UNSCORED)
            for head, after in told.items()
            if after in found
            and (not types or str(found[after].memory_type) in types)
            and continues(found[after], heads[head], now)
        }

    def _neighbours(self, conn: Conn, req: Probe, fused: dict[uuid.UUID, Fused], tr: Trace) -> None:
        """Conversational context: each candidate's best TEMPORAL_NEXT neighbour among the candidates."""
        pool = sorted(fused, key=lambda i: (-fused[i].lin, i))[: req.recipe.neighbour_pool]
        try:
            with isolated(conn):
                pairs = tr.timed(
                    "neighbours", lambda: rq.memory_neighbours(conn, req.user_id, pool, as_of=req.as_of)
                )
        except Exception as exc:  # the graph is an optional boost (seed 003 §18)
            raise_if_fatal(exc)
            log.warning("recall neighbour context failed, continuing without it: %s", exc)
            tr.paths["neighbours"] = f"failed: {type(exc).__name__}"
            return
        tr.paths["neighbours"] = "ran"
        adjacency: dict[uuid.UUID, list[uuid.UUID]] = {}
        for a, b in pairs:
            adjacency.setdefault(a, []).append(b)
            adjacency.setdefault(b, []).append(a)
        neighbour_context(fused, adjacency)

    def _time_filter(
        self, req: Probe, scored: list[tuple[SearchHit, Fused]], tr: Trace
    ) -> list[tuple[SearchHit, Fused]]:
        window = req.analysis.time
        if window is None or not req.recipe.time_filter or not scored:
            return scored
        boost = req.recipe.time_boost
        if boost > 0:
            inside = [in_window(hit.memory, window.start, window.end) for hit, _ in scored]
            bonus = boost * scored[0][0].score.final  # relative to this query's best score
            boosted = [
                (_plus(hit, bonus), f) if hit_in else (hit, f)
                for (hit, f), hit_in in zip(scored, inside, strict=True)
            ]
            boosted.sort(key=lambda p: (-p[0].score.final, p[0].memory.id))
            if tr.enabled:
                tr.stages["time_filter"] = {"boosted": sum(inside), "of": len(scored), "boost": boost}
            return boosted
        kept = [p for p in scored if in_window(p[0].memory, window.start, window.end)]
        if tr.enabled:
            tr.stages["time_filter"] = {"kept": len(kept), "of": len(scored), "applied": bool(kept)}
        # a constraint that matches nothing is more likely mis-read than meant: keep the ranking
        return kept or scored

    def _mmr(
        self, req: Probe, scored: list[tuple[SearchHit, Fused]], vectors: dict[uuid.UUID, np.ndarray]
    ) -> list[tuple[SearchHit, Fused]]:
        """The first ``req.limit`` hits chosen by MMR from the best ``mmr_pool``; the rest of the pool
        follows in score order (only the first ``limit`` are returned)."""
        pool = scored[: req.recipe.mmr_pool]
        order = mmr_order(
            [h.memory.id for h, _ in pool],
            [h.score.final for h, _ in pool],
            vectors,
            lam=req.recipe.mmr_lambda,
            limit=req.limit,
        )
        chosen = set(order)
        by_id = {h.memory.id: (h, f) for h, f in pool}
        rest = [p for p in pool if p[0].memory.id not in chosen]
        return [by_id[i] for i in order] + rest + scored[len(pool) :]


def reorder(head: list[SearchHit], scores: list[float]) -> list[SearchHit]:
    """``head`` in the judge's order, each hit given the fused final score of the rank it takes (so the
    scale of scores is kept), the judge's score in ``extra["rerank"]``."""
    finals = sorted((h.score.final for h in head), reverse=True)
    order = sorted(range(len(head)), key=lambda i: (-scores[i], i))
    out = []
    for rank, i in enumerate(order):
        hit = head[i]
        extra = {**hit.score.extra, "rerank": scores[i], "fused_rank": i + 1}
        out.append(replace(hit, score=replace(hit.score, final=finals[rank], extra=extra)))
    return out


def raise_if_fatal(exc: Exception) -> None:
    """A database that is down, or a value the database refused, is not a retriever's problem:
    every other path would fail the same way, so recall stops with the typed error."""
    mapped = map_db_error(exc)
    if isinstance(mapped, DatabaseUnavailableError | InvalidInputError):
        raise mapped from exc


def check_degraded(tr: Trace, *, strict: bool) -> tuple[str, ...]:
    """The degraded paths of this recall (issue #12 item 4). Raises ``RecallDegradedError`` when no
    retrieval path ran although some failed — an outage never looks like an empty memory — or,
    with ``strict``, when any path is degraded."""
    degraded = tr.degraded()
    if not degraded:
        return ()
    if not any(v == "ran" for v in tr.paths.values()):
        raise RecallDegradedError(
            "recall failed: every retrieval path failed (" + "; ".join(degraded) + ")", degraded
        )
    if strict:
        raise RecallDegradedError("recall is degraded (strict): " + "; ".join(degraded), degraded)
    log.warning("recall answered degraded: %s", "; ".join(degraded))
    return degraded


def prune(
    fused: dict[uuid.UUID, Fused], recipe: RecallRecipe, rs: Any, *, keep: int, filtering: bool
) -> list[uuid.UUID]:
    """Ids that can still reach the top ``keep`` after the memory-level factors — an exact cut:
    ``base ≤ final ≤ base · (1 + w_recency + w_importance + max stage boost)`` (seed 000 §6.1),
    so a candidate whose best case is below the ``keep``-th base cannot enter. Nothing is cut
    for the λ-sum fusion or when a time filter may remove ranked items."""
    ids = sorted(fused, key=lambda i: (-base_of(fused[i], recipe), i))
    if filtering or recipe.fusion == "weighted" or len(ids) <= keep:
        return ids
    ceiling = 1.0
    if recipe.four_factor:
        ceiling += (
            rs.recency_weight
            + rs.importance_weight
            + max(rs.stage_boost_core, rs.stage_boost_established, rs.stage_boost_emerging, 0.0)
        )
    threshold = base_of(fused[ids[keep - 1]], recipe)
    return [i for i in ids if base_of(fused[i], recipe) * ceiling >= threshold]


def base_of(f: Fused, recipe: RecallRecipe) -> float:
    if recipe.fusion == "rrf":
        return f.rrf
    if recipe.fusion == "linear":
        return linear_base(f, recipe)
    return f.rrf + recipe.hybrid_mix * f.lam


def spread_sessions(
    scored: list[tuple[SearchHit, Fused]], recipe: RecallRecipe
) -> list[tuple[SearchHit, Fused]]:
    """The best ``mmr_pool`` hits re-ordered by :func:`mmr.session_spread` (``recipe.session_decay``),
    each hit's final score discounted as it was picked (kept in ``extra`` as ``session_spread``);
    the session of a memory is its ``metadata["session_id"]`` (written by ingestion for every
    memory from a conversation), a memory without one is never discounted."""
    pool = scored[: recipe.mmr_pool]
    sessions = {
        h.memory.id: str(sid)
        for h, _ in pool
        if isinstance(h.memory.metadata, dict) and (sid := h.memory.metadata.get("session_id")) is not None
    }
    order = session_spread(
        [h.memory.id for h, _ in pool], [h.score.final for h, _ in pool], sessions, decay=recipe.session_decay
    )
    by_id = {h.memory.id: (h, f) for h, f in pool}
    out: list[tuple[SearchHit, Fused]] = []
    for id_, value in order:
        hit, f = by_id[id_]
        factor = value / hit.score.final if hit.score.final > 0 else 1.0
        score = replace(hit.score, final=value, extra={**hit.score.extra, "session_spread": factor})
        out.append((replace(hit, score=score), f))
    return out + scored[len(pool) :]


def _plus(hit: SearchHit, bonus: float) -> SearchHit:
    """``hit`` with ``bonus`` added to its final score (and kept in ``extra`` as ``time_boost``)."""
    score = replace(hit.score, final=hit.score.final + bonus, extra={**hit.score.extra, "time_boost": bonus})
    return replace(hit, score=score)


def in_window(record: MemoryRecord, start: dt.datetime, end: dt.datetime) -> bool:
    """Event time (``valid_at``, else ``created_at``) inside ``[start, end)``; naive bounds are UTC."""
    when = record.valid_at or record.created_at
    if start.tzinfo is None:
        start = start.replace(tzinfo=dt.UTC)
    if end.tzinfo is None:
        end = end.replace(tzinfo=dt.UTC)
    return start <= when < end


def _without_ended(
    conn: Conn, req: Probe, lists: dict[str, list[Ranked]], present: dt.datetime
) -> dict[str, list[Ranked]]:
    """``lists`` without the memories that ended after the clock but by ``present``, the question's later present
    (``Probe.later_present``): what the filter of current rows (``store.sql_parts.CURRENT_SQL``) would have left out at
    that time, the others ranked anew. A turn unit's id names no memory and stays."""
    ids = {r.id for listed in lists.values() for r in listed}
    ended = rq.ended_by(conn, req.user_id, sorted(ids), present)
    if not ended:
        return lists
    return {
        name: [replace(r, rank=n) for n, r in enumerate((r for r in listed if r.id not in ended), start=1)]
        for name, listed in lists.items()
    }


__all__ = ["NO_VECTOR", "QueryAnalysis", "RecallPipeline", "Trace", "in_window", "uuid"]
