"""``memctl keys create|list|revoke`` and ``memctl metrics``."""

from __future__ import annotations


def test_keys_lifecycle_and_metrics(memctl) -> None:  # type: ignore[no-untyped-def]
    created = memctl(
        "keys", "create", "--tenant", "acme", "--scope", "read", "--user-id", "alice", "--name", "ci"
    )
    assert created.exit_code == 0, created.output
    token = next(line.split()[1] for line in created.output.splitlines() if line.startswith("token:"))
    key_id = next(line.split()[1] for line in created.output.splitlines() if line.startswith("id:"))
    assert token.startswith("nmk_") and "alice" in created.output

    listed = memctl("keys", "list", "--tenant", "acme")
    assert key_id in listed.output and "read" in listed.output and token not in listed.output

    assert memctl("keys", "revoke", key_id).exit_code == 0
    assert key_id not in memctl("keys", "list").output
    assert "revoked" in memctl("keys", "list", "--all").output
    assert memctl("keys", "revoke", "not-a-key").exit_code == 2
    assert memctl("keys", "create", "--tenant", "Bad Name").exit_code == 2

    metrics = memctl("metrics")
    assert metrics.exit_code == 0
    assert (
        "neuromem_embeddings_pending" in metrics.output and "neuromem_db_pool_connections" in metrics.output
    )
