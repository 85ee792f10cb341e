"""The embedding backfill worker (seed 000 "SQL 同步 + 向量异步").

Rows written without a vector (async mode, or the embedder was down) are embedded in
batches by ``backfill_embeddings``; ``BackfillWorker`` runs it in the background,
backing off while the embedder keeps failing. Conversation turns are rows of this kind too
(issue 14): with ``ingest.turn_vectors="background"`` (the default) an ingest stores its
turns without a vector and returns, and the worker embeds them right after.
``pending_embeddings`` counts both, so ``while m.pending_embeddings(): m.flush()`` waits
for every vector.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from ..config import Settings
from ..core import Runtime
from ..errors import EmbedderError
from ..store import conversations, memories
from ..store.status import count_pending_vectors
from ..text.token_count import truncate_to_tokens

log = logging.getLogger(__name__)


def backfill_embeddings(
    runtime: Runtime,
    *,
    batch_size: int | None = None,
    max_batches: int | None = None,
    stopping: Callable[[], bool] = lambda: False,
) -> int:
    """Embed rows written without a vector, batch by batch: memories first, then turns. Returns how
    many were embedded.

    A failing batch is recorded (memories: ``embed_attempts``, ``embed_error``) and left for the
    next run; the rows stay searchable by full text meanwhile. ``stopping`` is asked before
    each batch (the worker's: the process closes, a flush takes over, or an ingest has the CPU).
    """
    size = batch_size or runtime.settings.embedder.batch_size
    longest = turn_max_chars(runtime.settings)
    phases: list[Callable[[], int | None]] = [lambda: _memory_batch(runtime, size)]
    if longest is not None:
        phases.append(lambda: _turn_batch(runtime, longest, size))
    done = batches = 0
    for batch in phases:
        while (max_batches is None or batches < max_batches) and not stopping():
            embedded = batch()
            if (
                embedded is None
            ):  # nothing left to claim, or the batch failed: the next phase, or the next run
                break
            batches += 1
            done += embedded
    return done


def turn_max_chars(settings: Settings) -> int | None:
    """The longest turn that gets a vector of its own (longer ones are stored as document pieces,
    ``ingest.pipeline``), or None when turns get none (``ingest.embed_turns`` off)."""
    return settings.write.max_content_chars if settings.ingest.embed_turns else None


def _memory_batch(runtime: Runtime, size: int) -> int | None:
    with runtime.db.transaction() as conn:
        rows = memories.claim_pending_embeddings(conn, size)
        if not rows:
            return None
        user_id = rows[0]["user_id"]  # a claim is one user's rows
        try:
            vectors = runtime.embedder.embed_passages([r["content"] for r in rows], batch_size=size)
        except EmbedderError as exc:
            memories.record_embed_failure(
                conn, user_id, [(r["id"], r["memory_type"]) for r in rows], str(exc)
            )
            log.warning("backfill batch of %d failed: %s", len(rows), exc)
            return None
        triples = [(r["id"], r["memory_type"], vectors[i]) for i, r in enumerate(rows)]
        return memories.set_embeddings(conn, user_id, triples, runtime.dim)


def _turn_batch(runtime: Runtime, longest: int, size: int) -> int | None:
    """Vectors for stored turns that have none (issue 14: every turn is a recall unit; seed 003 §5 hybrid
    recall): each reads its first ``ingest.turn_embed_tokens`` tokens, as at ingest. A failing batch
    stops the run; the turns stay findable by BM25 and are tried again next time."""
    with runtime.db.transaction() as conn:
        rows = conversations.claim_pending_turn_vectors(conn, longest, size)
        if not rows:
            return None
        texts = [truncate_to_tokens(r["content"], runtime.settings.ingest.turn_embed_tokens) for r in rows]
        try:
            vectors = runtime.embedder.embed_passages(texts, batch_size=size)
        except EmbedderError as exc:
            log.warning("turn backfill batch of %d failed: %s", len(rows), exc)
            return None
        return conversations.set_turn_vectors(
            conn, [(r["user_id"], r["id"], vectors[i]) for i, r in enumerate(rows)], runtime.dim
        )


def pending_embeddings(runtime: Runtime, user_id: str | None = None) -> int:
    """Rows waiting for a vector (of ``user_id`` if given): memories, and turns that get one — exactly
    what ``backfill_embeddings`` claims, so the count reaches zero once it has run without a failure."""
    with runtime.db.connection() as conn:
        return sum(count_pending_vectors(conn, user_id, turn_max_chars(runtime.settings)))


class Foreground:
    """Ingest calls in flight in this process, which the backfill thread gives way to (issue 14 item 1:
    an ingest acknowledges at the speed of its own work; the turn vectors it leaves follow, not
    compete). ``with foreground:`` around a call; the thread waits for ``idle``."""

    def __init__(self) -> None:
        self._calls = 0
        self._changed = threading.Condition()

    def __enter__(self) -> Foreground:
        with self._changed:
            self._calls += 1
        return self

    def __exit__(self, *exc: object) -> None:
        with self._changed:
            self._calls -= 1
            self._changed.notify_all()

    def wait_idle(self, timeout: float, interrupted: Callable[[], bool]) -> None:
        """Return once no call is in flight, ``interrupted()`` holds (after ``wake``), or ``timeout`` passed."""
        with self._changed:
            self._changed.wait_for(lambda: self._calls == 0 or interrupted(), timeout)

    def wake(self) -> None:
        with self._changed:
            self._changed.notify_all()


class BackfillWorker:
    """A daemon thread that embeds pending rows every ``interval_s`` (sooner when poked).

    Before each batch it waits while an ingest runs in this process (``foreground``), at most
    ``max_defer_s`` per batch, so a bulk import is acknowledged at full speed and a stream of ingests
    that never pauses still gets its vectors. ``run`` (``Memory.flush``) takes over at once.
    """

    def __init__(
        self,
        runtime: Runtime,
        *,
        foreground: Foreground | None = None,
        interval_s: float = 2.0,
        max_backoff_s: float = 60.0,
        max_defer_s: float = 30.0,
    ) -> None:
        self.runtime = runtime
        self.foreground = foreground or Foreground()
        self.interval_s = interval_s
        self.max_backoff_s = max_backoff_s
        self.max_defer_s = max_defer_s
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._running = threading.Lock()  # one backfill run at a time: the thread's, or a flush's
        self._flushes = 0  # callers of run() waiting or running: the thread's run gives way
        self._flushes_lock = threading.Lock()
        self._thread = threading.Thread(target=self._run, name="neuromem-backfill", daemon=True)

    def start(self) -> BackfillWorker:
        self._thread.start()
        return self

    def run(self, *, batch_size: int | None = None) -> int:
        """A backfill run now, in the caller's thread (``Memory.flush``): the thread's run in flight stops
        after its batch, so when this returns nothing that was pending is left (unless the embedder failed)."""
        with self._flushes_lock:
            self._flushes += 1
        self.foreground.wake()
        try:
            with self._running:
                return backfill_embeddings(self.runtime, batch_size=batch_size)
        finally:
            with self._flushes_lock:
                self._flushes -= 1

    def poke(self) -> None:
        """Ask for a run now (called after writes)."""
        self._wake.set()

    def stop(self, timeout: float = 10.0) -> None:
        self._stop.set()
        self._wake.set()
        self.foreground.wake()
        self._thread.join(timeout)

    def _giving_way(self) -> bool:
        return self._stop.is_set() or self._flushes > 0

    def _before_batch(self) -> bool:
        """Asked before each batch of the thread's run: wait while an ingest is in flight (at most
        ``max_defer_s``); True ends the run (closing, or a flush takes over)."""
        self.foreground.wait_idle(self.max_defer_s, self._giving_way)
        return self._giving_way()

    def _run(self) -> None:
        delay = self.interval_s
        while not self._stop.is_set():
            self._wake.wait(delay)
            self._wake.clear()
            if self._stop.is_set():
                break
            try:
                with self._running:
                    done = backfill_embeddings(self.runtime, stopping=self._before_batch)
                still = pending_embeddings(self.runtime)
            except Exception:  # the worker must survive anything; the rows stay pending
                if self._stop.is_set():
                    break  # the process is closing under a run: the rows wait for the next backfill
                log.exception("embedding backfill failed")
                done, still = 0, 1
            # back off only while nothing gets embedded (the embedder keeps failing); rows that arrived
            # during a run that made progress (a stream of ingests) are taken at the next interval
            progress = still == 0 or done > 0 or self._flushes > 0  # a flush took over: not a failure
            delay = self.interval_s if progress else min(delay * 2, self.max_backoff_s)
