"""Schemathesis against the committed OpenAPI document and the running service (bounded examples):
no 5xx, and every response conforms to the documented schema, status codes and content types."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from tests.api.conftest import Service

DOC = json.loads((Path(__file__).resolve().parents[2] / "docs" / "openapi.json").read_text("utf-8"))
schemathesis.serializer.alias(
    [
        "application/x-ndjson",
        "application/jsonl",
        "application/pdf",
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    ],
    "application/octet-stream",
)
schema = schemathesis.openapi.from_dict(DOC)
CHECKS = [not_a_server_error, response_schema_conformance, status_code_conformance, content_type_conformance]


@schema.exclude(path="/v1/jobs/{name}/run").parametrize()
# psycopg_pool draws each new connection's expiry jitter from the global `random` module in
# its own threads; Hypothesis sees the global state move while it draws a case and calls it
# "random inside a strategy". Our strategies use none, so that one warning is not an error here.
@pytest.mark.filterwarnings("ignore:Do not use the .random. module inside strategies")
@settings(
    max_examples=6,
    deadline=None,
    derandomize=True,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.filter_too_much,
    ],
)
def test_api_conforms_to_its_openapi_document(case, service: Service) -> None:  # type: ignore[no-untyped-def]
    response = case.call(
        base_url=service.url, headers={"Authorization": f"Bearer {service.tokens['acme:admin']}"}
    )
    case.validate_response(response, checks=CHECKS)
