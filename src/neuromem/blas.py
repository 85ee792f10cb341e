"""BLAS on one thread for the duration of a call.

Multi-threaded OpenBLAS wakes (and then spins) its threads for any product above a small size:
on a 2-core machine that also runs PostgreSQL, one 40 × 384 similarity matrix for MMR took
~5 ms that way against 0.1 ms on one thread, and one query embedding over a second. The
bundled embedder (which parallelises with its own workers) and MMR run their products under
``single_threaded()``. The limit is process-wide while it lasts (it is BLAS's own setting).
"""

from __future__ import annotations

import threading
from contextlib import AbstractContextManager
from typing import Any

_LOCK = threading.Lock()
_CONTROLLER: Any = None


def single_threaded() -> AbstractContextManager[Any]:
    """A context in which BLAS uses one thread (~20 µs to enter and leave)."""
    global _CONTROLLER
    with _LOCK:
        if _CONTROLLER is None:
            from threadpoolctl import ThreadpoolController

            _CONTROLLER = ThreadpoolController()
    return _CONTROLLER.limit(limits=1, user_api="blas")
