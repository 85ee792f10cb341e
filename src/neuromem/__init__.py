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
    from .api.handles import (
        ApiKey,
        KeyStore,
        key_store,
        metrics_exposition,
        openapi_document,
        serve,
        serve_mcp_stdio,
    )
    from .async_memory import AsyncMemory
    from .config import Settings
    from .env_names import store_location
    from .errors import (
        AccessError,
        AuthenticationError,
        ConfigError,
        ConflictError,
        ConflictNotFoundError,
        ContentTooLongError,
        DatabaseUnavailableError,
        DocumentNotFoundError,
        EmbedderError,
        EmbeddingDimensionError,
        EmptyContentError,
        ExportFormatError,
        ExportVersionError,
        ExtensionError,
        ForgetTargetError,
        InvalidFilterError,
        InvalidInputError,
        InvalidMetadataError,
        InvalidTenantError,
        InvalidTextError,
        InvalidTurnError,
        InvalidUserIdError,
        LLMError,
        LLMResponseError,
        MarkdownSyncError,
        MemoryNotFoundError,
        ModelError,
        NeuromemError,
        NotFoundError,
        OutOfRangeError,
        PayloadTooLargeError,
        PermissionDeniedError,
        PIIRejectedError,
        RecallDegradedError,
        ReceiptNotFoundError,
        RequestTimeoutError,
        SchemaVersionError,
        SessionNotFoundError,
        StoreError,
        TraitWriteError,
        UnknownMemoryTypeError,
        VectorDimensionError,
        VersionConflictError,
    )
    from .ingest.chat_export import ImportSummary
    from .ingest.pipeline import IngestReport, SessionEnd
    from .ingest.provenance import Provenance
    from .ingest.turns import RejectedMessage
    from .lifecycle.archive import Archived, ArchiveReport
    from .lifecycle.compaction import CompactionReport
    from .lifecycle.compress import CompressedGroup, CompressionReport
    from .lifecycle.concepts import ConceptGroup, ConceptReport
    from .lifecycle.conflicts import Conflict
    from .lifecycle.forget import ForgetPreview, ForgetReceipt
    from .lifecycle.retention import RetentionReport
    from .lifecycle.tiers import Promotion
    from .memory import Memory
    from .portability.export import ExportReport
    from .portability.format import EXPORT_FORMATS
    from .portability.importer import ImportReport
    from .portability.markdown_sync import SyncReport
    from .recall.packing import Citation
    from .recall.prompt import PromptBlock, PromptLine
    from .recall.recipes import RecallRecipe
    from .reflect.engine import ReflectionReport
    from .reflect.math import TriggerType
    from .reflect.service import TraitDetail, TraitGroups
    from .store.status import StoreStatus
    from .store.traits import Evidence
    from .types import (
        DocumentFile,
        DocumentStatus,
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
    # the service face (the `service` extra): what memctl serve / mcp / metrics / openapi / keys use
    "ApiKey": ".api.handles",
    "KeyStore": ".api.handles",
    "key_store": ".api.handles",
    "metrics_exposition": ".api.handles",
    "openapi_document": ".api.handles",
    "serve": ".api.handles",
    "serve_mcp_stdio": ".api.handles",
    "store_location": ".env_names",
    "ScheduledJob": ".admin",
    "ServerStop": ".admin",
    "read_chat_export": ".admin",
    "reembed": ".admin",
    "run_worker": ".admin",
    "scheduled_jobs": ".admin",
    "settings_reference": ".admin",
    "stop_embedded_server": ".admin",
    "AsyncMemory": ".async_memory",
    "Settings": ".config",
    "AccessError": ".errors",
    "AuthenticationError": ".errors",
    "ConfigError": ".errors",
    "ConflictError": ".errors",
    "ConflictNotFoundError": ".errors",
    "ContentTooLongError": ".errors",
    "DatabaseUnavailableError": ".errors",
    "DocumentNotFoundError": ".errors",
    "EmbedderError": ".errors",
    "EmbeddingDimensionError": ".errors",
    "EmptyContentError": ".errors",
    "ExportFormatError": ".errors",
    "ExportVersionError": ".errors",
    "ExtensionError": ".errors",
    "ForgetTargetError": ".errors",
    "InvalidFilterError": ".errors",
    "InvalidInputError": ".errors",
    "InvalidMetadataError": ".errors",
    "InvalidTenantError": ".errors",
    "InvalidTextError": ".errors",
    "InvalidTurnError": ".errors",
    "InvalidUserIdError": ".errors",
    "LLMError": ".errors",
    "LLMResponseError": ".errors",
    "MarkdownSyncError": ".errors",
    "MemoryNotFoundError": ".errors",
    "ModelError": ".errors",
    "NeuromemError": ".errors",
    "NotFoundError": ".errors",
    "OutOfRangeError": ".errors",
    "PIIRejectedError": ".errors",
    "PayloadTooLargeError": ".errors",
    "PermissionDeniedError": ".errors",
    "RecallDegradedError": ".errors",
    "ReceiptNotFoundError": ".errors",
    "RequestTimeoutError": ".errors",
    "SchemaVersionError": ".errors",
    "SessionNotFoundError": ".errors",
    "StoreError": ".errors",
    "TraitWriteError": ".errors",
    "UnknownMemoryTypeError": ".errors",
    "VectorDimensionError": ".errors",
    "VersionConflictError": ".errors",
    "ImportSummary": ".ingest.chat_export",
    "IngestReport": ".ingest.pipeline",
    "SessionEnd": ".ingest.pipeline",
    "Provenance": ".ingest.provenance",
    "RejectedMessage": ".ingest.turns",
    "Archived": ".lifecycle.archive",
    "ArchiveReport": ".lifecycle.archive",
    "CompactionReport": ".lifecycle.compaction",
    "CompressedGroup": ".lifecycle.compress",
    "ConceptGroup": ".lifecycle.concepts",
    "ConceptReport": ".lifecycle.concepts",
    "CompressionReport": ".lifecycle.compress",
    "Conflict": ".lifecycle.conflicts",
    "ForgetPreview": ".lifecycle.forget",
    "ForgetReceipt": ".lifecycle.forget",
    "RetentionReport": ".lifecycle.retention",
    "Promotion": ".lifecycle.tiers",
    "Memory": ".memory",
    "ExportReport": ".portability.export",
    "EXPORT_FORMATS": ".portability.format",
    "ImportReport": ".portability.importer",
    "SyncReport": ".portability.markdown_sync",
    "Citation": ".recall.packing",
    "PromptBlock": ".recall.prompt",
    "PromptLine": ".recall.prompt",
    "RecallRecipe": ".recall.recipes",
    "ReflectionReport": ".reflect.engine",
    "TriggerType": ".reflect.math",
    "TraitDetail": ".reflect.service",
    "TraitGroups": ".reflect.service",
    "StoreStatus": ".store.status",
    "Evidence": ".store.traits",
    "DocumentFile": ".types",
    "DocumentStatus": ".types",
    "HistoryEntry": ".types",
    "MemoryRecord": ".types",
    "MemoryType": ".types",
    "Operation": ".types",
    "ScoreBreakdown": ".types",
    "SearchHit": ".types",
    "SearchResults": ".types",
    "WriteResult": ".types",
}

__version__ = "0.1.0"

__all__ = [
    "EXPORT_FORMATS",
    "AccessError",
    "ApiKey",
    "ArchiveReport",
    "Archived",
    "AsyncMemory",
    "AuthenticationError",
    "Citation",
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
    "ImportSummary",
    "IngestReport",
    "InvalidFilterError",
    "InvalidInputError",
    "InvalidMetadataError",
    "InvalidTenantError",
    "InvalidTextError",
    "InvalidTurnError",
    "InvalidUserIdError",
    "KeyStore",
    "LLMError",
    "LLMResponseError",
    "MarkdownSyncError",
    "Memory",
    "MemoryNotFoundError",
    "MemoryRecord",
    "MemoryType",
    "ModelError",
    "NeuromemError",
    "NotFoundError",
    "Operation",
    "OutOfRangeError",
    "PIIRejectedError",
    "PayloadTooLargeError",
    "PermissionDeniedError",
    "Promotion",
    "PromptBlock",
    "PromptLine",
    "Provenance",
    "RecallDegradedError",
    "RecallRecipe",
    "ReceiptNotFoundError",
    "ReflectionReport",
    "RejectedMessage",
    "RequestTimeoutError",
    "RetentionReport",
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
    "key_store",
    "metrics_exposition",
    "openapi_document",
    "read_chat_export",
    "reembed",
    "run_worker",
    "scheduled_jobs",
    "serve",
    "serve_mcp_stdio",
    "settings_reference",
    "stop_embedded_server",
    "store_location",
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
