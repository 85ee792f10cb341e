"""The one error hierarchy of neuromem (STYLE.md habit 11).

Every exception raised to a caller derives from :class:`NeuromemError`; the HTTP
layer maps them to status codes by type (``http_status``), never by message::

    NeuromemError
    ├── ConfigError                         bad or contradictory settings
    ├── InvalidInputError          (400)    the caller sent something unusable; nothing was written
    │   ├── EmptyContentError
    │   ├── ContentTooLongError
    │   ├── InvalidUserIdError
    │   ├── InvalidScopeError               a malformed agent / run / team id or visibility
    │   ├── UnknownMemoryTypeError
    │   ├── TraitWriteError                 a trait written directly: traits come only from reflection
    │   ├── VectorDimensionError            a vector whose length is not the store's dimension
    │   ├── InvalidFilterError
    │   ├── PIIRejectedError                privacy mode "reject" and the content holds PII
    │   ├── InvalidTurnError                a malformed conversation message or session id
    │   ├── InvalidTextError                NUL or a lone surrogate: text PostgreSQL cannot store
    │   ├── InvalidMetadataError            metadata not JSON, too large or nested too deep
    │   ├── OutOfRangeError                 a number (offset, limit, filter value) out of range
    │   ├── InvalidTenantError              a tenant name the service cannot use
    │   ├── PayloadTooLargeError   (413)    a service request body over service.max_body_bytes
    │   ├── ForgetTargetError               forget got zero or several targets, or a malformed one
    │   ├── ExportFormatError               an export file that is not neuromem's or is damaged
    │   │   └── ExportVersionError          an export written by a newer format version
    │   └── MarkdownSyncError               a memory.md / learnings.md that cannot be read back
    ├── NotFoundError              (404)
    │   ├── MemoryNotFoundError
    │   ├── SessionNotFoundError
    │   ├── DocumentNotFoundError
    │   ├── ReceiptNotFoundError
    │   ├── ConflictNotFoundError
    │   └── JobNotFoundError
    ├── ConflictError              (409)
    │   └── VersionConflictError            optimistic lock lost (seed 000 §5.5)
    ├── StoreError                 (503)
    │   ├── DatabaseUnavailableError        server unreachable or failed to start
    │   ├── ExtensionError                  pgvector missing or too old
    │   ├── SchemaVersionError              the database was written by a newer neuromem, or skipped a migration
    │   ├── EmbeddingDimensionError         configured dimension differs from the stored one
    │   └── RecallDegradedError             every retrieval path failed, or one did under ``strict``
    ├── AccessError                (401)    the service only (the in-process SDK has no keys)
    │   ├── AuthenticationError    (401)    no, malformed, unknown or revoked API key
    │   └── PermissionDeniedError  (403)    the key's scope or bound user does not allow it
    ├── RequestTimeoutError        (504)    a service request over service.request_timeout_s
    └── ModelError                 (502)
        ├── EmbedderError                   embedding provider failed or is unreachable
        └── LLMError                        chat provider failed, or answered unusably
            └── LLMResponseError            the answer did not validate against its schema
"""

from __future__ import annotations


class NeuromemError(Exception):
    """Base class of every error neuromem raises on purpose."""

    http_status = 500

    def as_problem(self) -> dict[str, object]:
        """The error as data (``{"type", "detail", "status"}``): how it travels inside a result,
        e.g. ``IngestReport.rejected`` over the REST API."""
        return {"type": type(self).__name__, "detail": str(self), "status": self.http_status}

    @classmethod
    def __get_pydantic_core_schema__(cls, source: object, handler: object) -> object:
        """Errors inside public result types (pydantic / FastAPI) serialise as ``as_problem()``."""
        from pydantic_core import core_schema as cs

        shape = cs.typed_dict_schema(
            {
                "type": cs.typed_dict_field(cs.str_schema()),
                "detail": cs.typed_dict_field(cs.str_schema()),
                "status": cs.typed_dict_field(cs.int_schema()),
            }
        )

        def validate(value: object) -> NeuromemError:
            if isinstance(value, cls):
                return value
            if isinstance(value, dict) and isinstance(value.get("detail"), str):
                return cls(value["detail"])
            raise ValueError(f"expected a {cls.__name__} or its problem dict")

        return cs.no_info_plain_validator_function(
            validate,
            json_schema_input_schema=shape,
            serialization=cs.plain_serializer_function_ser_schema(
                lambda e: e.as_problem(), return_schema=shape
            ),
        )


class ConfigError(NeuromemError):
    """Settings are missing, malformed or contradictory."""

    http_status = 500


class InvalidInputError(NeuromemError, ValueError):
    """The caller's input cannot be accepted. Nothing was written."""

    http_status = 400


class EmptyContentError(InvalidInputError):
    """Content is empty or only whitespace."""


class ContentTooLongError(InvalidInputError):
    """Content exceeds the configured maximum length."""


class InvalidUserIdError(InvalidInputError):
    """A user id is missing, too long or has forbidden characters."""


class InvalidScopeError(InvalidInputError):
    """An agent, run or team id, or a visibility, that is malformed or does not fit (e.g. ``team`` without a team)."""


class UnknownMemoryTypeError(InvalidInputError):
    """A memory type outside fact / episodic / trait / document."""


class TraitWriteError(InvalidInputError):
    """A trait was added directly; traits come only from reflection (seed 001 §1.3)."""


class VectorDimensionError(InvalidInputError):
    """A vector whose length differs from the store's embedding dimension."""


class InvalidFilterError(InvalidInputError):
    """A search or list filter that is malformed or names an unknown field."""


class PIIRejectedError(InvalidInputError):
    """Privacy mode is 'reject' and the content contains personal data."""


class InvalidTurnError(InvalidInputError):
    """A conversation message (role, content, timestamp, name) or session id is malformed."""


class NotFoundError(NeuromemError, LookupError):
    http_status = 404


class MemoryNotFoundError(NotFoundError):
    """No memory with that id for that user."""


class SessionNotFoundError(NotFoundError):
    """No open conversation session with that id for that user."""


class DocumentNotFoundError(NotFoundError):
    """No document with that id for that user."""


class ConflictError(NeuromemError):
    http_status = 409


class VersionConflictError(ConflictError):
    """Another writer changed the memory first (optimistic locking, seed 000 §5.5)."""


class StoreError(NeuromemError):
    http_status = 503


class DatabaseUnavailableError(StoreError):
    """The PostgreSQL server could not be reached or started."""


class ExtensionError(StoreError):
    """A required PostgreSQL extension (pgvector) is missing or too old."""


class SchemaVersionError(StoreError):
    """The database schema is newer than this version of neuromem understands, or misses a migration that can
    no longer run in order."""


class EmbeddingDimensionError(StoreError):
    """The configured embedding dimension differs from the dimension stored in the database."""


class ModelError(NeuromemError):
    http_status = 502


class EmbedderError(ModelError):
    """The embedding provider failed or could not be reached."""


class LLMError(ModelError):
    """The chat-completion provider failed or could not be reached."""


class LLMResponseError(LLMError):
    """The LLM answered, but its answer did not validate against the expected schema."""


class RecallDegradedError(StoreError):
    """Recall could not run: every retrieval path failed, or (``strict=True``) at least one did.
    ``degraded`` lists the paths and why (see ``SearchResults.degraded``)."""

    def __init__(self, message: str, degraded: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.degraded = degraded


class InvalidTextError(InvalidInputError):
    """Text holding a NUL character or a lone surrogate (not valid UTF-8), which cannot be stored."""


class InvalidMetadataError(InvalidInputError):
    """Metadata that is not a JSON object of bounded size and depth, or whose keys/values hold NUL."""


class OutOfRangeError(InvalidInputError):
    """A number outside what neuromem or PostgreSQL can represent (offset, limit, a filter value)."""


# -- the service's access errors (issue #15): authentication and authorisation -------------


class AccessError(NeuromemError):
    """A service request that may not proceed as sent (the SDK in process never raises these)."""

    http_status = 401


class AuthenticationError(AccessError):
    """No API key, a malformed one, an unknown one or a revoked one (HTTP 401)."""

    http_status = 401


class PermissionDeniedError(AccessError):
    """A valid key whose scope or bound user does not allow the request (HTTP 403)."""

    http_status = 403


class InvalidTenantError(InvalidInputError):
    """A tenant name outside ``[a-z0-9][a-z0-9_-]{0,63}``."""


class PayloadTooLargeError(InvalidInputError):
    """A request body over ``service.max_body_bytes`` (HTTP 413). Nothing was read further or written."""

    http_status = 413


class RequestTimeoutError(NeuromemError):
    """The request did not finish within ``service.request_timeout_s`` (HTTP 504)."""

    http_status = 504


class ForgetTargetError(InvalidInputError):
    """``forget`` needs exactly one well-formed target (memory, session, document, window, topic, everything)."""


class ReceiptNotFoundError(NotFoundError):
    """No forget receipt with that id for that user."""


class ConflictNotFoundError(NotFoundError):
    """No conflict of the review queue with that id for that user."""


class JobNotFoundError(NotFoundError):
    """No ingest job with that id for that user (``Memory.job_status``, ``GET /v1/jobs/{id}``)."""


class ExportFormatError(InvalidInputError):
    """An export file that is not a neuromem export, or is damaged (nothing was imported)."""


class ExportVersionError(ExportFormatError):
    """The export was written in a newer format version than this neuromem reads."""


class MarkdownSyncError(InvalidInputError):
    """A synced memory.md / learnings.md (or its kept base) cannot be read back."""
