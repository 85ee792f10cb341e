"""Run a write transaction again when a concurrent writer made it fail (issue 12 item 3).

``add`` and ``ingest`` take their decisions inside their transaction against the current
state, so a transaction that lost a race — a deadlock, a unique index hit by a concurrent
insert of the same row, or an optimistic lock lost inside a supersede — can simply be run
again: the next attempt sees the winner's rows and decides accordingly. ``update`` with a
stale version is not retried: that conflict is the caller's to resolve.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable
from typing import TypeVar

from psycopg import errors as pg_errors

from ..errors import ConflictError

log = logging.getLogger(__name__)

T = TypeVar("T")

RETRYABLE: tuple[type[BaseException], ...] = (
    ConflictError,  # VersionConflictError, and the three below as ``store.db_errors`` translates them
    pg_errors.DeadlockDetected,
    pg_errors.SerializationFailure,
    pg_errors.UniqueViolation,
)

# its own generator: the jitter never touches the global random state a caller may seed or watch
_JITTER = random.Random()


def run_with_retries(attempt: Callable[[], T], retries: int, *, what: str = "write") -> T:
    """``attempt()``, run again up to ``retries`` times after a ``RETRYABLE`` failure (short jittered pause)."""
    for n in range(retries + 1):
        try:
            return attempt()
        except RETRYABLE as exc:
            if n == retries:
                raise
            log.info("%s lost a race with a concurrent writer (%s); retrying", what, type(exc).__name__)
            time.sleep(_JITTER.uniform(0.0, 0.01 * (n + 1)))
    raise AssertionError("unreachable")
