"""Issue 22 item 10: an error of another tenant's request names the caller's user id, never the
stored key (``t=<tenant>/<user>``)."""

from __future__ import annotations

import uuid

from .conftest import Service


def test_a_404_names_the_callers_user_id_not_the_stored_key(service: Service) -> None:
    missing = uuid.uuid4()
    with service.client("acme:read") as c:
        response = c.get(f"/v1/memories/{missing}", params={"user_id": "lin"})
    assert response.status_code == 404
    detail = response.json()["detail"]
    assert "'lin'" in detail and str(missing) in detail
    assert "t=" not in detail and "acme/" not in detail
