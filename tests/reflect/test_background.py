"""The background reflection queue: one cycle at a time per user, repeated requests merged, clock carried
by each request (seed 000 §5.6, seed 001 §4.5)."""

from __future__ import annotations

import datetime as dt
import threading
import time

from neuromem.reflect.background import CHECK, ReflectionQueue, Request

T = dt.datetime(2025, 5, 1, 8, 0, tzinfo=dt.UTC)


def at(hours: float) -> dt.datetime:
    return T + dt.timedelta(hours=hours)


class Recorder:
    """A runner that records every call and the users running at the same moment."""

    def __init__(self, hold_first: bool = False) -> None:
        self.calls: list[tuple[str, Request]] = []
        self.running: set[str] = set()
        self.overlaps: list[str] = []
        self.started = threading.Event()
        self.release = threading.Event()
        if not hold_first:
            self.release.set()
        self.lock = threading.Lock()

    def __call__(self, user_id: str, request: Request) -> None:
        with self.lock:
            if user_id in self.running:
                self.overlaps.append(user_id)
            self.running.add(user_id)
            self.calls.append((user_id, request))
        self.started.set()
        self.release.wait(10)
        time.sleep(0.01)
        with self.lock:
            self.running.discard(user_id)


def test_repeated_requests_for_a_waiting_user_are_merged() -> None:
    runner = Recorder(hold_first=True)
    queue = ReflectionQueue(runner)
    queue.submit("a", at(0), "manual")
    assert runner.started.wait(5)  # "a" is running and held
    for h in (1, 3, 2, 4, 5):
        queue.submit("b", at(h), CHECK)
    runner.release.set()
    assert queue.join(10)
    assert [(u, r.now) for u, r in runner.calls] == [("a", at(0)), ("b", at(5))]
    assert queue.merged == 4 and queue.completed == 2
    queue.stop()


def test_a_user_never_runs_two_cycles_at_once() -> None:
    runner = Recorder(hold_first=True)
    queue = ReflectionQueue(runner)
    queue.submit("a", at(0), "manual")
    assert runner.started.wait(5)
    queue.submit("a", at(1), "session_end")  # arrives while the first cycle of "a" runs
    queue.submit("c", at(1), "scheduled")
    runner.release.set()
    assert queue.join(10)
    assert [u for u, _ in runner.calls] == ["a", "a", "c"] and runner.overlaps == []
    assert runner.calls[1][1] == Request(at(1), "session_end")
    queue.stop()


def test_merge_keeps_the_cycle_the_later_clock_and_the_session_end() -> None:
    check = Request(at(2), CHECK, session_ended=True)
    cycle = Request(at(1), "importance_accumulated", 31.0)
    assert check.merge(cycle) == Request(at(2), "importance_accumulated", 31.0, True)
    assert cycle.merge(check) == Request(at(2), "importance_accumulated", 31.0, True)
    assert Request(at(1), CHECK).merge(Request(at(0), CHECK)) == Request(at(1), CHECK)
    assert Request(at(1), "manual").merge(Request(at(3), "scheduled", 24.0)) == Request(
        at(3), "scheduled", 24.0
    )


def test_a_failing_cycle_is_recorded_and_the_worker_goes_on() -> None:
    seen: list[str] = []

    def runner(user_id: str, request: Request) -> None:
        seen.append(user_id)
        if user_id == "bad":
            raise RuntimeError("boom")

    queue = ReflectionQueue(runner)
    queue.submit("bad", at(0), "manual")
    assert queue.join(10)
    queue.submit("good", at(0), "manual")
    assert queue.join(10)
    assert seen == ["bad", "good"] and queue.errors == ["bad: RuntimeError: boom"] and queue.completed == 1
    queue.stop()
    queue.submit("late", at(1), "manual")  # ignored after stop
    assert seen == ["bad", "good"]
