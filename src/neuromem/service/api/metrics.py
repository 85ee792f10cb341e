"""Prometheus metrics of the service (issue #15, seed 003 §11 and §13).

Two kinds of figures:

- **process** metrics the service observes as requests run: request latency per route,
  recall stage timings, ingest turns / memories written / drops by reason, job runs and
  failures (``ServiceMetrics``);
- **database** metrics read at scrape time, so they hold for any process that wrote them:
  embedder and LLM calls, errors and tokens (``model_usage``), memories waiting for an
  embedding, the reflection queue and the connection pool (``StoreCollector``).
  ``memctl metrics`` prints the database ones without a running service.

Only ``prometheus_client`` is needed (the ``service`` extra); labels never carry user
ids or content.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from ...lifecycle.backfill import turn_max_chars
from ...memory import Memory
from ...store import usage
from ...store.scope import suspended
from ...store.status import count_pending_vectors

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
_LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)


class ServiceMetrics:
    """The figures a running service observes; one registry per app (tests build several apps)."""

    def __init__(self, memory: Memory) -> None:
        self.registry = CollectorRegistry(auto_describe=False)
        r = self.registry
        self.requests = Histogram(
            "neuromem_http_request_duration_seconds",
            "HTTP request latency by route",
            ["method", "route", "status"],
            buckets=_LATENCY_BUCKETS,
            registry=r,
        )
        self.recall_stage = Histogram(
            "neuromem_recall_stage_seconds",
            "Time spent in each recall stage",
            ["stage"],
            buckets=_LATENCY_BUCKETS,
            registry=r,
        )
        self.ingest_turns = Counter("neuromem_ingest_turns", "Conversation turns ingested", registry=r)
        self.ingest_memories = Counter(
            "neuromem_ingest_memories", "Memories written by ingest, by operation", ["operation"], registry=r
        )
        self.ingest_dropped = Counter(
            "neuromem_ingest_dropped", "Ingest candidates dropped, by reason", ["reason"], registry=r
        )
        self.jobs = Counter(
            "neuromem_job_runs",
            "Scheduled job runs through the API, by outcome",
            ["job", "outcome"],
            registry=r,
        )
        self.proxy_degraded = Counter(
            "neuromem_proxy_degraded",
            "Proxied chats that went on without memory, by the step that failed (recall, ingest)",
            ["stage"],
            registry=r,
        )
        self.proxy_upstream_errors = Counter(
            "neuromem_proxy_upstream_errors",
            "Proxied chats the upstream model failed (answered 502)",
            registry=r,
        )
        r.register(StoreCollector(memory))

    def observe_recall(self, trace: dict[str, Any]) -> None:
        for stage, ms in (trace.get("timings_ms") or {}).items():
            self.recall_stage.labels(stage).observe(float(ms) / 1000.0)

    def observe_ingest(self, turns: int, results: Any, dropped: dict[str, int]) -> None:
        self.ingest_turns.inc(turns)
        for result in results:
            self.ingest_memories.labels(str(getattr(result.operation, "value", result.operation))).inc()
        for reason, n in dropped.items():
            self.ingest_dropped.labels(reason).inc(n)

    def exposition(self) -> bytes:
        return generate_latest(self.registry)


class StoreCollector(Collector):
    """Figures read from the database (as the owner: they span every tenant) and the process state."""

    def __init__(self, memory: Memory) -> None:
        self.memory = memory

    def collect(self) -> Iterator[Metric]:
        runtime = self.memory.runtime
        calls = CounterMetricFamily(
            "neuromem_model_calls",
            "Embedder and LLM calls recorded in model_usage",
            labels=["operation", "model", "outcome"],
        )
        tokens = CounterMetricFamily(
            "neuromem_model_tokens", "Tokens of recorded model calls", labels=["operation", "model", "kind"]
        )
        with suspended(), runtime.db.connection() as conn:
            rows = usage.totals(conn)
            pending = sum(count_pending_vectors(conn, None, turn_max_chars(runtime.settings)))
        for row in rows:
            calls.add_metric([row["operation"], row["model"], "ok" if row["ok"] else "error"], row["n"])
            tokens.add_metric([row["operation"], row["model"], "prompt"], row["p"])
            tokens.add_metric([row["operation"], row["model"], "completion"], row["c"])
        yield calls
        yield tokens
        yield GaugeMetricFamily(
            "neuromem_embeddings_pending", "Memories and turns waiting for a vector", value=pending
        )
        reflection = self.memory.__dict__.get("_reflection")
        queue = None if reflection is None else reflection.queue
        yield GaugeMetricFamily(
            "neuromem_reflection_queue_depth",
            "Users waiting for a reflection run",
            value=0 if queue is None else len(queue._pending),
        )
        failures = CounterMetricFamily(
            "neuromem_reflection_failures", "Background reflection runs that failed"
        )
        failures.add_metric([], 0 if queue is None else len(queue.errors))
        yield failures
        stats = runtime.db.pool.get_stats()
        pool = GaugeMetricFamily("neuromem_db_pool_connections", "Connection pool usage", labels=["state"])
        size, idle = stats.get("pool_size", 0), stats.get("pool_available", 0)
        pool.add_metric(["open"], size)
        pool.add_metric(["idle"], idle)
        pool.add_metric(["busy"], size - idle)
        pool.add_metric(["waiting_requests"], stats.get("requests_waiting", 0))
        pool.add_metric(["max"], runtime.settings.store.pool_max_size)
        yield pool


def store_exposition(memory: Memory) -> bytes:
    """The database figures alone, for ``memctl metrics`` (no service running)."""
    registry = CollectorRegistry(auto_describe=False)
    registry.register(StoreCollector(memory))
    return generate_latest(registry)
