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

import contextlib
import json
import logging
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)


class BreakerFile:
    """A small JSON file that keeps breakers' states across processes (issue 23 item 3): a process
    that starts after a provider failed — ``memctl ingest`` after a hung LLM — skips it at once.

    ``{"<key>": {"failures": n, "opened_at": unix time or null}}``; written whole through a temporary
    file and a rename on every change of state, read when a breaker is made. A file that cannot be read
    or written is logged and ignored: the breaker then lives in the process only."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path).expanduser()
        self._lock = threading.Lock()

    def load(self, key: str) -> dict[str, Any]:
        entry = self._read().get(key)
        return entry if isinstance(entry, dict) else {}

    def save(self, key: str, failures: int, opened_at: float | None) -> None:
        with self._lock:
            states = self._read()
            states[key] = {"failures": failures, "opened_at": opened_at}
            if not failures:
                del states[key]
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.{threading.get_ident()}")
                tmp.write_text(json.dumps(states), encoding="utf-8")
                tmp.replace(self.path)
            except OSError as exc:
                log.warning("circuit breaker state not saved to %s: %s", self.path, exc)

    def clear(self) -> None:
        with self._lock, contextlib.suppress(OSError):
            self.path.unlink()

    def _read(self) -> dict[str, Any]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as exc:
            log.warning("circuit breaker state in %s ignored: %s", self.path, exc)
            return {}
        return data if isinstance(data, dict) else {}


class CircuitBreaker:
    """Thread-safe consecutive-failure counter with a cool-down; with a ``store`` (and its ``key``),
    its state outlives the process."""

    def __init__(
        self,
        *,
        failures: int = 3,
        cooldown_s: float = 30.0,
        clock: Callable[[], float] = time.monotonic,
        store: BreakerFile | None = None,
        key: str = "",
    ) -> None:
        if failures < 1 or cooldown_s < 0:
            raise ValueError("CircuitBreaker needs failures >= 1 and cooldown_s >= 0")
        self.failures = failures
        self.cooldown_s = cooldown_s
        self._clock = clock
        self._lock = threading.Lock()
        self._consecutive = 0
        self._opened_at: float | None = None
        self._trial_running = False
        self._store = store
        self._key = key
        if store is not None:
            self._restore(store.load(key))

    def _restore(self, entry: dict[str, Any]) -> None:
        """The saved state, its wall-clock opening moment turned into this breaker's clock."""
        failures, opened = entry.get("failures"), entry.get("opened_at")
        if isinstance(failures, int) and failures > 0:
            self._consecutive = failures
        if isinstance(opened, int | float):
            self._opened_at = self._clock() - max(0.0, time.time() - float(opened))

    def _persist(self) -> None:
        if self._store is None:
            return
        opened = None if self._opened_at is None else time.time() - (self._clock() - self._opened_at)
        self._store.save(self._key, self._consecutive, opened)

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
            changed = self._consecutive > 0 or self._opened_at is not None
            self._consecutive = 0
            self._opened_at = None
            self._trial_running = False
            if changed:
                self._persist()

    def record_failure(self) -> None:
        with self._lock:
            self._consecutive += 1
            self._trial_running = False
            if self._consecutive >= self.failures:
                self._opened_at = self._clock()
            self._persist()

    @property
    def is_open(self) -> bool:
        with self._lock:
            return self._opened_at is not None

    def _remaining(self) -> float:
        if self._opened_at is None:
            return 0.0
        return max(0.0, self._opened_at + self.cooldown_s - self._clock())


_shared: dict[tuple[object, ...], CircuitBreaker] = {}
_files: dict[Path, BreakerFile] = {}
_shared_lock = threading.Lock()


def shared_breaker(
    provider: str,
    base_url: str,
    model: str,
    *,
    failures: int,
    cooldown_s: float,
    state_file: Path | None = None,
) -> CircuitBreaker:
    """The one breaker of this process for a provider endpoint: a hung server is hung for every
    ``Memory``, pipeline and client that calls it (the ingest, recall and reflection clients).
    With ``state_file`` its state is also kept there for the next process (``BreakerFile``)."""
    key = (provider, base_url.rstrip("/"), model, failures, cooldown_s, state_file)
    with _shared_lock:
        breaker = _shared.get(key)
        if breaker is None:
            store = (
                None if state_file is None else _files.setdefault(Path(state_file), BreakerFile(state_file))
            )
            breaker = _shared[key] = CircuitBreaker(
                failures=failures,
                cooldown_s=cooldown_s,
                store=store,
                key=f"{provider} {base_url.rstrip('/')} {model}",
            )
        return breaker


def reset_shared_breakers(*, persisted: bool = True) -> None:
    """Forget every shared breaker of this process (a test's fake server may reuse an earlier
    server's port, and must not inherit its failures) and, with ``persisted``, the state files
    this process used."""
    with _shared_lock:
        _shared.clear()
        if persisted:
            for file in _files.values():
                file.clear()
