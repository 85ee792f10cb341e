"""The embedding backfill worker (seed 000 "SQL 同步 + 向量异步").

Rows written without a vector (async mode, or the embedder was down) are embedded in
batches by ``MemoryCore.backfill_embeddings``; this thread runs it in the background,
backing off while the embedder keeps failing.
"""

from __future__ import annotations

import logging
import threading

from ..core import MemoryCore

log = logging.getLogger(__name__)


class BackfillWorker:
    """A daemon thread that embeds pending rows every ``interval_s`` (sooner when poked)."""

    def __init__(self, core: MemoryCore, *, interval_s: float = 2.0, max_backoff_s: float = 60.0) -> None:
        self.core = core
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
                self.core.backfill_embeddings()
                still = self.core.pending_embeddings()
            except Exception:  # the worker must survive anything; the rows stay pending
                log.exception("embedding backfill failed")
                still = 1
            delay = self.interval_s if still == 0 else min(delay * 2, self.max_backoff_s)
