"""The MCP tools beyond remember / recall (issue 26 item 4): what an agent uses of the rest of the SDK.

- ``record_procedure`` / ``procedures``: store how a task was done once it worked; list the known ways;
- ``conflicts`` / ``resolve_conflict``: the review queue of facts that contradict each other;
- ``trait``: one trait with its evidence chain (what supports it, what contradicts it);
- ``related``: a memory's neighbours in the graph and the edges' kinds;
- ``add_document`` / ``document_status``: a text or markdown document, and how far its embedding came;
- ``consolidate``: one user's consolidation now (compress, concepts, archive);
- ``export_memory``: the user's memory as markdown (for people) or json;
- ``sync_markdown``: two-way sync with ``memory.md`` / ``learnings.md`` (``POST /v1/markdown/sync``).

Each runs through the same ``invoke`` as the tools of ``neuromem.service.mcp.server`` (key, tenant, RLS).
Import and webhooks stay REST only: they are an operator's, not an agent's.
"""

from __future__ import annotations

import datetime as dt
import io
import uuid
from collections.abc import Awaitable, Callable
from typing import Annotated, Any, Literal, Protocol, TypeVar

from mcp.server.mcpserver import Context, MCPServer
from pydantic import BaseModel, Field

from ...errors import InvalidInputError
from ...memory import Memory
from ...procedural.record import CATEGORY
from ...types import MemoryRecord
from ..api.keys import KeyScope
from ..api.routes.consolidation import ConsolidationReport, consolidate
from ..api.routes.documents import progress
from ..api.routes.portability import sync_files
from ..api.routes.procedures import procedure_out
from ..api.schemas import (
    Consolidate,
    ConsolidationStep,
    DocumentProgress,
    MarkdownFiles,
    MarkdownSync,
    ProcedureOut,
)

T = TypeVar("T")

UserId = Annotated[str, Field(min_length=1, max_length=255, description="The end user whose memory this is")]
MemoryId = Annotated[str, Field(description="A memory id (from recall or list_memories)")]


class Invoke(Protocol):
    def __call__(
        self,
        ctx: Context,
        level: KeyScope,
        user_id: str,
        fn: Callable[[str], T],
        *,
        agent_id: str | None = None,
        run_id: str | None = None,
    ) -> Awaitable[T]: ...


class Fact(BaseModel):
    id: str
    content: str
    valid_at: dt.datetime | None = None
    invalid_at: dt.datetime | None = None


class ConflictOut(BaseModel):
    id: str
    attribute: str = Field(description="What the two facts disagree on")
    status: str = Field(description="open (waiting for a decision), auto (decided by score) or resolved")
    old: Fact | None
    new: Fact | None
    winner_id: str | None


class EvidenceOut(BaseModel):
    memory_id: str
    content: str | None
    quality: str
    context: str | None


class TraitEvidence(BaseModel):
    id: str
    content: str
    stage: str | None
    confidence: float | None = Field(description="Confidence after decay")
    supporting: list[EvidenceOut]
    contradicting: list[EvidenceOut]
    parents: list[str] = Field(description="Ids of the traits this one was generalised from")
    children: list[str]


class NeighbourOut(BaseModel):
    edge_type: str = Field(description="MENTIONS, ABOUT, SIMILAR_TO, SUPPORTS, CONTRADICTS…")
    direction: Literal["out", "in"]
    kind: Literal["memory", "node"]
    id: str
    weight: float
    content: str | None = Field(description="The memory's content (kind memory)")
    name: str | None = Field(description="The node's name (kind node: an entity, a concept…)")
    node_type: str | None


class RelatedOut(BaseModel):
    memory: Fact
    neighbours: list[NeighbourOut]
    kinds: dict[str, int]


class DocumentOut(BaseModel):
    id: str
    file_name: str
    chunk_count: int


class ExportOut(BaseModel):
    format: str
    text: str


def _fact(record: MemoryRecord | None) -> Fact | None:
    return (
        None
        if record is None
        else Fact(
            id=str(record.id), content=record.content, valid_at=record.valid_at, invalid_at=record.invalid_at
        )
    )


def _uuid(text: str, what: str) -> uuid.UUID:
    try:
        return uuid.UUID(text)
    except ValueError:
        raise InvalidInputError(f"{text!r} is not a {what} id") from None


def register(server: MCPServer, m: Memory, invoke: Invoke) -> None:
    """Add this module's tools to ``server``."""

    @server.tool(
        description=(
            "After a task succeeded, store how it was done: a name and the steps in order (plus when it "
            "applies and what it achieves). Recording a known name counts one more success. Alike tasks "
            "later get it in recall's 'Proven skills'."
        )
    )
    async def record_procedure(
        user_id: UserId,
        ctx: Context,
        name: Annotated[
            str, Field(min_length=1, max_length=200, description="The task, e.g. 'Deploy the API'")
        ],
        steps: Annotated[list[str], Field(min_length=1, max_length=100, description="The steps, in order")],
        preconditions: Annotated[list[str], Field(max_length=50, description="When it applies")] = [],  # noqa: B006
        outcome: Annotated[str | None, Field(max_length=2000, description="What it achieves")] = None,
        tools: Annotated[list[str], Field(max_length=50, description="Tools it used")] = [],  # noqa: B006
    ) -> ProcedureOut:
        def run(uid: str) -> ProcedureOut:
            result = m.record_procedure(
                name, steps, user_id=uid, preconditions=preconditions, outcome=outcome, tools=tools
            )
            return procedure_out(result.memory)

        return await invoke(ctx, KeyScope.WRITE, user_id, run)

    @server.tool(
        description="The ways of doing tasks that worked for the user, newest first, with success counts."
    )
    async def procedures(
        user_id: UserId,
        ctx: Context,
        limit: Annotated[int, Field(ge=1, le=200)] = 50,
    ) -> list[ProcedureOut]:
        return await invoke(
            ctx,
            KeyScope.READ,
            user_id,
            lambda uid: [
                procedure_out(r) for r in m.get_all(user_id=uid, filters={"category": CATEGORY}, limit=limit)
            ],
        )

    @server.tool(
        description=(
            "Facts about the user that contradict each other (e.g. two home cities). 'open' ones wait for a "
            "decision: ask the user which is right, then call resolve_conflict."
        )
    )
    async def conflicts(
        user_id: UserId,
        ctx: Context,
        status: Annotated[
            Literal["open", "auto", "resolved", "all"], Field(description="Which ones")
        ] = "open",
        limit: Annotated[int, Field(ge=1, le=200)] = 50,
    ) -> list[ConflictOut]:
        return await invoke(
            ctx,
            KeyScope.READ,
            user_id,
            lambda uid: [_conflict(c) for c in m.conflicts(user_id=uid, status=status, limit=limit)],
        )

    @server.tool(
        description=(
            "Close an open conflict: the fact `keep` (the old or the new side's id) stays true, the other one "
            "ends (it stays in history)."
        )
    )
    async def resolve_conflict(
        user_id: UserId,
        ctx: Context,
        conflict_id: Annotated[str, Field(description="The conflict's id (from conflicts)")],
        keep: Annotated[str, Field(description="The id of the fact that is right")],
    ) -> ConflictOut:
        return await invoke(
            ctx,
            KeyScope.WRITE,
            user_id,
            lambda uid: _conflict(
                m.resolve_conflict(
                    _uuid(conflict_id, "conflict"), user_id=uid, keep=_uuid(keep, "memory"), actor="mcp"
                )
            ),
        )

    @server.tool(
        description=(
            "One trait (from the traits tool) with its evidence chain: the memories that support it and "
            "those that contradict it, and the traits it was generalised from."
        )
    )
    async def trait(
        user_id: UserId, ctx: Context, trait_id: Annotated[str, Field(description="The trait's id")]
    ) -> TraitEvidence:
        def run(uid: str) -> TraitEvidence:
            d = m.trait(_uuid(trait_id, "trait"), user_id=uid)
            return TraitEvidence(
                id=str(d.trait.id),
                content=d.trait.content,
                stage=d.trait.trait_stage,
                confidence=d.decayed_confidence,
                supporting=[_evidence(e) for e in d.supporting],
                contradicting=[_evidence(e) for e in d.contradicting],
                parents=[str(p.id) for p in d.parents],
                children=[str(c.id) for c in d.children],
            )

        return await invoke(ctx, KeyScope.READ, user_id, run)

    @server.tool(
        description=(
            "A memory's neighbours in the memory graph — other memories, entities, concepts — with each "
            "edge's kind (MENTIONS, ABOUT, SIMILAR_TO, SUPPORTS, CONTRADICTS…), heaviest first."
        )
    )
    async def related(
        user_id: UserId, memory_id: MemoryId, ctx: Context, limit: Annotated[int, Field(ge=1, le=200)] = 30
    ) -> RelatedOut:
        def run(uid: str) -> RelatedOut:
            r = m.related(_uuid(memory_id, "memory"), user_id=uid, limit=limit)
            return RelatedOut(
                memory=_fact(r.memory),
                kinds=r.kinds,
                neighbours=[
                    NeighbourOut(
                        edge_type=n.edge_type,
                        direction=n.direction,
                        kind=n.kind,
                        id=str(n.id),
                        weight=n.weight,
                        content=None if n.memory is None else n.memory.content,
                        name=n.name,
                        node_type=n.node_type,
                    )
                    for n in r.neighbours
                ],
            )

        return await invoke(ctx, KeyScope.READ, user_id, run)

    @server.tool(
        description=(
            "Store a text or markdown document (notes, a spec, a transcript) for the user; its chunks are "
            "found by recall. A long one is embedded in the background: see document_status."
        )
    )
    async def add_document(
        user_id: UserId,
        ctx: Context,
        text: Annotated[str, Field(min_length=1, description="The document's text")],
        file_name: Annotated[str, Field(min_length=1, max_length=255, description="e.g. notes.md")],
        mime_type: Annotated[
            Literal["text/plain", "text/markdown"], Field(description="Its format")
        ] = "text/plain",
    ) -> DocumentOut:
        def run(uid: str) -> DocumentOut:
            d = m.add_document(text, user_id=uid, file_name=file_name, mime_type=mime_type)
            return DocumentOut(id=str(d.id), file_name=d.file_name, chunk_count=d.chunk_count)

        return await invoke(ctx, KeyScope.WRITE, user_id, run)

    @server.tool(description="How far a document's embedding has come (state ready / embedding / retrying).")
    async def document_status(
        user_id: UserId, ctx: Context, file_id: Annotated[str, Field(description="The document's id")]
    ) -> DocumentProgress:
        return await invoke(
            ctx,
            KeyScope.READ,
            user_id,
            lambda uid: progress(m.document_status(_uuid(file_id, "document"), user_id=uid)),
        )

    @server.tool(
        description=(
            "Consolidate the user's memory now: summarise old episodes, cluster related memories into concepts, "
            "archive what faded. dry_run reports without changing."
        )
    )
    async def consolidate_memory(
        user_id: UserId,
        ctx: Context,
        steps: Annotated[
            list[ConsolidationStep], Field(min_length=1, max_length=3, description="What to run")
        ] = [  # noqa: B006
            "compress",
            "concepts",
            "archive",
        ],
        dry_run: Annotated[bool, Field(description="Report what would change; change nothing")] = False,
    ) -> ConsolidationReport:
        body = Consolidate(user_id=user_id, steps=steps, dry_run=dry_run)
        return await invoke(ctx, KeyScope.WRITE, user_id, lambda uid: consolidate(m, uid, body))

    @server.tool(
        description=(
            "Everything stored for the user as one text: markdown (for people to read) or json (every row)."
        )
    )
    async def export_memory(
        user_id: UserId,
        ctx: Context,
        format: Annotated[Literal["markdown", "json"], Field(description="markdown or json")] = "markdown",
    ) -> ExportOut:
        def run(uid: str) -> ExportOut:
            out = io.StringIO()
            m.export(out, user_id=uid, format=format)
            return ExportOut(format=format, text=out.getvalue())

        return await invoke(ctx, KeyScope.READ, user_id, run)

    @server.tool(
        description=(
            "Two-way sync with the user's memory.md and learnings.md: send edited copies (added, changed or "
            "removed lines become memory changes), get both files back as the memory now is. Send none to read them."
        )
    )
    async def sync_markdown(
        user_id: UserId,
        ctx: Context,
        files: Annotated[
            dict[Literal["memory.md", "learnings.md"], str],
            Field(description="Edited copies; a file left out keeps the last synced copy"),
        ] = {},  # noqa: B006
        language: Annotated[Literal["en", "zh"], Field(description="Headings' language")] = "en",
    ) -> MarkdownFiles:
        body = MarkdownSync(user_id=user_id, files=files, language=language)
        return await invoke(ctx, KeyScope.WRITE, user_id, lambda uid: sync_files(m, uid, body))


def _conflict(c: Any) -> ConflictOut:
    row = c.row
    return ConflictOut(
        id=str(row.id),
        attribute=row.attribute,
        status=row.status,
        old=_fact(c.old),
        new=_fact(c.new),
        winner_id=None if row.winner_id is None else str(row.winner_id),
    )


def _evidence(e: Any) -> EvidenceOut:
    return EvidenceOut(
        memory_id=str(e.memory_id), content=e.content, quality=str(e.quality), context=e.context
    )
