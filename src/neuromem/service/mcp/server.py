"""MCP tools over ``Memory``: ``remember``, ``recall``, ``forget``, ``list_memories``, ``traits`` — and the
rest of what an agent uses of the SDK, in ``neuromem.service.mcp.knowledge_tools``.

Every tool goes through ``ServiceContext.call`` like a REST route: the same tenant
scoping, row-level security and typed errors. Over HTTP the caller is the API key in
``Authorization: Bearer …`` (checked by ``BearerGuard`` before the MCP transport and again
per tool call); over stdio the caller is the local operator, acting in the ``default``
tenant with the admin scope, like the in-process SDK.

``forget`` is ``Memory.forget`` of one memory (issue 23 item 5): a hard delete of every version,
its history and everything derived from its words, answered with the receipt that proves it
(``Forgotten``). The soft delete (``Memory.delete``, REST ``DELETE /v1/memories/{id}``) is not
offered to agents under that name.
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Callable
from typing import Annotated, Any, Literal, TypeVar

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import BaseModel, Field
from starlette.types import ASGIApp, Receive, Scope, Send

from ... import __version__
from ...errors import AuthenticationError, InvalidInputError, NeuromemError, PermissionDeniedError
from ...lifecycle.forget import ForgetReceipt
from ...store.tenancy import DEFAULT_TENANT
from ...types import MemoryType
from ..api.context import ServiceContext
from ..api.keys import KeyScope, Principal
from ..api.problems import from_error
from . import knowledge_tools

T = TypeVar("T")

LOCAL_OPERATOR = Principal(uuid.UUID(int=0), DEFAULT_TENANT, KeyScope.ADMIN, None)
"""The caller of the stdio server: the person who started ``memctl mcp`` on their machine."""

INSTRUCTIONS = (
    "Long-term memory for one application's users. Call `recall` with the user's message before "
    "answering to get what you should remember about them (a prompt block with [n] citations), and "
    "`remember` after a turn to store what they said. Every tool needs the user's `user_id`."
)

UserId = Annotated[str, Field(min_length=1, max_length=255, description="The end user whose memory this is")]
AgentId = Annotated[
    str | None, Field(description="You, the agent: your own memories plus the user's shared ones")
]
RunId = Annotated[
    str | None, Field(description="This run of yours: its memories plus your and the user's others")
]


class TurnIn(BaseModel):
    role: Literal["user", "assistant", "system", "tool"]
    content: str = Field(min_length=1)


class MemoryOut(BaseModel):
    id: str
    content: str
    memory_type: str
    category: str | None = None
    created_at: dt.datetime
    score: float | None = None


class Remembered(BaseModel):
    written: list[MemoryOut] = Field(description="Memories added or updated (known ones are not repeated)")
    operations: dict[str, int] = Field(description="How many ADD / UPDATE / NOOP decisions were made")
    dropped: dict[str, int] = Field(
        default_factory=dict, description="Extraction candidates dropped, by reason"
    )


class Recalled(BaseModel):
    text: str = Field(description="The memory block for the system prompt ('' in hits mode)")
    hits: list[MemoryOut]
    tokens: int = 0


class Forgotten(BaseModel):
    receipt_id: str = Field(
        description="The forget receipt (GET /v1/forget/receipts): proof without the words"
    )
    counts: dict[str, int] = Field(description="Rows deleted per table")
    digest: str = Field(description="sha256 over the hashes of every deleted content and id")
    created_at: dt.datetime


class TraitOut(BaseModel):
    id: str
    content: str
    group: str = Field(description="core | preference | behavior | forming")
    stage: str | None
    confidence: float | None


def _out(record: Any, score: float | None = None) -> MemoryOut:
    return MemoryOut(
        id=str(record.id),
        content=record.content,
        memory_type=str(record.memory_type),
        category=record.category,
        created_at=record.created_at,
        score=score,
    )


def build_server(service: ServiceContext, *, local: Principal | None = None) -> MCPServer:
    """The MCP server over ``service``; ``local`` is the caller when there are no HTTP headers (stdio)."""
    server = MCPServer("neuromem", instructions=INSTRUCTIONS, version=__version__)
    m = service.memory

    async def caller(ctx: Context, level: KeyScope) -> Principal:
        headers = ctx.headers
        if headers is None:
            if local is None:
                raise AuthenticationError("this MCP endpoint needs an API key")
            principal = local
        else:
            auth = headers.get("authorization", "")
            principal = await service.authenticate(
                auth[7:].strip() if auth[:7].lower() == "bearer " else None
            )
        if principal.scope < level:
            raise PermissionDeniedError(
                f"this API key has scope {principal.scope.label}; {level.label} is needed"
            )
        return principal

    async def invoke(
        ctx: Context,
        level: KeyScope,
        user_id: str,
        fn: Callable[[str], T],
        *,
        agent_id: str | None = None,
        run_id: str | None = None,
    ) -> T:
        """Authorise, then run ``fn(user_key)`` like a REST route; typed errors reach the agent as tool errors."""
        try:
            return await service.call(await caller(ctx, level), user_id, fn, agent_id=agent_id, run_id=run_id)
        except NeuromemError as exc:
            raise ToolError(f"{type(exc).__name__}: {exc}") from exc

    @server.tool(
        description=(
            "Store something about the user. Give `content` for one fact stated directly (e.g. 'prefers "
            "window seats'), or `messages` for conversation turns, from which neuromem extracts facts, "
            "preferences and episodes itself. Known facts are recognised and not duplicated."
        )
    )
    async def remember(
        user_id: UserId,
        ctx: Context,
        content: Annotated[str | None, Field(description="One memory, stored as given")] = None,
        messages: Annotated[
            list[TurnIn] | None, Field(description="Conversation turns to learn from", max_length=200)
        ] = None,
        session_id: Annotated[
            str | None, Field(description="Conversation id for `messages`", max_length=255)
        ] = None,
        category: Annotated[
            str | None,
            Field(
                description="For `content`: preference, identity, task, procedure, relationship or general",
                max_length=20,
            ),
        ] = None,
        agent_id: AgentId = None,
        run_id: RunId = None,
        visibility: Annotated[
            Literal["private", "team", "public"] | None,
            Field(description="private (default), team (with team_id) or public (every user of the tenant)"),
        ] = None,
        team_id: Annotated[str | None, Field(description="The team that sees it (visibility 'team')")] = None,
    ) -> Remembered:
        scoped: dict[str, Any] = {
            "agent_id": agent_id,
            "run_id": run_id,
            "visibility": visibility,
            "team_id": team_id,
        }

        def run(uid: str) -> Remembered:
            if (content is None) == (messages is None):
                raise InvalidInputError("give exactly one of `content` or `messages`")
            if content is not None:
                results, dropped = m.add(content, user_id=uid, category=category, **scoped), {}
            else:
                report = m.ingest(
                    [t.model_dump() for t in messages or []], user_id=uid, session_id=session_id, **scoped
                )
                results, dropped = report.results, dict(report.dropped)
            ops: dict[str, int] = {}
            for r in results:
                ops[str(r.operation)] = ops.get(str(r.operation), 0) + 1
            written = [_out(r.memory) for r in results if str(r.operation) != "noop"]
            return Remembered(written=written, operations=ops, dropped=dropped)

        return await invoke(ctx, KeyScope.WRITE, user_id, run, agent_id=agent_id, run_id=run_id)

    @server.tool(
        description=(
            "Recall what matters about the user for `query` (usually their latest message). Mode 'prompt' "
            "returns a block to put in the system prompt, within `token_budget` tokens, with [n] markers "
            "citing the memories listed in `hits`; mode 'hits' returns the ranked memories only."
        )
    )
    async def recall(
        user_id: UserId,
        query: Annotated[str, Field(min_length=1, description="What to recall memories for")],
        ctx: Context,
        mode: Annotated[
            Literal["prompt", "hits"], Field(description="Prompt block or ranked hits")
        ] = "prompt",
        token_budget: Annotated[
            int, Field(ge=50, le=8000, description="Token budget of the prompt block")
        ] = 600,
        limit: Annotated[int, Field(ge=1, le=50, description="At most this many memories")] = 10,
        agent_id: AgentId = None,
        run_id: RunId = None,
        include_shared: Annotated[
            bool,
            Field(
                description="Also what other users share with the user: their "
                "team memories (of the user's teams) and public ones"
            ),
        ] = False,
    ) -> Recalled:
        def run(uid: str) -> Recalled:
            if mode == "hits":
                found = m.search(
                    query,
                    user_id=uid,
                    limit=limit,
                    agent_id=agent_id,
                    run_id=run_id,
                    include_shared=include_shared,
                )
                return Recalled(text="", hits=[_out(h.memory, h.score.final) for h in found])
            block = m.recall_prompt(
                query,
                user_id=uid,
                token_budget=token_budget,
                limit=limit,
                agent_id=agent_id,
                run_id=run_id,
                include_shared=include_shared,
            )
            return Recalled(
                text=block.text,
                tokens=block.tokens,
                hits=[_out(h.memory, h.score.final) for h in block.results],
            )

        return await invoke(ctx, KeyScope.READ, user_id, run, agent_id=agent_id, run_id=run_id)

    @server.tool(
        description=(
            "Forget one memory by id (from `recall` or `list_memories`) for good: every version, its "
            "history, the conversation words it came from and what was derived from them are deleted; "
            "the answer is a receipt that proves the deletion without holding the words."
        )
    )
    async def forget(
        user_id: UserId,
        memory_id: Annotated[str, Field(description="The id of the memory to forget")],
        ctx: Context,
    ) -> Forgotten:
        def run(uid: str) -> Forgotten:
            receipt = m.forget(user_id=uid, memory_id=_uuid(memory_id), actor="mcp")
            assert isinstance(receipt, ForgetReceipt)  # not a dry run
            return Forgotten(
                receipt_id=str(receipt.id),
                counts=receipt.counts,
                digest=receipt.digest,
                created_at=receipt.created_at,
            )

        return await invoke(ctx, KeyScope.WRITE, user_id, run)

    @server.tool(
        description="List the user's current memories, newest first, optionally of one type or category."
    )
    async def list_memories(
        user_id: UserId,
        ctx: Context,
        memory_type: Annotated[
            MemoryType | None, Field(description="fact, episodic, trait or document")
        ] = None,
        category: Annotated[str | None, Field(max_length=20, description="e.g. preference, task")] = None,
        limit: Annotated[int, Field(ge=1, le=200)] = 20,
        offset: Annotated[int, Field(ge=0)] = 0,
        agent_id: AgentId = None,
        run_id: RunId = None,
        include_shared: Annotated[
            bool,
            Field(
                description="Also what other users share with the user: their "
                "team memories (of the user's teams) and public ones"
            ),
        ] = False,
    ) -> list[MemoryOut]:
        filters = {
            k: str(v) for k, v in (("memory_type", memory_type), ("category", category)) if v is not None
        }

        def run(uid: str) -> list[MemoryOut]:
            return [
                _out(r)
                for r in m.get_all(
                    user_id=uid,
                    filters=filters or None,
                    limit=limit,
                    offset=offset,
                    agent_id=agent_id,
                    run_id=run_id,
                    include_shared=include_shared,
                )
            ]

        return await invoke(ctx, KeyScope.READ, user_id, run, agent_id=agent_id, run_id=run_id)

    @server.tool(
        description=(
            "What neuromem has come to believe about the user from many conversations — core traits, "
            "preferences, behaviours, and ones still forming — with stage and confidence."
        )
    )
    async def traits(user_id: UserId, ctx: Context) -> list[TraitOut]:
        def run(uid: str) -> list[TraitOut]:
            groups = m.traits(user_id=uid)
            return [
                TraitOut(
                    id=str(t.id),
                    content=t.content,
                    group=group,
                    stage=t.trait_stage,
                    confidence=t.trait_confidence,
                )
                for group, items in (
                    ("core", groups.core),
                    ("preference", groups.preferences),
                    ("behavior", groups.behaviors),
                    ("forming", groups.forming),
                )
                for t in items
            ]

        return await invoke(ctx, KeyScope.READ, user_id, run)

    knowledge_tools.register(server, m, invoke)
    return server


def _uuid(text: str) -> uuid.UUID:
    try:
        return uuid.UUID(text)
    except ValueError:
        raise InvalidInputError(f"{text!r} is not a memory id") from None


class BearerGuard:
    """ASGI wrapper of the MCP HTTP transport: no valid API key, no MCP session (401 problem+json)."""

    def __init__(self, app: ASGIApp, service: ServiceContext) -> None:
        self.app = app
        self.service = service

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
            auth = headers.get("authorization", "")
            try:
                await self.service.authenticate(auth[7:].strip() if auth[:7].lower() == "bearer " else None)
            except NeuromemError as exc:
                response = from_error(exc, scope.get("path"))
                response.headers["www-authenticate"] = "Bearer"
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)
