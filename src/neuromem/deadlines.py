"""One deadline per public call (issue 23 items 2 and 3).

A public call of ``Memory`` (and so of ``AsyncMemory``, the service, the MCP server and the
adapters, which all go through it) runs inside ``public_call``: a ``contextvars`` scope that holds

- the **database deadline**, counted from the start of the call (``store.deadline_s``), less the time the
  call's models work (``model_work``): the pool checkout, a new connection and every wait for the server's
  answer are cut to it, and statements run under ``statement_timeout`` / ``lock_timeout`` of that length,
  so a frozen database ends the call with ``DatabaseUnavailableError`` instead of blocking it (``store.db``);
- the **model deadlines**, one per kind of model (``llm.deadline_s``, ``embedder.deadline_s``),
  counted from the call's first request to that model: every HTTP call to it, retries included,
  shares what is left, so a hung LLM costs one deadline per public call, not one per step
  (extraction, decisions, judgement…) (``llm._http``).

Outside a public call — background threads (the backfill, reflection, access-count flushes) and the
calls whose work grows with the store (``memory.BULK_CALLS``: imports, exports, jobs…) — each database
wait ends within ``store.bulk_deadline_s`` and each model request has its whole deadline, as before. A nested public call
(``add`` of messages runs ``ingest``) keeps the outer call's deadlines. The scope follows
``asyncio.to_thread`` and ``contextvars.copy_context().run``, not plain threads.
"""

from __future__ import annotations

import contextvars
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field


@dataclass(slots=True)
class CallDeadlines:
    """The deadlines of one public call, as ``time.monotonic()`` instants."""

    database: float
    database_s: float  # the configured seconds, for messages
    models: dict[str, float] = field(default_factory=dict)  # by model kind, from its first call
    in_model: bool = False  # inside ``model_work``: the database clock is stopped


_current: contextvars.ContextVar[CallDeadlines | None] = contextvars.ContextVar(
    "neuromem_deadlines", default=None
)


@contextmanager
def public_call(database_s: float) -> Iterator[CallDeadlines]:
    """The scope of one public call whose database work must end within ``database_s`` seconds."""
    outer = _current.get()
    if outer is not None:  # a public call made by another keeps the outer one's deadlines
        yield outer
        return
    deadlines = CallDeadlines(database=time.monotonic() + database_s, database_s=database_s)
    token = _current.set(deadlines)
    try:
        yield deadlines
    finally:
        _current.reset(token)


@contextmanager
def model_work() -> Iterator[None]:
    """A model's work inside a public call — an embedder loading its weights and encoding, an LLM answering. The
    database deadline stops while it runs (it moves on by the time taken): the database did nothing wrong, and
    a cold embedder's first pass, several seconds on a busy host, must not end the call's first write as
    "the database did not answer". The model's own deadline bounds a remote model's wait. Nested work counts once."""
    deadlines = _current.get()
    if deadlines is None or deadlines.in_model:
        yield
        return
    deadlines.in_model = True
    started = time.monotonic()
    try:
        yield
    finally:
        deadlines.in_model = False
        deadlines.database += time.monotonic() - started


def current() -> CallDeadlines | None:
    return _current.get()


def database_left() -> float | None:
    """Seconds left for the current public call's database work (≤ 0: passed), or None outside one."""
    deadlines = _current.get()
    return None if deadlines is None else deadlines.database - time.monotonic()


def model_left(kind: str, budget_s: float) -> float:
    """Seconds left for calls to the model ``kind`` in this public call; its ``budget_s`` starts at the
    first call. Outside a public call every model call has the whole ``budget_s``."""
    deadlines = _current.get()
    now = time.monotonic()
    if deadlines is None:
        return budget_s
    end = deadlines.models.setdefault(kind, now + budget_s)
    return end - now
