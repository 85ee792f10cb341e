"""A circuit breaker for model providers (issue #12 item 5: never hang on a provider that is down).

After ``failures`` calls in a row fail for unavailability (timeout, refused connection, 5xx,
429), the breaker *opens*: calls fail at once with the provider's typed error for
``cooldown_s`` seconds, so the caller falls back immediately (rules for the LLM, a NULL vector
and a later backfill for the embedder, full text for recall). After the cool-down one call
is let through (*half-open*): success closes the breaker, failure opens it again.

>>> b = CircuitBreaker(failures=2, cooldown_s=30.0, clock=lambda: 0.0)
>>> b.record_failure(); b.record_failure(); b.open_for()
30.0
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable


class CircuitBreaker:
    """Thread-safe consecutive-failure counter with a cool-down."""

    def __init__(self, *, failures: int = 3, cooldown_s: float = 30.0, clock: Callable[[], float] = time.monotonic):
        if failures < 1 or cooldown_s < 0:
            raise ValueError("CircuitBreaker needs failures >= 1 and cooldown_s >= 0")
        self.failures = failures
        self.cooldown_s = cooldown_s
        self._clock = clock
        self._lock = threading.Lock()
        self._consecutive = 0
        self._opened_at: float | None = None
        self._trial_running = False

    def open_for(self) -> float:
        """Seconds until a call may be tried again; 0 when calls may go through."""
        with self._lock:
            return self._remaining()

    def allow(self) -> bool:
        """Whether a call may go out now (one trial call at a time once the cool-down is over)."""
        with self._lock:
            if self._opened_at is None:
                return True
            if self._remaining() > 0 or self._trial_running:
                return False
            self._trial_running = True
            return True

    def record_success(self) -> None:
        with self._lock:
            self._consecutive = 0
            self._opened_at = None
            self._trial_running = False

    def record_failure(self) -> None:
        with self._lock:
            self._consecutive += 1
            self._trial_running = False
            if self._consecutive >= self.failures:
                self._opened_at = self._clock()

    @property
    def is_open(self) -> bool:
        with self._lock:
            return self._opened_at is not None

    def _remaining(self) -> float:
        if self._opened_at is None:
            return 0.0
        return max(0.0, self._opened_at + self.cooldown_s - self._clock())


_shared: dict[tuple[object, ...], CircuitBreaker] = {}
_shared_lock = threading.Lock()


def shared_breaker(provider: str, base_url: str, model: str, *, failures: int, cooldown_s: float) -> CircuitBreaker:
    """The one breaker of this process for a provider endpoint: a hung server is hung for every
    ``Memory``, pipeline and client that calls it (the ingest, recall and reflection clients)."""
    key = (provider, base_url.rstrip("/"), model, failures, cooldown_s)
    with _shared_lock:
        breaker = _shared.get(key)
        if breaker is None:
            breaker = _shared[key] = CircuitBreaker(failures=failures, cooldown_s=cooldown_s)
        return breaker


def reset_shared_breakers() -> None:
    """Forget every shared breaker of this process (a test's fake server may reuse an earlier
    server's port, and must not inherit its failures)."""
    with _shared_lock:
        _shared.clear()
