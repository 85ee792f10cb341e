"""The trace of one recall: stage timings, the path each retriever took, and (when asked) the
candidates of every stage (``Memory.search(trace=True)``, ``memctl recall --trace``)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, TypeVar

from .fusion import Ranked

T = TypeVar("T")
#: the path of a retriever that needs the query vector when the embedder gave none (a degraded path)
NO_VECTOR = "skipped: no query vector (embedder unavailable)"


class Trace:
    """Stage timings, candidates and notes; cheap when not requested (only timings kept)."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self.timings_ms: dict[str, float] = {}
        self.paths: dict[str, str] = {}  # retriever → "ran" | "off" | "skipped: …" | "failed: …"
        self.stages: dict[str, Any] = {}

    def timed(self, name: str, fn: Callable[[], T]) -> T:
        start = time.perf_counter()
        try:
            return fn()
        finally:
            self.timings_ms[name] = round((time.perf_counter() - start) * 1000, 3)

    def candidates(self, name: str, hits: list[Ranked]) -> None:
        if self.enabled:
            self.stages[name] = [{"id": str(h.id), "rank": h.rank, "score": round(h.score, 6)} for h in hits]

    def degraded(self) -> tuple[str, ...]:
        """Paths that were wanted but failed, or had no query vector because the embedder failed."""
        return tuple(
            f"{k}: {v}" for k, v in sorted(self.paths.items()) if v.startswith("failed") or v == NO_VECTOR
        )

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"paths": dict(self.paths), "timings_ms": dict(self.timings_ms)}
        out["degraded"] = sorted(k for k, v in self.paths.items() if v != "ran")
        if self.enabled:
            out["stages"] = self.stages
        return out


__all__ = ["NO_VECTOR", "Trace"]
