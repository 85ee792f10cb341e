"""Request bodies of the REST API. Responses are the library's public types themselves.

Field limits here only keep absurd requests out early; the library's own validation
(``neuromem.validation``) stays the authority and answers with its typed errors.
"""

from __future__ import annotations

import datetime as dt
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ...types import MemoryType

UserId = Field(min_length=1, max_length=255, description="The tenant's own user id")
# scope ids are checked by the library (InvalidScopeError, 400), like user ids (docs/architecture.md, "Scopes")
AgentId = Field(
    default=None, description="The agent acting for the user: its own memories plus the user's shared ones"
)
RunId = Field(
    default=None, description="The run of the agent: narrows to this run's memories plus the unscoped ones"
)
IncludeShared = Field(
    default=False,
    description="Also what other users share with the user: team memories of its "
    "teams and public ones, ranked with its own",
)


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ScopedBody(_Body):
    """A read or write as one of the user's agents and/or runs (default: the user)."""

    agent_id: str | None = AgentId
    run_id: str | None = RunId


class OwnedBody(ScopedBody):
    """A write that may share its memories beyond the user's agents."""

    visibility: Literal["private", "team", "public"] | None = Field(
        default=None,
        description="private (default), team (needs team_id) or public (every user of the tenant)",
    )
    team_id: str | None = Field(default=None, description="The team that sees a memory of visibility 'team'")


class UserBody(_Body):
    user_id: str = UserId


class AddMemory(OwnedBody):
    user_id: str = UserId
    content: str = Field(min_length=1, description="One memory, stored as given (ADD / NOOP / UPDATE)")
    memory_type: MemoryType = MemoryType.FACT
    metadata: dict[str, Any] | None = None
    importance: float | None = Field(default=None, ge=0, le=1)
    category: str | None = Field(default=None, max_length=20)
    valid_at: dt.datetime | None = None
    invalid_at: dt.datetime | None = None
    tags: list[str] | None = Field(
        default=None, max_length=32, description="Labels (filters: contains_any, contains_all)"
    )


class UpdateMemory(_Body):
    user_id: str = UserId
    content: str | None = Field(default=None, min_length=1)
    metadata: dict[str, Any] | None = None
    importance: float | None = Field(default=None, ge=0, le=1)
    valid_at: dt.datetime | None = None
    ends_previous: bool = False
    expected_version: int | None = Field(default=None, ge=1, description="Optimistic lock; or send If-Match")
    tags: list[str] | None = Field(default=None, max_length=32, description="Replaces the labels")


class Turn(_Body):
    role: Literal["user", "assistant", "system", "tool"]
    content: str = Field(min_length=1)
    timestamp: dt.datetime | None = None
    name: str | None = Field(default=None, max_length=255)


class IngestTurns(OwnedBody):
    user_id: str = UserId
    session_id: str | None = Field(default=None, min_length=1, max_length=255)
    messages: list[Turn] = Field(min_length=1, max_length=1000)
    metadata: dict[str, Any] | None = None


class Search(ScopedBody):
    user_id: str = UserId
    query: str = Field(min_length=1)
    limit: int | None = Field(default=None, ge=1, le=200)
    filters: dict[str, Any] | None = None
    memory_types: list[MemoryType] | None = Field(default=None, min_length=1)
    as_of: dt.datetime | None = None
    trace: bool = False
    recipe: str | None = Field(default=None, max_length=64)
    reference_time: dt.datetime | None = None
    strict: bool = False  # any degraded recall path → 503 instead of hits marked ``degraded``
    include_shared: bool = IncludeShared


class Recall(ScopedBody):
    user_id: str = UserId
    query: str = Field(min_length=1)
    token_budget: int | None = Field(default=None, ge=1, le=100_000)
    style: Literal["sections", "bullets"] = "sections"
    limit: int | None = Field(default=None, ge=1, le=200)
    recipe: str | None = Field(default=None, max_length=64)
    reference_time: dt.datetime | None = None
    include_shared: bool = IncludeShared


class AddDocument(_Body):
    user_id: str = UserId
    text: str = Field(min_length=1)
    file_name: str = Field(min_length=1, max_length=255)
    mime_type: str = Field(default="text/plain", max_length=100)
    metadata: dict[str, Any] | None = None


class CorrectTrait(_Body):
    user_id: str = UserId
    content: str = Field(min_length=1, description="The corrected statement; becomes the trait's new version")


class Health(BaseModel):
    status: Literal["ok"]
    version: str


class Ready(BaseModel):
    status: Literal["ready"]
    schema_version: int
    database: Literal["embedded", "external"]


class JobRun(BaseModel):
    name: str
    result: Any = None


class Jobs(BaseModel):
    jobs: list[str]


# -- issue 26 item 4: REST parity with the SDK -----------------------------------------------------------
class RecordProcedure(_Body):
    user_id: str = UserId
    name: str = Field(
        min_length=1,
        max_length=200,
        description="The task, e.g. 'Deploy the API' (same name: one more success)",
    )
    steps: list[str] = Field(min_length=1, max_length=100, description="The steps, in order")
    preconditions: list[str] = Field(default_factory=list, max_length=50)
    outcome: str | None = Field(default=None, max_length=2000)
    tools: list[str] = Field(default_factory=list, max_length=50)
    metadata: dict[str, Any] | None = None


class ProcedureOut(BaseModel):
    """A procedure that worked (a fact of category ``procedure``; ``metadata.procedure`` holds its parts)."""

    id: str
    name: str
    steps: list[str]
    preconditions: list[str]
    outcome: str | None
    successes: int
    tools: list[str]
    importance: float
    content: str


ConsolidationStep = Literal["compress", "concepts", "archive"]


class Consolidate(_Body):
    user_id: str = UserId
    steps: list[ConsolidationStep] = Field(
        default=["compress", "concepts", "archive"],
        min_length=1,
        max_length=3,
        description="What to run, in this order: compress old episodes, cluster concepts, archive",
    )
    dry_run: bool = Field(default=False, description="Report what would change; change nothing")
    now: dt.datetime | None = Field(
        default=None, description="'Now' for the age rules (default: the server's clock)"
    )


class MarkdownSync(_Body):
    user_id: str = UserId
    language: Literal["en", "zh"] = "en"
    files: dict[Literal["memory.md", "learnings.md"], str] = Field(
        default_factory=dict,
        description="Your edited copies; a file left out keeps the server's last copy (no change from it)",
    )


class MarkdownFiles(BaseModel):
    """The outcome of a sync and both files as the server wrote them (edit them and sync again)."""

    added: int
    updated: int
    deleted: int
    conflicts: int
    files: dict[str, str]


class AddWebhook(_Body):
    url: str = Field(
        min_length=8, max_length=2000, description="An http(s) URL the events are POSTed to, signed"
    )
    events: list[str] = Field(
        default_factory=list, max_length=20, description="Event kinds to deliver (empty: all)"
    )


class DocumentProgress(BaseModel):
    """``Memory.document_status``: chunks are searchable by full text at once, by vector once embedded."""

    file_id: str
    chunks: int
    embedded: int
    failed: int = Field(description="Chunks whose last embedding attempt failed (the backfill retries them)")
    pending: int
    state: Literal["ready", "embedding", "retrying"]
    progress: float
