"""The public surface is pinned (STYLE.md habit 1) and the async facade shares the sync core."""

from __future__ import annotations

import asyncio

import neuromem
from neuromem import AsyncMemory, Memory, Operation, Settings


def test_exported_members() -> None:
    """Adding to or removing from the public surface is a deliberate change: update this list."""
    import importlib

    expected = set(neuromem.__all__) - {"__version__"}
    exported_now = {name for name, value in vars(neuromem).items()
                    if not name.startswith("_") and not isinstance(value, type(importlib))}
    # names load on first use (PEP 562): what is loaded so far is public, and every public name loads
    assert exported_now <= expected, "neuromem/__init__.py and __all__ disagree"
    assert set(neuromem._EXPORTS) == expected
    assert all(getattr(neuromem, name) is not None for name in expected)
    assert len(neuromem.__all__) == len(set(neuromem.__all__))
    assert {"Memory", "AsyncMemory", "Settings", "NeuromemError", "SearchResults", "InvalidInputError"} <= expected


def test_async_memory_round_trip(settings: Settings) -> None:
    async def scenario() -> None:
        async with await AsyncMemory.create(settings) as m:
            added = (await m.add("Jun learns the guzheng", user_id="jun"))[0]
            assert added.operation is Operation.ADD
            hits = await m.search("guzheng", user_id="jun")
            assert hits[0].memory.id == added.memory.id
            assert len(await m.get_all(user_id="jun")) == 1
            assert isinstance(m.sync, Memory)

    asyncio.run(scenario())


def test_settings_from_env_parses_types_and_aliases() -> None:
    s = Settings.from_env({"NEUROMEM_EMBEDDER": "hashing", "NEUROMEM_STORE__EMBEDDING_DIM": "128",
                           "NEUROMEM_EMBEDDER__MODE": "async", "NEUROMEM_RECALL__RRF_K": "30", "HOME": "/x"})
    assert (s.embedder.provider, s.store.embedding_dim, s.embedder.mode, s.recall.rrf_k) == ("hashing", 128, "async", 30)


def test_bad_settings_are_one_clear_error() -> None:
    import pytest

    from neuromem.errors import ConfigError

    with pytest.raises(ConfigError, match=r"store\.embedding_dim"):
        Settings.from_env({"NEUROMEM_STORE__EMBEDDING_DIM": "lots"})
    with pytest.raises(ConfigError, match="provider"):
        Settings.from_env({"NEUROMEM_EMBEDDER": "word2vec"})
