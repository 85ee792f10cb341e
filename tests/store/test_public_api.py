"""The public surface is pinned (STYLE.md habit 1) and the async facade shares the sync core."""

from __future__ import annotations

import asyncio

import pytest

import neuromem
from neuromem import AsyncMemory, Memory, Operation, Settings

#: The front door, written out: adding or removing a name is a deliberate change of this list.
PUBLIC = {
    "Memory",
    "AsyncMemory",
    "Settings",
    "RecallRecipe",
    "__version__",
    # the data model and what Memory's methods return
    "DocumentFile",
    "DocumentStatus",
    "HistoryEntry",
    "MemoryRecord",
    "MemoryType",
    "Operation",
    "ScoreBreakdown",
    "SearchHit",
    "SearchResults",
    "WriteResult",
    "ArchiveReport",
    "CompactionReport",
    "CompressionReport",
    "ConceptReport",
    "Conflict",
    "EventPage",
    "ExportReport",
    "ForgetPreview",
    "ForgetReceipt",
    "ImportReport",
    "ImportSummary",
    "IngestJob",
    "IngestReport",
    "PromptBlock",
    "Provenance",
    "ReflectionReport",
    "Related",
    "RetentionReport",
    "SessionEnd",
    "StoreStatus",
    "SyncReport",
    "TraitDetail",
    "TraitGroups",
    "TriggerType",
    # the root of the error tree and its branches
    "NeuromemError",
    "AccessError",
    "ConfigError",
    "ConflictError",
    "InvalidInputError",
    "ModelError",
    "NotFoundError",
    "RequestTimeoutError",
    "StoreError",
}

#: the operator verbs (issue 25 item 5): ``neuromem.admin`` and ``neuromem.service``, never the front door
ADMIN = {
    "ModelCheck",
    "ScheduledJob",
    "ServerStop",
    "ServiceFiles",
    "Webhook",
    "add_webhook",
    "check_models",
    "list_webhooks",
    "read_chat_export",
    "reembed",
    "remove_webhook",
    "run_worker",
    "scheduled_jobs",
    "service_auto_start",
    "service_files",
    "settings_reference",
    "stop_embedded_server",
    "store_location",
}
SERVICE = {
    "ApiKey",
    "KeyStore",
    "key_store",
    "metrics_exposition",
    "openapi_document",
    "serve",
    "serve_mcp_stdio",
}


def test_exported_members() -> None:
    """``__all__`` is exactly ``PUBLIC`` (STYLE.md habit 1: httpx's ``test_exported_members``), derived
    from the one table ``_EXPORTS``; every name loads, and what is loaded is public."""
    import importlib

    assert set(neuromem.__all__) == PUBLIC, set(neuromem.__all__) ^ PUBLIC
    assert len(neuromem.__all__) == len(set(neuromem.__all__))
    table = [name for names in neuromem._EXPORTS.values() for name in names]
    assert sorted([*table, "__version__"]) == sorted(neuromem.__all__), "a name listed twice in _EXPORTS"
    assert all(getattr(neuromem, name) is not None for name in PUBLIC)
    exported_now = {
        name
        for name, value in vars(neuromem).items()
        if not name.startswith("_") and not isinstance(value, type(importlib))
    }
    assert exported_now <= PUBLIC, "neuromem/__init__.py and __all__ disagree"
    assert dir(neuromem) == sorted(PUBLIC)


def test_operator_verbs_live_in_admin_and_service() -> None:
    """The operator verbs left the front door for ``neuromem.admin`` and ``neuromem.service``."""
    import neuromem.admin
    import neuromem.service

    assert set(neuromem.admin.__all__) == ADMIN and set(neuromem.service.__all__) == SERVICE
    assert not (ADMIN | SERVICE) & set(neuromem.__all__)
    assert all(getattr(neuromem.admin, name) is not None for name in ADMIN)
    assert all(getattr(neuromem.service, name) is not None for name in SERVICE)
    for name in ("serve", "add_webhook", "MemoryNotFoundError"):
        with pytest.raises(AttributeError):
            getattr(neuromem, name)


def test_the_type_stub_is_generated_from_the_table() -> None:
    """Type checkers read ``__init__.pyi``: ``python -m tools.gen_exports`` keeps it in step."""
    from tools.gen_exports import TARGET, generate

    assert TARGET.read_text("utf-8") == generate(), (
        "neuromem/__init__.pyi is stale: python -m tools.gen_exports"
    )


def test_version_comes_from_the_package_metadata() -> None:
    """``__version__`` is the installed distribution's, whose one source is ``pyproject.toml``."""
    import tomllib
    from importlib.metadata import version
    from pathlib import Path

    project = tomllib.loads((Path(__file__).resolve().parents[2] / "pyproject.toml").read_text("utf-8"))
    assert neuromem.__version__ == version("neuromem") == project["project"]["version"]


def test_every_error_is_public() -> None:
    """Every error class is in ``neuromem.errors``; the front door exports the root and every branch
    (a direct subclass of ``NeuromemError``), so ``except neuromem.X`` catches any error."""
    from neuromem import errors

    defined = {
        value
        for value in vars(errors).values()
        if isinstance(value, type) and issubclass(value, errors.NeuromemError)
    }
    branches = {e.__name__ for e in defined if e.__bases__[0] is errors.NeuromemError}
    assert branches | {"NeuromemError"} == {n for n in PUBLIC if n.endswith("Error")}, branches


def _annotation_names(annotation: str) -> set[str]:
    import ast

    return {n.id for n in ast.walk(ast.parse(annotation, mode="eval")) if isinstance(n, ast.Name)}


def test_every_public_return_type_is_exported() -> None:
    """What a public method of ``Memory`` returns is a public type (never a store row or a private class)."""
    import builtins
    import inspect

    allowed = PUBLIC | set(dir(builtins)) | {"Any", "Self"}
    for name, method in inspect.getmembers(Memory, inspect.isfunction):
        if name.startswith("_"):
            continue
        returned = inspect.signature(method).return_annotation
        assert isinstance(returned, str), name  # postponed annotations: the source text
        missing = _annotation_names(returned) - allowed
        assert not missing, f"Memory.{name} returns {returned}: {missing} not exported from neuromem"


def test_async_memory_matches_memory() -> None:
    """``AsyncMemory`` has a real ``async def`` for every public method of ``Memory``, with the same
    parameters, defaults and return type; the generated module is up to date."""
    import inspect

    from tools.gen_async import TARGET, generate

    assert TARGET.read_text("utf-8") == generate(), (
        "neuromem/async_memory.py is stale: python -m tools.gen_async"
    )
    sync = {n: m for n, m in inspect.getmembers(Memory, inspect.isfunction) if not n.startswith("_")}
    coroutines = {
        n: m for n, m in inspect.getmembers(AsyncMemory, inspect.iscoroutinefunction) if not n.startswith("_")
    }
    assert set(coroutines) - {"create", "from_env"} == set(sync), set(coroutines) ^ set(sync)
    for name, method in sync.items():
        assert inspect.signature(coroutines[name]) == inspect.signature(method), name


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
    s = Settings.from_env(
        {
            "NEUROMEM_EMBEDDER": "hashing",
            "NEUROMEM_STORE__EMBEDDING_DIM": "128",
            "NEUROMEM_EMBEDDER__MODE": "async",
            "NEUROMEM_RECALL__RRF_K": "30",
            "HOME": "/x",
        }
    )
    assert (s.embedder.provider, s.store.embedding_dim, s.embedder.mode, s.recall.rrf_k) == (
        "hashing",
        128,
        "async",
        30,
    )


def test_bad_settings_are_one_clear_error() -> None:
    import pytest

    from neuromem.errors import ConfigError

    with pytest.raises(ConfigError, match=r"store\.embedding_dim"):
        Settings.from_env({"NEUROMEM_STORE__EMBEDDING_DIM": "lots"})
    with pytest.raises(ConfigError, match="provider"):
        Settings.from_env({"NEUROMEM_EMBEDDER": "word2vec"})
