"""``memctl serve`` as a real process (graceful shutdown on SIGTERM), the serve.json handshake,
structured logs and OpenTelemetry spans."""

from __future__ import annotations

import json
import logging
import os
import signal
import socket
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest
import uvicorn

from neuromem import Settings
from neuromem.errors import AuthenticationError
from neuromem.service.api import logs
from neuromem.service.api.serve import HANDSHAKE_KEY, handshake, listening_socket
from tests.api.conftest import Service

ROOT = Path(__file__).resolve().parents[2]


def test_each_connection_to_the_service_sends_without_waiting_for_an_ack() -> None:
    """Nagle's algorithm off on every accepted connection: with it on, a keep-alive client waited for its
    delayed ACK (~40 ms) before the body of every response after the first."""
    listener = listening_socket(uvicorn.Config(app=None, host="127.0.0.1", port=0))
    try:
        listener.listen()
        with socket.create_connection(listener.getsockname()[:2]):
            accepted, _ = listener.accept()
            with accepted:
                assert accepted.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) != 0
    finally:
        listener.close()


def test_memctl_serve_process_answers_and_shuts_down_gracefully(service: Service, tmp_path: Path) -> None:
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT)]),
        "NEUROMEM_DATABASE_URL": service.settings.store.database_url.get_secret_value(),
        "NEUROMEM_EMBEDDER": "hashing",
        "NEUROMEM_EMBEDDER__DIM": "64",
        "NEUROMEM_EMBEDDING_DIM": "64",
        "NEUROMEM_SERVICE__PORT": "0",
    }
    log = tmp_path / "serve.log"
    with log.open("w") as out:
        proc = subprocess.Popen(
            [sys.executable, "-c", "from neuromem.cli.main import main; main()", "serve"],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        url = None
        deadline = time.monotonic() + 60
        while url is None and time.monotonic() < deadline and proc.poll() is None:
            for line in log.read_text().splitlines():
                if "running on http://" in line.lower():
                    url = line.split("running on ", 1)[1].split()[0]
            time.sleep(0.1)
        assert url, log.read_text()[-2000:]
        deadline = time.monotonic() + 60
        while not (banner := [line for line in log.read_text().splitlines() if "neuromem ready in" in line]):
            assert time.monotonic() < deadline and proc.poll() is None, log.read_text()[-2000:]
            time.sleep(0.1)
        assert [f"{url}{path}" in banner[0] for path in ("/docs", "/ui/", "/mcp", "/metrics")] == [
            True
        ] * 4, banner
        with httpx.Client(base_url=url, timeout=30) as c:
            assert c.get("/readyz").json()["status"] == "ready"
            r = c.post(
                "/v1/memories",
                json={"user_id": "p", "content": "secret plans for the weekend"},
                headers={
                    "Authorization": f"Bearer {service.tokens['default:write']}",
                    "X-Request-ID": "req-42",
                },
            )
            assert r.status_code == 201 and r.headers["x-request-id"] == "req-42"
    finally:
        proc.send_signal(signal.SIGTERM)
        code = proc.wait(30)
    assert code == 0
    lines = [json.loads(line) for line in log.read_text().splitlines() if line.startswith("{")]
    access = [
        e for e in lines if e.get("request_id") == "req-42" and e["logger"] == "neuromem.service.api.access"
    ]
    assert (
        access
        and access[0]["tenant"] == "default"
        and access[0]["user_id"] == "p"
        and access[0]["status"] == 201
    )
    assert "secret plans" not in log.read_text()  # memory content never reaches the INFO log


def test_serve_json_handshake(service: Service, tmp_path: Path) -> None:
    settings = Settings.model_validate(
        {
            **service.settings.model_dump(),
            "store": {**service.settings.store.model_dump(), "data_dir": tmp_path / "pgdata"},
        }
    )
    with handshake(service.memory, settings, "http://127.0.0.1:9999", enabled=True) as path:
        assert path == tmp_path / "serve.json"
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        data = json.loads(path.read_text())
        assert data["url"] == "http://127.0.0.1:9999" and data["pid"] == os.getpid()
        principal = service.keys.authenticate(data["token"])
        assert principal.tenant == "default" and principal.scope.label == "admin"
    assert not path.exists()
    with pytest.raises(AuthenticationError):
        service.keys.authenticate(data["token"])  # gone when the service stops
    # deleted, not revoked: a run leaves nothing in `memctl keys list --all` (issue 22 item 10)
    assert [k for k in service.keys.list(include_revoked=True) if k.name == HANDSHAKE_KEY] == []


def test_a_crashed_runs_key_is_deleted_by_the_next_run(service: Service, tmp_path: Path) -> None:
    settings = service.settings.with_updates(store={"data_dir": tmp_path / "pgdata"})
    stale = service.keys.create("default", "admin", name=HANDSHAKE_KEY)[1]  # a run that never cleaned up
    with handshake(service.memory, settings, "http://127.0.0.1:9999", enabled=True):
        with pytest.raises(AuthenticationError):
            service.keys.authenticate(stale)
        assert len([k for k in service.keys.list(include_revoked=True) if k.name == HANDSHAKE_KEY]) == 1


def test_readyz_waits_for_the_warm_embedder(service: Service) -> None:
    from neuromem import Memory
    from neuromem.embed.hashing import HashingEmbedder
    from neuromem.service.api.serve import ServiceServer

    gate = threading.Event()

    class SlowEmbedder(HashingEmbedder):
        def embed_batch(self, texts, *, kind):  # type: ignore[no-untyped-def]
            gate.wait(30)
            return super().embed_batch(texts, kind=kind)

    settings = service.settings.with_updates(service={"graceful_shutdown_s": 0, "mcp_http": False})
    with Memory(settings, embedder=SlowEmbedder(dim=64)) as memory, ServiceServer(memory, settings) as url:
        starting = httpx.get(url + "/readyz")
        assert starting.status_code == 503 and "embedder is still loading" in starting.text
        assert httpx.get(url + "/healthz").status_code == 200
        gate.set()
        deadline = time.monotonic() + 30
        while (ready := httpx.get(url + "/readyz")).status_code != 200 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert ready.json()["status"] == "ready"


def test_json_log_lines_carry_request_fields() -> None:
    record = logging.LogRecord(
        "neuromem.service.api.access", logging.INFO, __file__, 1, "POST %s %s", ("/v1/x", 201), None
    )
    token = logs.request_fields.set({"request_id": "r1"})
    try:
        logs.annotate(tenant="acme", user_id="alice", ignored=None)
        line = json.loads(logs.JsonFormatter().format(record))
    finally:
        logs.request_fields.reset(token)
    assert line["msg"] == "POST /v1/x 201" and line["level"] == "info"
    assert (line["request_id"], line["tenant"], line["user_id"]) == ("r1", "acme", "alice")
    assert "ignored" not in line


def test_opentelemetry_spans_per_request(service: Service) -> None:
    trace = pytest.importorskip("opentelemetry.sdk.trace")
    from opentelemetry import trace as api
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    exporter = InMemorySpanExporter()
    provider = trace.TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    api.set_tracer_provider(provider)
    with service.client("default:read") as c:
        c.post(
            "/v1/search", json={"user_id": "otel", "query": "anything"}, headers={"X-Request-ID": "span-1"}
        )
    deadline = time.monotonic() + 5  # the span ends just after the response is sent: wait for it
    while (
        not (
            spans := [
                s
                for s in exporter.get_finished_spans()
                if s.attributes.get("neuromem.request_id") == "span-1"
            ]
        )
        and time.monotonic() < deadline
    ):
        time.sleep(0.01)
    assert spans and spans[0].name == "POST /v1/search"
    assert spans[0].attributes["http.response.status_code"] == 200
    same_trace = [s for s in exporter.get_finished_spans() if s.context.trace_id == spans[0].context.trace_id]
    assert any("neuromem.recall.total_ms" in s.attributes for s in same_trace)  # on the endpoint's child span


def test_a_started_service_leaves_its_startup_heap_out_of_full_collections() -> None:
    """What ``memctl serve`` holds once ready is frozen: a full collection no longer walks it (a stall of
    130–155 ms in whichever request ran, with the model loaded, before)."""
    import gc

    from neuromem.service.api.serve import freeze_startup_heap

    held = [[n] for n in range(1000)]  # objects a started service keeps
    ids = {id(h) for h in held}
    assert sum(id(o) in ids for o in gc.get_objects()) == len(held)  # walked by every full collection
    before = gc.get_freeze_count()
    try:
        freeze_startup_heap()
        assert gc.get_freeze_count() >= before + len(held)
        assert not any(id(o) in ids for o in gc.get_objects())  # no collection walks them any more
    finally:
        gc.unfreeze()
