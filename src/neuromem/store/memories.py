"""SQL over the ``memories`` table (seed 000 §2.3, §5.3–§5.5, §6.3).

Every function takes an open connection (the caller owns the transaction) and a
``user_id``; nothing here decides *what* to write — that is the operations layer.
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from psycopg import sql
from psycopg.types.json import Jsonb

from ..ids import uuid7
from ..types import MemoryColumns, MemoryRecord, MemoryType
from .db import Conn
from .filters import CompiledFilter
from .sql_parts import quote_term, time_scope_sql
from .vectors import to_halfvec
from .visibility import Owner

# Every column but the embedding and the generated tsvector.
_COLUMNS = """
    id, user_id, memory_type, content, valid_at, invalid_at, created_at, updated_at, expired_at,
    version, superseded_by, importance, access_count, last_accessed_at, content_hash, category,
    language, metadata, trait_subtype, trait_stage, trait_confidence, trait_context, trait_parent_id,
    trait_reinforcement_count, trait_contradiction_count, trait_last_reinforced, trait_first_observed,
    trait_window_start, trait_window_end, trait_derived_from, subject_entity_id, object_entity_id,
    source_episode_ids, raw_refs, file_id, chunk_index, tags, archived_at, agent_id, run_id, visibility, team_id,
    (embedding IS NOT NULL) AS has_embedding
"""
#: the columns, to compose into statements (``sql.SQL(...).format(columns=MEMORY_COLUMNS)``)
MEMORY_COLUMNS = sql.SQL(_COLUMNS)
#: the same columns of the row ``m``, for statements that join ``memories m`` to other relations
M_MEMORY_COLUMNS = sql.SQL(", ").join(
    sql.SQL("(m.embedding IS NOT NULL) AS has_embedding")
    if name.startswith("(embedding")
    else sql.SQL("m.{}").format(sql.Identifier(name))
    for name in (c.strip() for c in _COLUMNS.split(","))
    if name
)


@dataclass(frozen=True, slots=True, kw_only=True)
class NewMemory(MemoryColumns):
    """A row to insert: the shared columns (``types.MemoryColumns``; ``id`` made here when None,
    ``created_at`` by the database) plus what only the store keeps."""

    content_hash: str  # type: ignore[assignment]  # every inserted row has its hash
    search_tokens: str = ""
    token_count: int = 0
    embedding: np.ndarray | None = None
    file_id: uuid.UUID | None = None
    chunk_index: int | None = None
    tags: tuple[str, ...] = ()


def row_to_memory(row: dict[str, Any]) -> MemoryRecord:
    """Map a row selected with ``MEMORY_COLUMNS`` to the domain value."""
    return MemoryRecord(
        id=row["id"],
        user_id=row["user_id"],
        memory_type=MemoryType(row["memory_type"]),
        content=row["content"],
        created_at=row["created_at"],
        version=row["version"],
        importance=float(row["importance"]),
        metadata=dict(row["metadata"] or {}),
        valid_at=row["valid_at"],
        invalid_at=row["invalid_at"],
        updated_at=row["updated_at"],
        expired_at=row["expired_at"],
        superseded_by=row["superseded_by"],
        content_hash=row["content_hash"],
        access_count=row["access_count"],
        last_accessed_at=row["last_accessed_at"],
        has_embedding=bool(row["has_embedding"]),
        category=row["category"],
        language=row["language"],
        trait_subtype=row["trait_subtype"],
        trait_stage=row["trait_stage"],
        trait_confidence=None if row["trait_confidence"] is None else float(row["trait_confidence"]),
        trait_context=row["trait_context"],
        trait_parent_id=row["trait_parent_id"],
        trait_reinforcement_count=row["trait_reinforcement_count"],
        trait_contradiction_count=row["trait_contradiction_count"],
        trait_last_reinforced=row["trait_last_reinforced"],
        trait_first_observed=row["trait_first_observed"],
        trait_window_start=row["trait_window_start"],
        trait_window_end=row["trait_window_end"],
        trait_derived_from=row["trait_derived_from"],
        subject_entity_id=row["subject_entity_id"],
        object_entity_id=row["object_entity_id"],
        source_episode_ids=tuple(row["source_episode_ids"] or ()),
        raw_refs=tuple(row["raw_refs"] or ()),
        tags=tuple(row["tags"] or ()),
        archived_at=row["archived_at"],
        agent_id=row["agent_id"],
        run_id=row["run_id"],
        visibility=row["visibility"],
        team_id=row["team_id"],
    )


_INSERT_FIELDS = (
    "id",
    "user_id",
    "memory_type",
    "content",
    "content_hash",
    "search_tokens",
    "token_count",
    "importance",
    "metadata",
    "category",
    "language",
    "valid_at",
    "invalid_at",
    "version",
    "trait_subtype",
    "trait_stage",
    "trait_confidence",
    "trait_context",
    "trait_parent_id",
    "trait_reinforcement_count",
    "trait_contradiction_count",
    "trait_last_reinforced",
    "trait_first_observed",
    "trait_window_start",
    "trait_window_end",
    "trait_derived_from",
    "subject_entity_id",
    "object_entity_id",
    "source_episode_ids",
    "raw_refs",
    "file_id",
    "chunk_index",
    "tags",
    "agent_id",
    "run_id",
    "visibility",
    "team_id",
)


def _insert_values(new: NewMemory, dim: int) -> list[Any]:
    values: list[Any] = []
    for name in _INSERT_FIELDS:
        value = getattr(new, name)
        if name == "id":
            value = value or uuid7()
        elif name == "memory_type":
            value = str(value)
        elif name in ("metadata", "raw_refs"):
            value = Jsonb(list(value) if name == "raw_refs" else value)
        elif name in ("source_episode_ids", "tags"):
            value = list(value)
        values.append(value)
    values.append(None if new.embedding is None else to_halfvec(new.embedding, dim))
    values.append(new.created_at)
    return values


# valid_at (event time) defaults to the moment the memory is written, like created_at
_VALUE_OF = {"valid_at": sql.SQL("coalesce(%s, now())")}
INSERT_MEMORY = sql.SQL(
    "INSERT INTO memories ({fields}, embedding, created_at) "
    "VALUES ({values}, %s::halfvec, coalesce(%s, now())) RETURNING {columns}"
).format(
    fields=sql.SQL(", ").join(map(sql.Identifier, _INSERT_FIELDS)),
    values=sql.SQL(", ").join(_VALUE_OF.get(name, sql.Placeholder()) for name in _INSERT_FIELDS),
    columns=MEMORY_COLUMNS,
)
SELECT_MEMORY = sql.SQL("SELECT {columns} FROM memories WHERE user_id = %s AND id = %s").format(
    columns=MEMORY_COLUMNS
)
SELECT_MEMORY_FOR_UPDATE = sql.SQL("{} FOR UPDATE").format(SELECT_MEMORY)
SELECT_MEMORIES = sql.SQL("SELECT {columns} FROM memories WHERE user_id = %s AND id = ANY(%s)").format(
    columns=MEMORY_COLUMNS
)


def insert(conn: Conn, new: NewMemory, dim: int) -> MemoryRecord:
    row = conn.execute(INSERT_MEMORY, _insert_values(new, dim)).fetchone()
    assert row is not None
    return row_to_memory(row)


def insert_many(conn: Conn, rows: Sequence[NewMemory], dim: int) -> list[MemoryRecord]:
    """Insert a batch in one round trip per row, inside the caller's transaction."""
    out = []
    with conn.cursor() as cur:
        for new in rows:
            cur.execute(INSERT_MEMORY, _insert_values(new, dim))
            row = cur.fetchone()
            assert row is not None
            out.append(row_to_memory(row))
    return out


def get(conn: Conn, user_id: str, memory_id: uuid.UUID, *, for_update: bool = False) -> MemoryRecord | None:
    row = conn.execute(
        SELECT_MEMORY_FOR_UPDATE if for_update else SELECT_MEMORY, (user_id, memory_id)
    ).fetchone()
    return None if row is None else row_to_memory(row)


def get_many(conn: Conn, user_id: str, ids: Iterable[uuid.UUID]) -> dict[uuid.UUID, MemoryRecord]:
    wanted = list(ids)
    if not wanted:  # no round trip (the pinned lines ask for the traits of a user who has none)
        return {}
    rows = conn.execute(SELECT_MEMORIES, (user_id, wanted)).fetchall()
    return {r["id"]: row_to_memory(r) for r in rows}


# who said a memory: '' for the user, else another person's name in lower case (``supersede.speaker_of``)
SPEAKER_SQL = (
    "(CASE WHEN metadata->>'speaker_is_user' = 'false' THEN lower(metadata->>'speaker') ELSE '' END)"
)
FIND_CURRENT_BY_HASH = sql.SQL(
    """SELECT {columns} FROM memories
       WHERE user_id = %s AND memory_type = %s AND content_hash = %s
         AND (%s OR (agent_id IS NOT DISTINCT FROM %s AND run_id IS NOT DISTINCT FROM %s))
         AND expired_at IS NULL AND invalid_at IS NULL{by_speaker}
       ORDER BY created_at DESC LIMIT 1"""
)
_BY_SPEAKER = sql.SQL(" AND {speaker} = %s").format(speaker=sql.SQL(SPEAKER_SQL))
FIND_CURRENT_BY_HASH_ANY_SPEAKER = FIND_CURRENT_BY_HASH.format(columns=MEMORY_COLUMNS, by_speaker=sql.SQL(""))
FIND_CURRENT_BY_HASH_OF_SPEAKER = FIND_CURRENT_BY_HASH.format(columns=MEMORY_COLUMNS, by_speaker=_BY_SPEAKER)
NEAREST_CURRENT = sql.SQL(
    """SELECT {columns}, 1 - (embedding <=> %(v)s::halfvec) AS similarity
       FROM memories
       WHERE user_id = %(u)s AND memory_type = %(t)s AND embedding IS NOT NULL
         AND (%(any)s OR (agent_id IS NOT DISTINCT FROM %(a)s AND run_id IS NOT DISTINCT FROM %(r)s))
         AND expired_at IS NULL AND invalid_at IS NULL
       ORDER BY embedding <=> %(v)s::halfvec LIMIT %(n)s"""  # a parameter, not a CTE: HNSW needs it
).format(columns=MEMORY_COLUMNS)
CURRENT_IN_SLOT = sql.SQL(
    """SELECT {columns} FROM memories
       WHERE user_id = %(u)s AND memory_type = 'fact' AND (metadata->>'slot') = %(s)s
         AND expired_at IS NULL AND invalid_at IS NULL
       ORDER BY created_at DESC LIMIT %(n)s"""  # idx_memories_slot (migration 0015)
).format(columns=MEMORY_COLUMNS)
CURRENT_SHARING_TERMS = sql.SQL(
    """SELECT {columns} FROM memories
       WHERE user_id = %(u)s AND memory_type = 'fact' AND fts @@ to_tsquery('simple', %(q)s)
         AND expired_at IS NULL AND invalid_at IS NULL
       ORDER BY ts_rank(fts, to_tsquery('simple', %(q)s)) DESC, created_at DESC LIMIT %(n)s"""
).format(columns=MEMORY_COLUMNS)
#: when a memory was said: its source turn's send time (a statement's ``valid_at`` may be a time its words name, "The
#: electrician is booked for Tuesday"), else, for one written without a turn (``add``), its ``valid_at``
SAID_JUST_BEFORE = sql.SQL(
    """SELECT {columns} FROM (
         SELECT m.*, c.sent_at AS said FROM conversation_messages c
           JOIN memory_sources s ON s.user_id = c.user_id AND s.message_id = c.id
           JOIN memories m ON m.user_id = s.user_id AND m.id = s.memory_id
          WHERE c.user_id = %(u)s AND c.role = 'user' AND c.sent_at >= %(since)s AND c.sent_at < %(until)s
         UNION ALL
         SELECT m.*, m.valid_at AS said FROM memories m
          WHERE m.user_id = %(u)s AND m.valid_at >= %(since)s AND m.valid_at < %(until)s
            AND NOT EXISTS (SELECT 1 FROM memory_sources s
                             WHERE s.user_id = m.user_id AND s.memory_id = m.id AND s.message_id IS NOT NULL)
       ) m
       WHERE m.memory_type IN ('fact', 'episodic') AND m.expired_at IS NULL
       ORDER BY m.said DESC, m.created_at DESC LIMIT 1"""
).format(columns=M_MEMORY_COLUMNS)
LIST_MEMORIES = sql.SQL(
    "SELECT {columns} FROM memories m WHERE {where} ORDER BY m.created_at DESC, m.id LIMIT %(limit)s OFFSET %(offset)s"
)
_OF_USER = sql.SQL("m.user_id = %(user_id)s")
# the user's rows and those other users share with the user (team / public: migration 0022)
_OF_USER_OR_SHARED = sql.SQL(
    "(m.user_id = %(user_id)s OR neuromem_shared_with(%(user_id)s, m.user_id, m.visibility, m.team_id))"
)
_NOT_DISSOLVED = sql.SQL("(m.memory_type <> 'trait' OR m.trait_stage IS DISTINCT FROM 'dissolved')")
EXPIRE_MEMORY = sql.SQL(
    """UPDATE memories
       SET expired_at = now(), updated_at = now(), superseded_by = %s,
           invalid_at = coalesce(%s, invalid_at)
       WHERE user_id = %s AND id = %s AND version = %s AND expired_at IS NULL
       RETURNING {columns}"""
).format(columns=MEMORY_COLUMNS)
INVALIDATE_MEMORY = sql.SQL(
    """UPDATE memories SET invalid_at = %s, updated_at = now(), version = version + 1
       WHERE user_id = %s AND id = %s AND version = %s AND expired_at IS NULL
       RETURNING {columns}"""
).format(columns=MEMORY_COLUMNS)
UPDATE_MEMORY_FIELDS = sql.SQL(
    "UPDATE memories SET {sets}, version = version + 1, updated_at = now() "
    "WHERE user_id = %s AND id = %s AND version = %s AND expired_at IS NULL RETURNING {columns}"
)
_ASSIGN = sql.SQL("{} = %s")
CHAIN_IDS = """WITH RECURSIVE back AS (
        SELECT id, created_at FROM memories WHERE user_id = %(u)s AND id = %(id)s
        UNION
        SELECT m.id, m.created_at FROM memories m JOIN back b ON m.superseded_by = b.id
        WHERE m.user_id = %(u)s
    ), fwd AS (
        SELECT id, superseded_by, created_at FROM memories WHERE user_id = %(u)s AND id = %(id)s
        UNION
        SELECT m.id, m.superseded_by, m.created_at FROM memories m JOIN fwd f ON m.id = f.superseded_by
        WHERE m.user_id = %(u)s
    )
    SELECT id, created_at FROM back UNION SELECT id, created_at FROM fwd ORDER BY created_at, id"""
SET_EMBEDDING = """UPDATE memories SET embedding = %s::halfvec, embed_error = NULL
    WHERE user_id = %s AND id = %s AND memory_type = %s"""
# the backfill claims one user's rows at a time (a row lock is taken on one node: on a Citus cluster
# FOR UPDATE cannot span shards); the users come oldest pending row first
PENDING_EMBEDDING_USERS = """SELECT user_id FROM memories WHERE embedding IS NULL AND expired_at IS NULL
    GROUP BY user_id ORDER BY min(created_at) LIMIT %s"""
CLAIM_PENDING_EMBEDDINGS = """SELECT id, memory_type, user_id, content, embed_attempts FROM memories
    WHERE user_id = %s AND embedding IS NULL AND expired_at IS NULL
    ORDER BY created_at LIMIT %s FOR UPDATE SKIP LOCKED"""
RECORD_EMBED_FAILURE = """UPDATE memories SET embed_attempts = embed_attempts + 1, embed_error = %s
    WHERE user_id = %s AND id = %s AND memory_type = %s"""
CLAIM_CANDIDATE_USERS = 8  # users tried per claim when other workers hold the first ones' rows
COUNT_PENDING_EMBEDDINGS = "SELECT count(*) AS n FROM memories WHERE embedding IS NULL AND expired_at IS NULL"
COUNT_PENDING_EMBEDDINGS_OF_USER = (
    "SELECT count(*) AS n FROM memories WHERE embedding IS NULL AND expired_at IS NULL AND user_id = %s"
)
COUNT_BY_TYPE = "SELECT memory_type, count(*) AS n FROM memories WHERE expired_at IS NULL GROUP BY 1"
COUNT_BY_TYPE_OF_USER = (
    "SELECT memory_type, count(*) AS n FROM memories WHERE expired_at IS NULL AND user_id = %s GROUP BY 1"
)
BUMP_ACCESS = """UPDATE memories m SET access_count = m.access_count + d.delta,
           last_accessed_at = greatest(coalesce(m.last_accessed_at, d.stamp), d.stamp)
    FROM unnest(%s::text[], %s::uuid[], %s::int[], %s::timestamptz[]) AS d(user_id, id, delta, stamp)
    WHERE m.user_id = d.user_id AND m.id = d.id"""
DELETE_USER_ROWS = sql.SQL("DELETE FROM {table} WHERE user_id = %s")


LOCK_WRITE_KEY = sql.SQL("SELECT pg_advisory_xact_lock(hashtextextended({key}, 0))").format(
    key=sql.Placeholder()
)


def lock_write_keys(conn: Conn, user_id: str, keys: Iterable[str]) -> None:
    """Serialise, until the transaction ends, writers of the same content or of restatements of one
    fact for this user: one transaction-scoped advisory lock per key, taken in sorted order."""
    for key in sorted(set(keys)):
        conn.execute(LOCK_WRITE_KEY, (f"{user_id}:{key}",))


def _same_scope(owner: Owner | None) -> tuple[bool, str | None, str | None]:
    return (True, None, None) if owner is None else (False, owner.agent_id, owner.run_id)


def find_current_by_hash(
    conn: Conn,
    user_id: str,
    memory_type: MemoryType,
    content_hash: str,
    *,
    speaker: str | None = None,
    owner: Owner | None = None,
) -> MemoryRecord | None:
    """The newest current memory with this content hash (said by ``speaker``, when given; of the same
    agent and run as ``owner``, when given)."""
    row = conn.execute(
        FIND_CURRENT_BY_HASH_ANY_SPEAKER if speaker is None else FIND_CURRENT_BY_HASH_OF_SPEAKER,
        (
            user_id,
            str(memory_type),
            content_hash,
            *_same_scope(owner),
            *(() if speaker is None else (speaker,)),
        ),
    ).fetchone()
    return None if row is None else row_to_memory(row)


def nearest_current(
    conn: Conn,
    user_id: str,
    memory_type: MemoryType,
    vector: np.ndarray,
    dim: int,
    limit: int = 5,
    *,
    owner: Owner | None = None,
) -> list[tuple[MemoryRecord, float]]:
    """Current memories of one type closest to ``vector``, with cosine similarity (of the same agent
    and run as ``owner``, when given: a write is compared only with its own scope's memories)."""
    any_scope, agent, run = _same_scope(owner)
    rows = conn.execute(
        NEAREST_CURRENT,
        {
            "v": to_halfvec(vector, dim),
            "u": user_id,
            "t": str(memory_type),
            "n": limit,
            "any": any_scope,
            "a": agent,
            "r": run,
        },
    ).fetchall()
    return [(row_to_memory(r), float(r["similarity"])) for r in rows]


def current_in_slot(conn: Conn, user_id: str, slot: str, limit: int = 20) -> list[MemoryRecord]:
    """Current facts whose ``metadata.slot`` is ``slot`` (issue 21: a value update finds the old value), newest first."""
    rows = conn.execute(CURRENT_IN_SLOT, {"u": user_id, "s": slot, "n": limit}).fetchall()
    return [row_to_memory(r) for r in rows]


def current_sharing_terms(
    conn: Conn, user_id: str, stems: Sequence[str], limit: int = 5
) -> list[MemoryRecord]:
    """Current facts with a word that begins with one of ``stems`` (``fts`` prefix match: "extension"
    finds "extensions"), best ``ts_rank`` first: the lexical neighbours a value change is looked for in
    when the embeddings are not close enough (issue 21)."""
    distinct = list(dict.fromkeys(t for t in stems if t))
    if not distinct or limit <= 0:
        return []
    query = " | ".join(quote_term(t) + ":*" for t in distinct)
    rows = conn.execute(CURRENT_SHARING_TERMS, {"u": user_id, "q": query, "n": limit}).fetchall()
    return [row_to_memory(r) for r in rows]


def said_just_before(
    conn: Conn, user_id: str, when: dt.datetime, window: dt.timedelta
) -> MemoryRecord | None:
    """The user's newest fact or episode said in the ``window`` before ``when`` (:data:`SAID_JUST_BEFORE`), ended or
    not: what a correction said at ``when`` takes back (``text.corrections``)."""
    row = conn.execute(SAID_JUST_BEFORE, {"u": user_id, "since": when - window, "until": when}).fetchone()
    return None if row is None else row_to_memory(row)


def list_memories(
    conn: Conn,
    user_id: str,
    *,
    where: CompiledFilter | None = None,
    as_of: dt.datetime | None = None,
    include_inactive: bool = False,
    limit: int = 100,
    offset: int = 0,
    valid_at: dt.datetime | None = None,
    shared: bool = False,
) -> list[MemoryRecord]:
    """Memories of a user, newest first (``shared``: with the memories other users share with the user).

    Default: only current ones (not expired, not invalidated, not a dissolved trait). ``as_of`` (record time): those
    current at that moment, what the system knew then. ``valid_at`` (event time): those true at
    that moment, as known now or at ``as_of`` (seed 000 §6.3; ``sql_parts``).
    ``include_inactive``: every version.
    """
    params: dict[str, Any] = {"user_id": user_id, "limit": limit, "offset": offset}
    clauses: list[sql.Composable] = [_OF_USER_OR_SHARED if shared else _OF_USER]
    if as_of is not None or valid_at is not None or not include_inactive:
        clauses.append(time_scope_sql(as_of, valid_at, params))
    if as_of is None and valid_at is None and not include_inactive:  # a dissolved trait is no belief now
        clauses.append(_NOT_DISSOLVED)
    if where is not None:
        clauses.append(where.clause)
        params.update(where.params)
    query = LIST_MEMORIES.format(columns=MEMORY_COLUMNS, where=sql.SQL(" AND ").join(clauses))
    rows = conn.execute(query, params).fetchall()
    return [row_to_memory(r) for r in rows]


def expire(
    conn: Conn,
    user_id: str,
    memory_id: uuid.UUID,
    *,
    expected_version: int,
    superseded_by: uuid.UUID | None = None,
    invalid_at: dt.datetime | None = None,
) -> MemoryRecord | None:
    """End the current version of a memory (optimistic lock on ``version``, seed 000 §5.5).

    Returns the expired row, or None when the version no longer matches or it was already
    expired — the caller turns that into a conflict.
    """
    row = conn.execute(
        EXPIRE_MEMORY,
        (superseded_by, invalid_at, user_id, memory_id, expected_version),
    ).fetchone()
    return None if row is None else row_to_memory(row)


def invalidate(
    conn: Conn, user_id: str, memory_id: uuid.UUID, *, expected_version: int, invalid_at: dt.datetime
) -> MemoryRecord | None:
    """Mark a fact as no longer holding from ``invalid_at`` (event time) without expiring it."""
    row = conn.execute(
        INVALIDATE_MEMORY,
        (invalid_at, user_id, memory_id, expected_version),
    ).fetchone()
    return None if row is None else row_to_memory(row)


def update_fields(
    conn: Conn, user_id: str, memory_id: uuid.UUID, *, expected_version: int, fields: dict[str, Any]
) -> MemoryRecord | None:
    """In-place update of scalar columns with the optimistic lock (used for metadata-only edits)."""
    allowed = {
        "importance",
        "metadata",
        "category",
        "valid_at",
        "invalid_at",
        "trait_stage",
        "trait_confidence",
        "trait_context",
        "trait_parent_id",
        "trait_reinforcement_count",
        "trait_contradiction_count",
        "trait_last_reinforced",
        "trait_window_start",
        "trait_window_end",
        "trait_derived_from",
        "content",
        "content_hash",
        "search_tokens",
        "token_count",
        "trait_subtype",
        "language",
        "tags",
    }
    unknown = set(fields) - allowed
    if unknown:
        raise ValueError(f"cannot update columns {sorted(unknown)}")
    assignments = [_ASSIGN.format(sql.Identifier(k)) for k in fields]
    values = [Jsonb(v) if k == "metadata" else list(v) if k == "tags" else v for k, v in fields.items()]
    query = UPDATE_MEMORY_FIELDS.format(sets=sql.SQL(", ").join(assignments), columns=MEMORY_COLUMNS)
    row = conn.execute(query, [*values, user_id, memory_id, expected_version]).fetchone()
    return None if row is None else row_to_memory(row)


def chain_ids(conn: Conn, user_id: str, memory_id: uuid.UUID) -> list[uuid.UUID]:
    """Every version in the supersede chain that contains ``memory_id``, oldest first."""
    rows = conn.execute(CHAIN_IDS, {"u": user_id, "id": memory_id}).fetchall()
    return [r["id"] for r in rows]


def set_embeddings(
    conn: Conn, user_id: str, triples: Sequence[tuple[uuid.UUID, str, np.ndarray]], dim: int
) -> int:
    """Backfill embeddings of one user's rows: (id, memory_type, vector) triples. Returns rows written."""
    written = 0
    with conn.cursor() as cur:
        for memory_id, memory_type, vector in triples:
            cur.execute(SET_EMBEDDING, (to_halfvec(vector, dim), user_id, memory_id, memory_type))
            written += cur.rowcount
    return written


def claim_pending_embeddings(conn: Conn, limit: int) -> list[dict[str, Any]]:
    """One user's rows still waiting for an embedding, locked so that concurrent workers skip them."""
    return claim_per_user(conn, PENDING_EMBEDDING_USERS, CLAIM_PENDING_EMBEDDINGS, (limit,))


def claim_per_user(
    conn: Conn, users_query: str, claim_query: str, params: tuple[Any, ...]
) -> list[dict[str, Any]]:
    """The first of the pending users (``users_query``) whose rows ``claim_query`` can still lock."""
    for row in conn.execute(users_query, (CLAIM_CANDIDATE_USERS,)).fetchall():
        claimed = conn.execute(claim_query, (row["user_id"], *params)).fetchall()
        if claimed:
            return claimed
    return []


def record_embed_failure(conn: Conn, user_id: str, ids: Sequence[tuple[uuid.UUID, str]], error: str) -> None:
    with conn.cursor() as cur:
        for memory_id, memory_type in ids:
            cur.execute(RECORD_EMBED_FAILURE, (error[:500], user_id, memory_id, memory_type))


def count_pending_embeddings(conn: Conn, user_id: str | None = None) -> int:
    if user_id is None:
        row = conn.execute(COUNT_PENDING_EMBEDDINGS)
    else:
        row = conn.execute(COUNT_PENDING_EMBEDDINGS_OF_USER, (user_id,))
    return int(row.fetchone()["n"])  # type: ignore[index]


def counts_by_type(conn: Conn, user_id: str | None = None) -> dict[str, int]:
    if user_id is None:
        rows = conn.execute(COUNT_BY_TYPE).fetchall()
    else:
        rows = conn.execute(COUNT_BY_TYPE_OF_USER, (user_id,)).fetchall()
    return {r["memory_type"]: int(r["n"]) for r in rows}


def bump_access(conn: Conn, increments: dict[tuple[str, uuid.UUID], tuple[int, dt.datetime]]) -> int:
    """Apply accumulated access counts in one statement (seed 000 §5.2 task 4)."""
    if not increments:
        return 0
    users, ids, deltas, stamps = [], [], [], []
    for (user_id, memory_id), (delta, last) in increments.items():
        users.append(user_id)
        ids.append(memory_id)
        deltas.append(delta)
        stamps.append(last)
    cur = conn.execute(BUMP_ACCESS, (users, ids, deltas, stamps))
    return cur.rowcount


USER_TABLES = (
    "memories",
    "trait_evidence",
    "memory_history",
    "reflection_cycles",
    "memory_sources",
    "conversation_messages",
    "conversation_sessions",
    "raw_chunks",
    "graph_edges",
    "graph_nodes",
    "document_files",
    "model_usage",
    "pipeline_events",
    "raw_chunk_keys",
    "team_members",
    "ingest_jobs",
    "trait_suppressions",
)


def delete_user(conn: Conn, user_id: str) -> dict[str, int]:
    """Hard-delete every row of one user in every table (``reset``). Returns rows removed per table."""
    removed = {}
    for table in USER_TABLES:
        cur = conn.execute(DELETE_USER_ROWS.format(table=sql.Identifier(table)), (user_id,))
        removed[table] = cur.rowcount
    return removed
