"""Side effects of recall, batched off the hot path (seed 000 §5.2 task 4, seed 001 §8.2).

``record`` only appends to an in-memory buffer under a lock. Access counts and
``last_accessed_at`` are written by one ``UPDATE … FROM unnest(…)`` per flush, and
recalled traits are reinforced (+``trait_reinforce_on_recall``, default 0.02) in the
same transaction. A flush runs when ``access_flush_interval_s`` has passed or
``access_flush_max_pending`` rows wait — in a background thread, never inside the
recall that triggered it — and on ``close``.
"""

from __future__ import annotations

import datetime as dt
import logging
import threading
import time
import uuid
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

from ..config import RecallSettings
from ..store import memories
from ..store import traits as trait_store
from ..store.db import Database

log = logging.getLogger(__name__)


class AccessTracker:
    """Accumulates recall hits per (user, memory) and flushes them in batches."""

    def __init__(self, db: Database, settings: RecallSettings, *, background: bool = True) -> None:
        self._db = db
        self._settings = settings
        self._background = background
        self._lock = threading.Lock()
        self._flush_lock = threading.Lock()
        self._counts: dict[tuple[str, uuid.UUID], tuple[int, dt.datetime]] = {}
        self._traits: dict[str, dict[uuid.UUID, int]] = {}
        self._last_flush = time.monotonic()
        self._thread: threading.Thread | None = None

    @property
    def pending(self) -> int:
        with self._lock:
            return len(self._counts)

    def record(
        self, user_id: str, memory_ids: Iterable[uuid.UUID], trait_ids: Iterable[uuid.UUID] = ()
    ) -> None:
        now = dt.datetime.now(dt.UTC)
        with self._lock:
            for mid in memory_ids:
                count, _ = self._counts.get((user_id, mid), (0, now))
                self._counts[(user_id, mid)] = (count + 1, now)
            per_user = self._traits.setdefault(user_id, {})
            for tid in trait_ids:
                per_user[tid] = per_user.get(tid, 0) + 1
            due = (
                len(self._counts) >= self._settings.access_flush_max_pending
                or time.monotonic() - self._last_flush >= self._settings.access_flush_interval_s
            )
        if due:
            self._schedule()

    def _schedule(self) -> None:
        if not self._background:
            self.flush()
            return
        if self._thread is not None and self._thread.is_alive():
            return
        self._thread = threading.Thread(target=self._flush_quietly, name="neuromem-access-flush", daemon=True)
        self._thread.start()

    def _flush_quietly(self) -> None:
        try:
            self.flush()
        except Exception as exc:
            log.warning("access-count flush failed, will retry: %s", exc)

    def flush(self) -> int:
        """Write everything buffered now; returns the memory rows updated. On failure the
        buffer is put back so nothing is lost."""
        with self._flush_lock:
            with self._lock:
                counts, self._counts = self._counts, {}
                traits, self._traits = self._traits, {}
                self._last_flush = time.monotonic()
            if not counts and not traits:
                return 0
            try:
                with self._db.transaction() as conn:
                    updated = memories.bump_access(conn, counts)
                    delta = self._settings.trait_reinforce_on_recall
                    now = dt.datetime.now(dt.UTC)
                    for user_id, per_trait in traits.items():
                        # one reinforcement per flush and trait: recall is weak evidence (seed 001 §8.2);
                        # through the optimistic lock, so a concurrent reflection is never overwritten
                        for trait_id in sorted(per_trait) if delta > 0 else ():
                            try:
                                trait_store.reinforce_on_recall(conn, user_id, trait_id, delta, now)
                            except trait_store.TraitConflict as exc:
                                log.info("recall reinforcement of a busy trait skipped: %s", exc)
                return updated
            except Exception:
                with self._lock:
                    for key, (n, at) in counts.items():
                        old_n, old_at = self._counts.get(key, (0, at))
                        self._counts[key] = (old_n + n, max(old_at, at))
                    for user_id, per_trait in traits.items():
                        mine = self._traits.setdefault(user_id, {})
                        for tid, n in per_trait.items():
                            mine[tid] = mine.get(tid, 0) + n
                raise

    @contextmanager
    def without_user(self, user_id: str) -> Iterator[None]:
        """Drop what is buffered for ``user_id`` and keep flushes out while the block runs
        (``reset``: a flush updating rows that a concurrent delete removes can deadlock)."""
        with self._flush_lock:
            with self._lock:
                self._counts = {k: v for k, v in self._counts.items() if k[0] != user_id}
                self._traits.pop(user_id, None)
            yield

    def close(self) -> None:
        if self._thread is not None:
            self._thread.join(timeout=10)
        self.flush()
