"""Pytest fixtures for the fake OpenAI-compatible server; import them into a conftest::

# tests/<package>/conftest.py
from tests.fakes.fixtures import fake_openai  # noqa: F401
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from .openai_server import FakeOpenAI


@pytest.fixture
def fake_openai() -> Iterator[FakeOpenAI]:
    """A fresh fake server per test, stopped afterwards."""
    with FakeOpenAI() as fake:
        yield fake
