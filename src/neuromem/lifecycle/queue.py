"""The background reflection queue: reflection runs off the request path (seed 000 §5.6, seed 001 §4.5).

One daemon thread drains a FIFO of ``(user_id, now, trigger)`` requests. A
request for a user already waiting in the queue is merged (the later clock
wins), so a burst of ingests yields one cycle; the per-user advisory lock in the
engine keeps two processes from reflecting on one user at once.
"""

from __future__ import annotations

import datetime as dt
import logging
import threading
from collections import OrderedDict
from collections.abc import Callable

log = logging.getLogger(__name__)

Runner = Callable[[str, dt.datetime, str, float | None], object]


class ReflectionQueue:
    def __init__(self, runner: Runner) -> None:
        self._runner = runner
        self._pending: OrderedDict[str, tuple[dt.datetime, str, float | None]] = OrderedDict()
        self._cond = threading.Condition()
        self._busy = False
        self._stopped = False
        self._thread: threading.Thread | None = None
        self.errors: list[str] = []
        self.completed = 0

    def submit(self, user_id: str, now: dt.datetime, trigger: str, value: float | None = None) -> None:
        with self._cond:
            if self._stopped:
                return
            if user_id in self._pending:
                previous = self._pending[user_id]
                now = max(now, previous[0])
            self._pending[user_id] = (now, str(trigger), value)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="neuromem-reflect", daemon=True)
                self._thread.start()
            self._cond.notify_all()

    def join(self, timeout: float = 60.0) -> bool:
        """Wait until the queue is empty and idle (tests, shutdown). True when drained."""
        deadline = threading.TIMEOUT_MAX if timeout is None else timeout
        with self._cond:
            return self._cond.wait_for(lambda: not self._pending and not self._busy, deadline)

    def stop(self, timeout: float = 30.0) -> None:
        with self._cond:
            self._stopped = True
            self._cond.notify_all()
        if self._thread is not None:
            self._thread.join(timeout)

    def _run(self) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(lambda: self._pending or self._stopped)
                if self._stopped and not self._pending:
                    return
                user_id, (now, trigger, value) = self._pending.popitem(last=False)
                self._busy = True
            try:
                self._runner(user_id, now, trigger, value)
                self.completed += 1
            except Exception as exc:  # recorded in reflection_cycles by the engine; keep the worker alive
                log.exception("background reflection for %s failed", user_id)
                self.errors.append(f"{user_id}: {type(exc).__name__}: {exc}")
            finally:
                with self._cond:
                    self._busy = False
                    self._cond.notify_all()
