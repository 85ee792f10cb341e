"""neuromem — long-term memory for LLM agents on PostgreSQL + pgvector, offline by default.

The public surface is what ``__all__`` lists; everything else is private. Names are imported on
first use (PEP 562), so ``import neuromem`` and the command line stay fast: a ``memctl`` command
that talks to a running service never loads the store, the recall pipeline or a model.
"""

import importlib
import typing

if typing.TYPE_CHECKING:
    from .admin import (
        ScheduledJob,
        ServerStop,
        read_chat_export,
        reembed,
        run_worker,
        scheduled_jobs,
        settings_reference,
        stop_embedded_server,
    )
    from .config import Settings
    from .errors import (
        ConflictError,
        ContentTooLongError,
        DatabaseUnavailableError,
        EmbedderError,
        EmbeddingDimensionError,
        EmptyContentError,
        ExportFormatError,
        ExportVersionError,
        ExtensionError,
        InvalidFilterError,
        InvalidInputError,
        InvalidMetadataError,
        InvalidTextError,
        InvalidUserIdError,
        LLMError,
        LLMResponseError,
        MarkdownSyncError,
        MemoryNotFoundError,
        NeuromemError,
        NotFoundError,
        OutOfRangeError,
        PIIRejectedError,
        RecallDegradedError,
        SchemaVersionError,
        StoreError,
        UnknownMemoryTypeError,
        VectorDimensionError,
        VersionConflictError,
    )
    from .lifecycle.conflicts import Conflict
    from .lifecycle.forget import ForgetPreview, ForgetReceipt
    from .memory import AsyncMemory, Memory
    from .portability.export import ExportReport
    from .portability.format import EXPORT_FORMATS
    from .portability.importer import ImportReport
    from .portability.markdown_sync import SyncReport
    from .recall.packing import Citation
    from .recall.prompt import PromptBlock, PromptLine
    from .recall.recipes import RecallRecipe
    from .store.documents import DocumentStatus
    from .store.status import StoreStatus
    from .types import (
        HistoryEntry,
        MemoryRecord,
        MemoryType,
        Operation,
        ScoreBreakdown,
        SearchHit,
        SearchResults,
        WriteResult,
    )

_EXPORTS: dict[str, str] = {  # public name → the module that defines it
    "ScheduledJob": ".admin",
    "ServerStop": ".admin",
    "read_chat_export": ".admin",
    "reembed": ".admin",
    "run_worker": ".admin",
    "scheduled_jobs": ".admin",
    "settings_reference": ".admin",
    "stop_embedded_server": ".admin",
    "StoreStatus": ".store.status",
    "DocumentStatus": ".store.documents",
    "Settings": ".config",
    "ConflictError": ".errors",
    "RecallDegradedError": ".errors",
    "OutOfRangeError": ".errors",
    "InvalidTextError": ".errors",
    "InvalidMetadataError": ".errors",
    "ContentTooLongError": ".errors",
    "DatabaseUnavailableError": ".errors",
    "EmbedderError": ".errors",
    "EmbeddingDimensionError": ".errors",
    "EmptyContentError": ".errors",
    "ExtensionError": ".errors",
    "InvalidFilterError": ".errors",
    "InvalidInputError": ".errors",
    "InvalidUserIdError": ".errors",
    "LLMError": ".errors",
    "LLMResponseError": ".errors",
    "MemoryNotFoundError": ".errors",
    "NeuromemError": ".errors",
    "NotFoundError": ".errors",
    "PIIRejectedError": ".errors",
    "SchemaVersionError": ".errors",
    "StoreError": ".errors",
    "UnknownMemoryTypeError": ".errors",
    "VectorDimensionError": ".errors",
    "VersionConflictError": ".errors",
    "Conflict": ".lifecycle.conflicts",
    "ForgetPreview": ".lifecycle.forget",
    "ForgetReceipt": ".lifecycle.forget",
    "AsyncMemory": ".memory",
    "Memory": ".memory",
    "Citation": ".recall.packing",
    "PromptBlock": ".recall.prompt",
    "PromptLine": ".recall.prompt",
    "RecallRecipe": ".recall.recipes",
    "HistoryEntry": ".types",
    "MemoryRecord": ".types",
    "MemoryType": ".types",
    "Operation": ".types",
    "ScoreBreakdown": ".types",
    "SearchHit": ".types",
    "SearchResults": ".types",
    "WriteResult": ".types",
    "ExportReport": ".portability.export",
    "EXPORT_FORMATS": ".portability.format",
    "ImportReport": ".portability.importer",
    "SyncReport": ".portability.markdown_sync",
    "ExportFormatError": ".errors",
    "ExportVersionError": ".errors",
    "MarkdownSyncError": ".errors",
}

__version__ = "0.1.0"

__all__ = [
    "EXPORT_FORMATS",
    "AsyncMemory",
    "Citation",
    "Conflict",
    "ConflictError",
    "ContentTooLongError",
    "DatabaseUnavailableError",
    "DocumentStatus",
    "EmbedderError",
    "EmbeddingDimensionError",
    "EmptyContentError",
    "ExportFormatError",
    "ExportReport",
    "ExportVersionError",
    "ExtensionError",
    "ForgetPreview",
    "ForgetReceipt",
    "HistoryEntry",
    "ImportReport",
    "InvalidFilterError",
    "InvalidInputError",
    "InvalidMetadataError",
    "InvalidTextError",
    "InvalidUserIdError",
    "LLMError",
    "LLMResponseError",
    "MarkdownSyncError",
    "Memory",
    "MemoryNotFoundError",
    "MemoryRecord",
    "MemoryType",
    "NeuromemError",
    "NotFoundError",
    "Operation",
    "OutOfRangeError",
    "PIIRejectedError",
    "PromptBlock",
    "PromptLine",
    "RecallDegradedError",
    "RecallRecipe",
    "ScheduledJob",
    "SchemaVersionError",
    "ScoreBreakdown",
    "SearchHit",
    "SearchResults",
    "ServerStop",
    "Settings",
    "StoreError",
    "StoreStatus",
    "SyncReport",
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
]


def __getattr__(name: str) -> typing.Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'neuromem' has no attribute {name!r}")
    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
