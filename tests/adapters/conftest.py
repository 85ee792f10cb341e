"""The adapters read settings the way their frameworks' users start them: from the environment."""

from __future__ import annotations

import pytest

from neuromem import Settings


@pytest.fixture
def neuromem_env(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> Settings:
    """``NEUROMEM_*`` variables pointing at this test's database and the test embedder."""
    assert settings.store.database_url
    monkeypatch.setenv("NEUROMEM_DATABASE_URL", settings.store.database_url.get_secret_value())
    monkeypatch.setenv("NEUROMEM_EMBEDDER", "hashing")
    monkeypatch.setenv("NEUROMEM_EMBEDDER__DIM", str(settings.store.embedding_dim))
    monkeypatch.setenv("NEUROMEM_EMBEDDING_DIM", str(settings.store.embedding_dim))
    return settings
