"""The in-process reflection queue: reflection runs off the request path (seed 000 §5.6, seed 001 §4.5).

It stays in the process beside the durable job queue (``lifecycle.worker``, procrastinate)
because a library user has no worker: ``Memory.ingest`` must reflect after a batch with no
other process running. What it may lose (a process that exits with requests waiting, memories
added without an ingest batch) is picked up by the durable ``reflection_sweep`` job.

One daemon thread drains a FIFO of per-user :class:`Request` s. A request for a
user already waiting in the queue is merged into the waiting one (the later
clock wins, a cycle beats a mere trigger check, a session end is kept), so a
burst of ingests yields one cycle; a user's requests run one after the other on
the one worker thread, and the per-user advisory lock in the engine keeps two
processes from reflecting on one user at once. The queue reads no clock: every
request carries its ``now``.
"""

from __future__ import annotations

import datetime as dt
import logging
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

log = logging.getLogger(__name__)

CHECK = "check"
"""The trigger of a request that only asks the worker to evaluate the seed 001 §4.5 triggers."""


@dataclass(frozen=True, slots=True)
class Request:
    """One queued reflection request: run a cycle (``trigger`` a TriggerType value) or check (``CHECK``)."""

    now: dt.datetime
    trigger: str
    value: float | None = None
    session_ended: bool = False

    def merge(self, later: Request) -> Request:
        """The one request standing for ``self`` followed by ``later``."""
        keep = later if self.trigger == CHECK or later.trigger != CHECK else self
        return Request(
            max(self.now, later.now), keep.trigger, keep.value, self.session_ended or later.session_ended
        )


Runner = Callable[[str, Request], object]


class ReflectionQueue:
    def __init__(self, runner: Runner) -> None:
        self._runner = runner
        self._pending: OrderedDict[str, Request] = OrderedDict()
        self._cond = threading.Condition()
        self._busy = False
        self._stopped = False
        self._thread: threading.Thread | None = None
        self.errors: list[str] = []
        self.completed = 0
        self.merged = 0

    def submit(
        self,
        user_id: str,
        now: dt.datetime,
        trigger: str,
        value: float | None = None,
        *,
        session_ended: bool = False,
    ) -> None:
        request = Request(now, str(trigger), value, session_ended)
        with self._cond:
            if self._stopped:
                return
            waiting = self._pending.get(user_id)
            if waiting is not None:
                request = waiting.merge(request)
                self.merged += 1
            self._pending[user_id] = request
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="neuromem-reflect", daemon=True)
                self._thread.start()
            self._cond.notify_all()

    def join(self, timeout: float = 60.0) -> bool:
        """Wait until the queue is empty and idle (tests, shutdown). True when drained."""
        with self._cond:
            return self._cond.wait_for(lambda: not self._pending and not self._busy, timeout)

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
                user_id, request = self._pending.popitem(last=False)
                self._busy = True
            try:
                self._runner(user_id, request)
                self.completed += 1
            except Exception as exc:  # recorded in reflection_cycles by the engine; keep the worker alive
                log.exception("background reflection for %s failed", user_id)
                self.errors.append(f"{user_id}: {type(exc).__name__}: {exc}")
            finally:
                with self._cond:
                    self._busy = False
                    self._cond.notify_all()
