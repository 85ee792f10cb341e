"""What ``Memory.status()`` reports: the server, the schema and the counts of a store."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from . import conversations, memories, migrate
from .db import Conn, Database


@dataclass(frozen=True, slots=True)
class StoreStatus:
    """The state of one neuromem store, as ``memctl status`` prints it."""

    server_version: str  # PostgreSQL major.minor
    pgvector_version: str | None  # None: the extension is missing
    embedded: bool  # neuromem runs the server itself (else: an external URL)
    data_dir: Path | None  # the embedded server's data directory
    schema_version: int
    latest_schema_version: int  # the newest migration this neuromem knows
    embedder: str
    embedding_dim: int
    embed_mode: str  # "sync" or "async"
    counts: dict[str, int] = field(default_factory=dict)  # current memories by type
    pending_embeddings: int = 0  # rows waiting for a vector: memories and turns
    pending_turns: int = 0  # of which conversation turns (ingest.turn_vectors="background", async mode…)
    # jobs whose last due tick nobody ran: no worker, no in-process scheduler (lifecycle.scheduler, issue 27)
    overdue_jobs: tuple[str, ...] = ()


STORE_STATUS = "SELECT extversion FROM pg_extension WHERE extname = 'vector'"


def count_pending_vectors(conn: Conn, user_id: str | None, turn_max_chars: int | None) -> tuple[int, int]:
    """(memories, turns) waiting for a vector, of ``user_id`` if given. Turns count when they get one:
    ``turn_max_chars`` is the longest turn the backfill embeds (None: turns get no vector)."""
    turns = (
        0
        if turn_max_chars is None
        else conversations.count_pending_turn_vectors(conn, turn_max_chars, user_id)
    )
    return memories.count_pending_embeddings(conn, user_id), turns


def store_status(
    db: Database, *, user_id: str | None, embedder: str, embed_mode: str, turn_max_chars: int | None
) -> StoreStatus:
    """Read the status of ``db`` (counts for ``user_id`` only when given)."""
    with db.connection() as conn:
        version = migrate.current_version(conn)
        server_version = conn.info.server_version
        row = conn.execute(STORE_STATUS).fetchone()
        counts = memories.counts_by_type(conn, user_id)
        pending, turns = count_pending_vectors(conn, user_id, turn_max_chars)
    return StoreStatus(
        server_version=f"{server_version // 10000}.{server_version % 10000}",
        pgvector_version=row["extversion"] if row else None,  # type: ignore[call-overload]
        embedded=db.server.embedded,
        data_dir=db.server.data_dir,
        schema_version=version,
        latest_schema_version=migrate.latest_version(),
        embedder=embedder,
        embedding_dim=db.dim,
        embed_mode=embed_mode,
        counts=counts,
        pending_embeddings=pending + turns,
        pending_turns=turns,
    )
