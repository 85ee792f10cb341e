"""The OpenAPI document is committed and agrees with the app; /metrics exposes what it promises."""

from __future__ import annotations

import json
from pathlib import Path

from tests.api.conftest import Service

DOC = Path(__file__).resolve().parents[2] / "docs" / "openapi.json"


def test_served_openapi_matches_docs_openapi_json(service: Service) -> None:
    with service.client(None) as c:
        served = c.get("/openapi.json").json()
    assert served["openapi"].startswith("3.1")
    assert served == json.loads(DOC.read_text("utf-8")), "regenerate: memctl openapi > docs/openapi.json"
    paths = set(served["paths"])
    assert {
        "/v1/search",
        "/v1/recall",
        "/v1/memories",
        "/v1/ingest",
        "/v1/traits",
        "/healthz",
        "/readyz",
    } <= paths
    assert served["components"]["securitySchemes"]["HTTPBearer"]["scheme"] == "bearer"


def test_metrics_content(service: Service) -> None:
    with service.client("default:write") as c:
        c.post(
            "/v1/ingest",
            json={
                "user_id": "met",
                "messages": [{"role": "user", "content": "I adopted a cat named Miso and I live in Osaka."}],
            },
        )
        c.post("/v1/search", json={"user_id": "met", "query": "cat"})
        c.post("/v1/recall", json={"user_id": "met", "query": "cat", "token_budget": 100})
        text = c.get("/metrics").text
    for name in (
        'neuromem_http_request_duration_seconds_count{method="POST",route="/v1/search",status="200"}',
        'neuromem_recall_stage_seconds_count{stage="bm25"}',
        "neuromem_ingest_turns_total",
        "neuromem_ingest_memories_total{",
        "neuromem_embeddings_pending",
        "neuromem_reflection_queue_depth",
        'neuromem_db_pool_connections{state="max"}',
    ):
        assert name in text, name
    turns = [ln for ln in text.splitlines() if ln.startswith("neuromem_ingest_turns_total")]
    assert float(turns[0].split()[-1]) >= 1
    assert "Miso" not in text and "met" not in text.replace("method", "")  # no content, no user ids


def test_model_usage_metrics(service: Service) -> None:
    with service.memory.runtime.db.transaction() as conn:
        conn.execute(
            "INSERT INTO model_usage (id, user_id, operation, model, prompt_tokens, completion_tokens, ok) "
            "VALUES (gen_random_uuid(), 'u', 'extract', 'fake-llm', 120, 30, true), "
            "(gen_random_uuid(), 'u', 'extract', 'fake-llm', 0, 0, false)"
        )
    with service.client(None) as c:
        text = c.get("/metrics").text
    assert 'neuromem_model_calls_total{model="fake-llm",operation="extract",outcome="ok"} 1.0' in text
    assert 'neuromem_model_calls_total{model="fake-llm",operation="extract",outcome="error"} 1.0' in text
    assert 'neuromem_model_tokens_total{kind="prompt",model="fake-llm",operation="extract"} 120.0' in text
