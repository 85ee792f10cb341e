"""The public surface is pinned (STYLE.md habit 1) and the async facade shares the sync core."""

from __future__ import annotations

import asyncio

import neuromem
from neuromem import AsyncMemory, Memory, Operation, Settings

#: The public surface, written out: adding or removing a name is a deliberate change of this list.
PUBLIC = {
    "Event",
    "EventPage",
    "Webhook",
    "add_webhook",
    "list_webhooks",
    "remove_webhook",
    "EXPORT_FORMATS",
    "AccessError",
    "ApiKey",
    "KeyStore",
    "key_store",
    "metrics_exposition",
    "openapi_document",
    "serve",
    "serve_mcp_stdio",
    "AsyncMemory",
    "AuthenticationError",
    "Citation",
    "ArchiveReport",
    "Archived",
    "CompactionReport",
    "CompressedGroup",
    "CompressionReport",
    "ConceptGroup",
    "ConceptReport",
    "ConfigError",
    "Conflict",
    "ConflictError",
    "ConflictNotFoundError",
    "ContentTooLongError",
    "DatabaseUnavailableError",
    "DocumentFile",
    "DocumentNotFoundError",
    "DocumentStatus",
    "EmbedderError",
    "EmbeddingDimensionError",
    "EmptyContentError",
    "Evidence",
    "ExportFormatError",
    "ExportReport",
    "ExportVersionError",
    "ExtensionError",
    "ForgetPreview",
    "ForgetReceipt",
    "ForgetTargetError",
    "HistoryEntry",
    "ImportReport",
    "IngestJob",
    "ImportSummary",
    "IngestReport",
    "InvalidFilterError",
    "JobNotFoundError",
    "InvalidInputError",
    "InvalidMetadataError",
    "InvalidTenantError",
    "InvalidTextError",
    "InvalidTurnError",
    "InvalidScopeError",
    "InvalidUserIdError",
    "LLMError",
    "LLMResponseError",
    "MarkdownSyncError",
    "Memory",
    "MemoryNotFoundError",
    "MemoryRecord",
    "MemoryType",
    "ModelError",
    "NeuromemError",
    "Neighbour",
    "NotFoundError",
    "Operation",
    "OutOfRangeError",
    "PIIRejectedError",
    "PayloadTooLargeError",
    "PermissionDeniedError",
    "PromptBlock",
    "PromptLine",
    "Provenance",
    "RetentionReport",
    "RecallDegradedError",
    "RecallRecipe",
    "ReceiptNotFoundError",
    "ReflectionReport",
    "Related",
    "RejectedMessage",
    "RequestTimeoutError",
    "ScheduledJob",
    "SchemaVersionError",
    "ScoreBreakdown",
    "SearchHit",
    "SearchResults",
    "ServerStop",
    "SessionEnd",
    "SessionNotFoundError",
    "Settings",
    "StoreError",
    "StoreStatus",
    "SyncReport",
    "TraitDetail",
    "TraitGroups",
    "TraitWriteError",
    "TriggerType",
    "UnknownMemoryTypeError",
    "VectorDimensionError",
    "VersionConflictError",
    "WriteResult",
    "__version__",
    "read_chat_export",
    "reembed",
    "run_worker",
    "scheduled_jobs",
    "settings_reference",
    "stop_embedded_server",
    "store_location",
    # issue 22: memctl status's model checks, and the files of the service a command leaves behind
    "ModelCheck",
    "check_models",
    "ServiceFiles",
    "service_auto_start",
    "service_files",
}


def test_exported_members() -> None:
    """``__all__`` is exactly ``PUBLIC`` (STYLE.md habit 1: httpx's ``test_exported_members``)."""
    import importlib

    assert set(neuromem.__all__) == PUBLIC, (set(neuromem.__all__) ^ PUBLIC)
    assert len(neuromem.__all__) == len(set(neuromem.__all__))
    exported_now = {name for name, value in vars(neuromem).items()
                    if not name.startswith("_") and not isinstance(value, type(importlib))}
    # names load on first use (PEP 562): what is loaded so far is public, and every public name loads
    assert exported_now <= PUBLIC, "neuromem/__init__.py and __all__ disagree"
    assert set(neuromem._EXPORTS) == PUBLIC - {"__version__"}
    assert all(getattr(neuromem, name) is not None for name in PUBLIC)


def test_every_error_is_exported() -> None:
    """Every error class neuromem can raise is importable from ``neuromem``."""
    from neuromem import errors

    defined = {name for name, value in vars(errors).items()
               if isinstance(value, type) and issubclass(value, errors.NeuromemError)}  # fmt: skip
    assert defined <= PUBLIC, defined - PUBLIC


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

    assert TARGET.read_text("utf-8") == generate(), "neuromem/async_memory.py is stale: python -m tools.gen_async"
    sync = {n: m for n, m in inspect.getmembers(Memory, inspect.isfunction) if not n.startswith("_")}
    coroutines = {n: m for n, m in inspect.getmembers(AsyncMemory, inspect.iscoroutinefunction)
                  if not n.startswith("_")}  # fmt: skip
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
