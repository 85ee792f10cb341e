"""neuromem — long-term memory for LLM agents on PostgreSQL + pgvector, offline by default.

The public surface is what ``__all__`` lists; everything else is private.
"""

from .config import Settings
from .errors import (
    ConflictError,
    ContentTooLongError,
    DatabaseUnavailableError,
    EmbedderError,
    EmbeddingDimensionError,
    EmptyContentError,
    ExtensionError,
    InvalidFilterError,
    InvalidInputError,
    InvalidMetadataError,
    InvalidTextError,
    InvalidUserIdError,
    LLMError,
    LLMResponseError,
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
from .memory import AsyncMemory, Memory
from .recall.packing import Citation
from .recall.prompt import PromptBlock, PromptLine
from .recall.recipes import RecallRecipe
from .store.documents import DocumentStatus
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

__version__ = "0.1.0"

__all__ = [
    "AsyncMemory",
    "Citation",
    "ConflictError",
    "ContentTooLongError",
    "DatabaseUnavailableError",
    "DocumentStatus",
    "EmbedderError",
    "EmbeddingDimensionError",
    "EmptyContentError",
    "ExtensionError",
    "HistoryEntry",
    "InvalidFilterError",
    "InvalidInputError",
    "InvalidMetadataError",
    "InvalidTextError",
    "InvalidUserIdError",
    "LLMError",
    "LLMResponseError",
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
    "SchemaVersionError",
    "ScoreBreakdown",
    "SearchHit",
    "SearchResults",
    "Settings",
    "StoreError",
    "UnknownMemoryTypeError",
    "VectorDimensionError",
    "VersionConflictError",
    "WriteResult",
    "__version__",
]
