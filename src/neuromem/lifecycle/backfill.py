"""The embedding backfill worker (seed 000 "SQL 同步 + 向量异步").

Rows written without a vector (async mode, or the embedder was down) are embedded in
batches by ``backfill_embeddings``; ``BackfillWorker`` runs it in the background,
backing off while the embedder keeps failing.
"""

from __future__ import annotations

import logging
import threading

from ..core import Runtime
from ..errors import EmbedderError
from ..store import conversations, memories
from ..text.token_count import truncate_to_tokens

log = logging.getLogger(__name__)


def backfill_embeddings(rt: Runtime, *, batch_size: int | None = None, max_batches: int | None = None) -> int:
    """Embed rows written without a vector, batch by batch. Returns how many were embedded.

    A failing batch is recorded (``embed_attempts``, ``embed_error``) and left for the
    next run; the rows stay searchable by full text meanwhile.
    """
    size = batch_size or rt.settings.embedder.batch_size
    done = 0
    batches = 0
    while max_batches is None or batches < max_batches:
        batches += 1
        with rt.db.transaction() as conn:
            rows = memories.claim_pending_embeddings(conn, size)
            if not rows:
                break
            try:
                vectors = rt.embedder.embed_passages([r["content"] for r in rows], batch_size=size)
            except EmbedderError as exc:
                memories.record_embed_failure(conn, [(r["id"], r["memory_type"]) for r in rows], str(exc))
                log.warning("backfill batch of %d failed: %s", len(rows), exc)
                break
            triples = [(r["id"], r["memory_type"], vectors[i]) for i, r in enumerate(rows)]
            done += memories.set_embeddings(conn, triples, rt.dim)
    if rt.settings.ingest.embed_turns and (max_batches is None or batches < max_batches):
        done += _backfill_turns(rt, size, None if max_batches is None else max_batches - batches)
    return done


def _backfill_turns(rt: Runtime, size: int, max_batches: int | None) -> int:
    """Vectors for stored turns that have none (issue 14: every turn is a recall unit): each reads its
    first ``ingest.turn_embed_tokens`` tokens, as at ingest. A failing batch stops the run; the turns
    stay findable by BM25 and are tried again next time."""
    cfg = rt.settings
    done = batches = 0
    while max_batches is None or batches < max_batches:
        batches += 1
        with rt.db.transaction() as conn:
            rows = conversations.claim_pending_turn_vectors(conn, cfg.write.max_content_chars, size)
            if not rows:
                break
            texts = [truncate_to_tokens(r["content"], cfg.ingest.turn_embed_tokens) for r in rows]
            try:
                vectors = rt.embedder.embed_passages(texts, batch_size=size)
            except EmbedderError as exc:
                log.warning("turn backfill batch of %d failed: %s", len(rows), exc)
                break
            done += conversations.set_turn_vectors(
                conn, [(r["user_id"], r["id"], vectors[i]) for i, r in enumerate(rows)], rt.dim
            )
    return done


def pending_embeddings(rt: Runtime, user_id: str | None = None) -> int:
    with rt.db.connection() as conn:
        return memories.count_pending_embeddings(conn, user_id)


class BackfillWorker:
    """A daemon thread that embeds pending rows every ``interval_s`` (sooner when poked)."""

    def __init__(self, rt: Runtime, *, interval_s: float = 2.0, max_backoff_s: float = 60.0) -> None:
        self.rt = rt
        self.interval_s = interval_s
        self.max_backoff_s = max_backoff_s
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="neuromem-backfill", daemon=True)

    def start(self) -> BackfillWorker:
        self._thread.start()
        return self

    def poke(self) -> None:
        """Ask for a run now (called after writes)."""
        self._wake.set()

    def stop(self, timeout: float = 10.0) -> None:
        self._stop.set()
        self._wake.set()
        self._thread.join(timeout)

    def _run(self) -> None:
        delay = self.interval_s
        while not self._stop.is_set():
            self._wake.wait(delay)
            self._wake.clear()
            if self._stop.is_set():
                break
            try:
                backfill_embeddings(self.rt)
                still = pending_embeddings(self.rt)
            except Exception:  # the worker must survive anything; the rows stay pending
                log.exception("embedding backfill failed")
                still = 1
            delay = self.interval_s if still == 0 else min(delay * 2, self.max_backoff_s)
