"""Side effects of recall, batched off the hot path (seed 000 §5.2 task 4, seed 001 §8.2).

``record`` only appends to an in-memory buffer under a lock. Access counts and
``last_accessed_at`` are written by one ``UPDATE … FROM unnest(…)`` per flush, and
recalled traits are reinforced (+``trait_reinforce_on_recall``, default 0.02) in the
same transaction — bounded, damped per query and only for traits with evidence
(``recall.reinforcement``, issue #12 item 3a). A flush runs when ``access_flush_interval_s`` has passed or
``access_flush_max_pending`` rows wait — in a background thread, never inside the
recall that triggered it — and on ``close``.
"""

from __future__ import annotations

import datetime as dt
import logging
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager

from ..config import RecallSettings
from ..core import utc_now
from ..store import memories
from ..store import traits as trait_store
from ..store.db import Database
from ..types import MemoryRecord
from .reinforcement import STATE_KEY, ReinforcementPolicy, query_key, step

log = logging.getLogger(__name__)


class AccessTracker:
    """Accumulates recall hits per (user, memory) and flushes them in batches."""

    def __init__(
        self,
        db: Database,
        settings: RecallSettings,
        *,
        background: bool = True,
        clock: Callable[[], dt.datetime] | None = None,
    ) -> None:
        self._db = db
        self._now = clock or utc_now  # the runtime's clock (``Runtime.now``)
        self._settings = settings
        self._background = background
        self._lock = threading.Lock()
        self._flush_lock = threading.Lock()
        self._counts: dict[tuple[str, uuid.UUID], tuple[int, dt.datetime]] = {}
        self._traits: dict[str, dict[uuid.UUID, list[str]]] = {}  # user → trait → query keys, in order
        self._policy = ReinforcementPolicy(
            settings.trait_reinforce_on_recall,
            settings.trait_recall_cap,
            settings.trait_recall_damping,
            settings.trait_recall_window_s,
        )
        self._last_flush = time.monotonic()
        self._thread: threading.Thread | None = None

    @property
    def pending(self) -> int:
        with self._lock:
            return len(self._counts)

    def record(
        self,
        user_id: str,
        memory_ids: Iterable[uuid.UUID],
        trait_ids: Iterable[uuid.UUID] = (),
        query: str = "",
    ) -> None:
        now = self._now()
        with self._lock:
            for mid in memory_ids:
                count, _ = self._counts.get((user_id, mid), (0, now))
                self._counts[(user_id, mid)] = (count + 1, now)
            per_user = self._traits.setdefault(user_id, {})
            key = query_key(query)
            for tid in trait_ids:
                per_user.setdefault(tid, []).append(key)
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
                    now = self._now()
                    for user_id, per_trait in traits.items():
                        # recall is weak evidence (seed 001 §8.2): bounded and damped per query; written
                        # through the optimistic lock, so a concurrent reflection is never overwritten
                        for trait_id in sorted(per_trait) if self._policy.amount > 0 else ():
                            decide = self._decider(dict.fromkeys(per_trait[trait_id]), now)
                            try:
                                trait_store.reinforce_on_recall(conn, user_id, trait_id, decide)
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
                        for tid, keys in per_trait.items():
                            mine[tid] = [*keys, *mine.get(tid, [])]
                raise

    def _decider(self, keys: dict[str, None], now: dt.datetime):  # type: ignore[no-untyped-def]
        """``decide(trait, has_evidence)`` for ``store.traits.reinforce_on_recall``: the queries
        that recalled the trait since the last flush, applied one by one (each damped)."""

        def decide(trait: MemoryRecord, has_evidence: bool) -> tuple[float, dict[str, object]] | None:
            state = trait.metadata.get(STATE_KEY) if isinstance(trait.metadata, dict) else None
            total = 0.0
            for key in keys:
                delta, new_state = step(state, key, now, self._policy, has_evidence=has_evidence)
                if new_state is not None:
                    total, state = total + delta, new_state
            if total <= 0:
                return None
            return total, {**trait.metadata, STATE_KEY: state}

        return decide

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
