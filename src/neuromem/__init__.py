"""neuromem — long-term memory for LLM agents on PostgreSQL + pgvector, offline by default.

This is the library's front door: ``Memory`` and ``AsyncMemory``, ``Settings``, what their methods
return, and the branches of the error tree (every error class is in ``neuromem.errors``). Operator
verbs live in ``neuromem.admin`` (server, worker, re-embedding, webhooks…) and
``neuromem.service`` (the REST and MCP service, API keys). Everything else is private.

``_EXPORTS`` below is the one table of public names; ``__all__`` is derived from it, and type
checkers read ``__init__.pyi``, generated from it (``python -m tools.gen_exports``). Names are
imported on first use (PEP 562), so ``import neuromem`` and the command line stay fast: a
``memctl`` command that talks to a running service never loads the store, the recall pipeline or
a model.
"""

import importlib
import typing

_EXPORTS: dict[str, tuple[str, ...]] = {  # the module that defines them → public names
    ".memory": ("Memory",),
    ".async_memory": ("AsyncMemory",),
    ".config": ("Settings",),
    ".recall.recipes": ("RecallRecipe",),
    # the data model, and what Memory's methods return
    ".types": (
        "DocumentFile",
        "DocumentStatus",
        "ForgetReceipt",
        "HistoryEntry",
        "MemoryRecord",
        "MemoryType",
        "Operation",
        "ScoreBreakdown",
        "SearchHit",
        "SearchResults",
        "WriteResult",
    ),
    ".ingest.async_jobs": ("IngestJob",),
    ".ingest.chat_export": ("ImportSummary",),
    ".ingest.pipeline": ("IngestReport", "SessionEnd"),
    ".ingest.provenance": ("Provenance",),
    ".lifecycle.archive": ("ArchiveReport",),
    ".lifecycle.compaction": ("CompactionReport",),
    ".lifecycle.compress": ("CompressionReport",),
    ".lifecycle.concepts": ("ConceptReport",),
    ".conflicts": ("Conflict",),
    ".lifecycle.forget": ("ForgetPreview",),
    ".lifecycle.retention": ("RetentionReport",),
    ".lifecycle.webhooks": ("EventPage",),
    ".portability.export": ("ExportReport",),
    ".portability.importer": ("ImportReport",),
    ".portability.markdown_sync": ("SyncReport",),
    ".recall.prompt": ("PromptBlock",),
    ".recall.related": ("Related",),
    ".reflect.engine": ("ReflectionReport",),
    ".reflect.math": ("TriggerType",),
    ".reflect.service": ("TraitDetail", "TraitGroups"),
    ".store.status": ("StoreStatus",),
    # the root of the error tree and its branches: what a caller catches (leaves: neuromem.errors)
    ".errors": (
        "NeuromemError",
        "AccessError",
        "ConfigError",
        "ConflictError",
        "InvalidInputError",
        "ModelError",
        "NotFoundError",
        "RequestTimeoutError",
        "StoreError",
    ),
}

_MODULE_OF = {name: module for module, names in _EXPORTS.items() for name in names}

__all__ = sorted([*_MODULE_OF, "__version__"])


def _version() -> str:
    """The installed distribution's version: ``pyproject.toml`` is its one source."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("neuromem")
    except PackageNotFoundError:  # a source tree that was never installed
        return "0+unknown"


def __getattr__(name: str) -> typing.Any:
    if name == "__version__":
        value: typing.Any = _version()
    elif (module := _MODULE_OF.get(name)) is not None:
        value = getattr(importlib.import_module(module, __name__), name)
    else:
        raise AttributeError(f"module 'neuromem' has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return __all__
