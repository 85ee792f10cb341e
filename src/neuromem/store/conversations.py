"""SQL over ``conversation_sessions`` and ``conversation_messages`` (seed 000 §2.6.4, seed 004 §4.1).

A session is named by the caller (``external_id``) and unique per user. Its end —
explicit or after an idle timeout — is recorded in ``ended_at`` / ``end_reason``:
that is the "session end" signal later stages (reflection) react to.
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from psycopg import sql
from psycopg.types.json import Jsonb

from ..ids import uuid7
from . import memories
from .db import Conn
from .sql_parts import nearest
from .vectors import from_halfvec_send, to_halfvec

_SESSION_COLUMNS = sql.SQL(
    "id, user_id, external_id, started_at, last_message_at, ended_at, end_reason, "
    "last_reflected_at, message_count, metadata"
)


@dataclass(frozen=True, slots=True)
class SessionRow:
    id: uuid.UUID
    user_id: str
    external_id: str
    started_at: dt.datetime
    last_message_at: dt.datetime | None
    ended_at: dt.datetime | None
    end_reason: str | None
    last_reflected_at: dt.datetime | None
    message_count: int
    metadata: dict[str, Any]


@dataclass(frozen=True, slots=True)
class NewMessage:
    session_id: uuid.UUID
    seq: int
    role: str
    speaker: str | None
    content: str
    sent_at: dt.datetime
    content_hash: str
    raw_chunk_sha256: str | None
    metadata: dict[str, Any]
    turn_key: str
    id: uuid.UUID | None = None
    # the turn as a retrieval unit (issue 14): segmented words, their count, the vector as a halfvec literal
    search_tokens: str = ""
    token_count: int = 0
    embedding: str | None = None


def _session(row: dict[str, Any]) -> SessionRow:
    return SessionRow(**{**row, "metadata": dict(row["metadata"] or {})})


CREATE_SESSION = sql.SQL("""INSERT INTO conversation_sessions (id, user_id, external_id, started_at)
            VALUES (%s, %s, %s, %s) ON CONFLICT (user_id, external_id) DO NOTHING
            RETURNING {columns}""").format(columns=_SESSION_COLUMNS)
_SESSION = sql.SQL("SELECT {columns} FROM conversation_sessions WHERE user_id = %s AND external_id = %s")
LOCK_SESSION = sql.SQL("{} FOR UPDATE").format(_SESSION.format(columns=_SESSION_COLUMNS))
SESSION = _SESSION.format(columns=_SESSION_COLUMNS)


def lock_session(
    conn: Conn, user_id: str, external_id: str, started_at: dt.datetime
) -> tuple[SessionRow, bool]:
    """The session (created if new), locked for this transaction; also whether it was created."""
    row = conn.execute(CREATE_SESSION, (uuid7(), user_id, external_id, started_at)).fetchone()
    if row is not None:
        return _session(row), True
    row = conn.execute(LOCK_SESSION, (user_id, external_id)).fetchone()
    assert row is not None
    return _session(row), False


def get_session(conn: Conn, user_id: str, external_id: str) -> SessionRow | None:
    row = conn.execute(SESSION, (user_id, external_id)).fetchone()
    return None if row is None else _session(row)


_SESSIONS = sql.SQL("""SELECT {columns} FROM conversation_sessions WHERE user_id = %s{open}
            ORDER BY started_at DESC, id LIMIT %s""")
SESSIONS = _SESSIONS.format(columns=_SESSION_COLUMNS, open=sql.SQL(""))
OPEN_SESSIONS = _SESSIONS.format(columns=_SESSION_COLUMNS, open=sql.SQL(" AND ended_at IS NULL"))


def list_sessions(conn: Conn, user_id: str, *, open_only: bool = False, limit: int = 100) -> list[SessionRow]:
    rows = conn.execute(OPEN_SESSIONS if open_only else SESSIONS, (user_id, limit)).fetchall()
    return [_session(r) for r in rows]


INSERT_MESSAGES = """INSERT INTO conversation_messages (id, user_id, session_id, seq, role, speaker, content, sent_at,
                                                   content_hash, raw_chunk_sha256, metadata, turn_key,
                                                   search_tokens, token_count, embedding)
               VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s::halfvec)"""


def insert_messages(conn: Conn, user_id: str, messages: Sequence[NewMessage]) -> list[uuid.UUID]:
    ids = [m.id or uuid7() for m in messages]
    with conn.cursor() as cur:
        cur.executemany(
            INSERT_MESSAGES,
            [
                (
                    i,
                    user_id,
                    m.session_id,
                    m.seq,
                    m.role,
                    m.speaker,
                    m.content,
                    m.sent_at,
                    m.content_hash,
                    m.raw_chunk_sha256,
                    Jsonb(m.metadata),
                    m.turn_key,
                    m.search_tokens,
                    m.token_count,
                    m.embedding,
                )
                for i, m in zip(ids, messages, strict=True)
            ],
        )
    return ids


STORED_TURN_KEYS = """SELECT turn_key, content_hash FROM conversation_messages
           WHERE user_id = %s AND session_id = %s AND turn_key = ANY(%s)"""


def stored_turn_keys(conn: Conn, user_id: str, session_id: uuid.UUID, keys: Sequence[str]) -> dict[str, str]:
    """Which of ``keys`` are already stored in the session, with the stored turn's content hash
    (turn identity, migration 0004)."""
    if not keys:
        return {}
    rows = conn.execute(STORED_TURN_KEYS, (user_id, session_id, list(keys))).fetchall()
    return {r["turn_key"]: r["content_hash"] for r in rows}


SESSION_SPEAKERS = """SELECT DISTINCT speaker FROM conversation_messages
           WHERE user_id = %s AND session_id = %s AND speaker IS NOT NULL AND role = ANY(%s)"""


def session_speakers(conn: Conn, user_id: str, session_id: uuid.UUID, roles: Sequence[str]) -> set[str]:
    """The distinct speaker names of the session's stored turns with one of ``roles``."""
    rows = conn.execute(SESSION_SPEAKERS, (user_id, session_id, list(roles))).fetchall()
    return {r["speaker"] for r in rows}


def record_activity(
    conn: Conn,
    user_id: str,
    session_id: uuid.UUID,
    *,
    added: int,
    last_message_at: dt.datetime,
    importance: float,
    memories_written: int,
) -> None:
    """Advance the session after a batch of turns: count, last time, reopen if it had ended,
    and accumulate ``metadata.importance_sum`` / ``metadata.memories_written`` (reflection trigger input)."""
    conn.execute(
        RECORD_ACTIVITY,
        {
            "n": added,
            "t": last_message_at,
            "imp": importance,
            "w": memories_written,
            "u": user_id,
            "id": session_id,
        },
    )


RECORD_ACTIVITY = """UPDATE conversation_sessions
           SET message_count = message_count + %(n)s,
               last_message_at = greatest(coalesce(last_message_at, %(t)s), %(t)s),
               ended_at = NULL, end_reason = NULL,
               metadata = metadata || jsonb_build_object(
                   'importance_sum', coalesce((metadata->>'importance_sum')::float, 0) + %(imp)s,
                   'memories_written', coalesce((metadata->>'memories_written')::int, 0) + %(w)s)
           WHERE user_id = %(u)s AND id = %(id)s"""


# the clock is a parameter: on a Citus cluster only immutable functions may sit in coalesce()
END_SESSION = sql.SQL("""UPDATE conversation_sessions SET ended_at = %s, end_reason = %s
            WHERE user_id = %s AND external_id = %s AND ended_at IS NULL RETURNING {columns}""").format(
    columns=_SESSION_COLUMNS
)


def end_session(
    conn: Conn, user_id: str, external_id: str, *, reason: str, at: dt.datetime
) -> SessionRow | None:
    """Mark one open session ended at ``at``; None when there is no such open session."""
    row = conn.execute(END_SESSION, (at, reason, user_id, external_id)).fetchone()
    return None if row is None else _session(row)


IDLE_SINCE = sql.SQL("ended_at IS NULL AND coalesce(last_message_at, started_at) < %s")
SESSION_OF_USER = sql.SQL("user_id = %s")
SESSION_NOT = sql.SQL("id <> %s")
END_IDLE_SESSIONS = sql.SQL("""UPDATE conversation_sessions SET ended_at = coalesce(last_message_at, started_at),
            end_reason = 'idle' WHERE {where} RETURNING {columns}""")


def end_idle_sessions(
    conn: Conn, idle_before: dt.datetime, *, user_id: str | None = None, exclude: uuid.UUID | None = None
) -> list[SessionRow]:
    """End every open session whose last message is older than ``idle_before`` (reason ``idle``).

    The end time is the last message time: the conversation really stopped then.
    """
    params: list[Any] = [idle_before]
    where: list[sql.Composable] = [IDLE_SINCE]
    if user_id is not None:
        where.append(SESSION_OF_USER)
        params.append(user_id)
    if exclude is not None:
        where.append(SESSION_NOT)
        params.append(exclude)
    rows = conn.execute(
        END_IDLE_SESSIONS.format(where=sql.SQL(" AND ").join(where), columns=_SESSION_COLUMNS), params
    ).fetchall()
    return [_session(r) for r in rows]


SESSION_MESSAGES = """SELECT id, seq, role, speaker, content, sent_at, content_hash, raw_chunk_sha256, metadata
           FROM conversation_messages WHERE user_id = %s AND session_id = %s ORDER BY seq"""


def messages_of(conn: Conn, user_id: str, session_id: uuid.UUID) -> list[dict[str, Any]]:
    return conn.execute(SESSION_MESSAGES, (user_id, session_id)).fetchall()


ADD_SOURCES = """INSERT INTO memory_sources (memory_id, session_id, message_id, user_id)
               VALUES (%s, %s, %s, %s) ON CONFLICT ON CONSTRAINT memory_sources_pkey DO NOTHING"""


def add_sources(
    conn: Conn, user_id: str, links: Sequence[tuple[uuid.UUID, uuid.UUID, uuid.UUID | None]]
) -> None:
    """``memory_sources`` rows: (memory_id, session_id, message_id); repeats are ignored."""
    if not links:
        return
    with conn.cursor() as cur:
        cur.executemany(ADD_SOURCES, [(m, s, msg, user_id) for m, s, msg in links])


SOURCES_OF_MEMORY = """SELECT s.memory_id, s.session_id, s.message_id, c.external_id, m.seq, m.role, m.speaker, m.content,
                  m.sent_at, m.metadata
           FROM memory_sources s JOIN conversation_sessions c ON c.user_id = s.user_id AND c.id = s.session_id
           LEFT JOIN conversation_messages m ON m.user_id = s.user_id AND m.id = s.message_id
           WHERE s.user_id = %s AND s.memory_id = %s ORDER BY m.seq"""


def sources_of(conn: Conn, user_id: str, memory_id: uuid.UUID) -> list[dict[str, Any]]:
    return conn.execute(SOURCES_OF_MEMORY, (user_id, memory_id)).fetchall()


LAST_EPISODE_OF_SESSION = """SELECT m.id FROM memory_sources s JOIN memories m ON m.id = s.memory_id AND m.user_id = s.user_id
           WHERE s.user_id = %s AND s.session_id = %s AND m.memory_type = 'episodic' AND m.expired_at IS NULL
           ORDER BY m.valid_at DESC NULLS LAST, m.created_at DESC LIMIT 1"""


def last_episode_id(conn: Conn, user_id: str, session_id: uuid.UUID) -> uuid.UUID | None:
    """The newest current episodic memory sourced from this session (for TEMPORAL_NEXT)."""
    row = conn.execute(LAST_EPISODE_OF_SESSION, (user_id, session_id)).fetchone()
    return None if row is None else row["id"]


# ---------------------------------------------------------------- turns as a retrieval unit (issue 14)
_TURN_COLUMNS = sql.SQL("""m.id, c.external_id AS session_external_id, m.session_id, m.seq, m.role, m.speaker, m.content,
                   m.sent_at, m.created_at, halfvec_send(m.embedding) AS vec""")


@dataclass(frozen=True, slots=True)
class TurnRow:
    """A stored turn with what recall needs: its session's external id and its vector (or None)."""

    id: uuid.UUID
    session_external_id: str
    session_id: uuid.UUID
    seq: int
    role: str
    speaker: str | None
    content: str
    sent_at: dt.datetime
    created_at: dt.datetime
    vector: np.ndarray | None


def _turn(row: dict[str, Any]) -> TurnRow:
    data = dict(row)
    return TurnRow(**{k: v for k, v in data.items() if k != "vec"}, vector=from_halfvec_send(data["vec"]))


TURNS_TABLE = sql.Identifier("conversation_messages")
NEAREST_TURN = sql.SQL("""SELECT m.id, m.embedding <=> %(v)s::halfvec AS distance FROM conversation_messages m
                 WHERE m.embedding IS NOT NULL AND {scope}""")
LIMIT_K = sql.Placeholder("k")


def turn_vector_search(
    conn: Conn,
    user_id: str,
    vector_literal: str,
    *,
    limit: int,
    scope: sql.Composable,
    params: dict[str, Any],
) -> list[tuple[uuid.UUID, float]]:
    """``(message id, cosine similarity)`` of the ``limit`` turns nearest to the query among the user's
    turns passing ``scope`` (``store.bm25.turn_scope``): read exactly for a user with few turns, through
    the HNSW index beyond (``sql_parts.nearest``: the two branches of ``nearest_in_partition``, for the same reasons)."""
    p = {**params, "v": vector_literal, "user_id": user_id, "k": limit}
    query = nearest(TURNS_TABLE, NEAREST_TURN.format(scope=scope), LIMIT_K)
    rows = conn.execute(query, p).fetchall()
    return sorted(((r["id"], 1.0 - float(r["distance"])) for r in rows), key=lambda p: (-p[1], p[0]))


_TURNS = sql.SQL("""SELECT {columns} FROM conversation_messages m
            JOIN conversation_sessions c ON c.user_id = m.user_id AND c.id = m.session_id
            {where}""")
TURNS_BY_ID = _TURNS.format(columns=_TURN_COLUMNS, where=sql.SQL("WHERE m.user_id = %s AND m.id = ANY(%s)"))
TURNS_AT = _TURNS.format(
    columns=_TURN_COLUMNS,
    where=sql.SQL("""JOIN unnest(%s::text[], %s::int[]) AS w(external_id, seq)
                 ON w.external_id = c.external_id AND w.seq = m.seq
            WHERE m.user_id = %s AND c.user_id = %s"""),
)


def turns_by_id(conn: Conn, user_id: str, ids: Sequence[uuid.UUID]) -> dict[uuid.UUID, TurnRow]:
    if not ids:
        return {}
    rows = conn.execute(TURNS_BY_ID, (user_id, list(ids))).fetchall()
    return {r["id"]: _turn(r) for r in rows}


FIRST_SOURCE_TURNS = """SELECT DISTINCT ON (s.memory_id) s.memory_id, s.message_id FROM memory_sources s
           JOIN conversation_messages m ON m.user_id = s.user_id AND m.id = s.message_id
           WHERE s.user_id = %s AND s.memory_id = ANY(%s) AND s.message_id IS NOT NULL
           ORDER BY s.memory_id, m.sent_at, m.seq"""


def source_turns(conn: Conn, user_id: str, memory_ids: Sequence[uuid.UUID]) -> dict[uuid.UUID, uuid.UUID]:
    """The turn each memory came from (its first ``memory_sources`` message), for the memories that have one."""
    if not memory_ids:
        return {}
    rows = conn.execute(FIRST_SOURCE_TURNS, (user_id, list(memory_ids))).fetchall()
    return {r["memory_id"]: r["message_id"] for r in rows}


def turns_at(conn: Conn, user_id: str, places: Sequence[tuple[str, int]]) -> dict[tuple[str, int], TurnRow]:
    """The stored turns at ``(session external id, seq)``: the lines around a cited turn."""
    if not places:
        return {}
    places_params = ([s for s, _ in places], [q for _, q in places], user_id, user_id)
    rows = conn.execute(TURNS_AT, places_params).fetchall()
    return {(r["session_external_id"], r["seq"]): _turn(r) for r in rows}


WITHDRAWN_TURNS = """SELECT DISTINCT s.message_id FROM memory_sources s JOIN memories x ON x.id = s.memory_id
           WHERE s.user_id = %s AND s.message_id = ANY(%s) AND x.user_id = s.user_id
             AND x.expired_at IS NOT NULL AND x.superseded_by IS NULL"""


def withdrawn_turns(conn: Conn, user_id: str, ids: Sequence[uuid.UUID]) -> set[uuid.UUID]:
    """The turns among ``ids`` a memory of which was deleted (expired, not superseded): what the
    user took back is not recalled through its turn either."""
    if not ids:
        return set()
    rows = conn.execute(WITHDRAWN_TURNS, (user_id, list(ids))).fetchall()
    return {r["message_id"] for r in rows}


# --------------------------------------------------------------------------- turn vectors, backfilled

PENDING_TURN_VECTOR_USERS = """SELECT user_id FROM conversation_messages WHERE embedding IS NULL
                               GROUP BY user_id ORDER BY min(sent_at) LIMIT %s"""
PENDING_TURN_VECTORS = """SELECT id, user_id, content FROM conversation_messages
                          WHERE user_id = %s AND embedding IS NULL AND length(content) <= %s
                          ORDER BY sent_at, id LIMIT %s FOR UPDATE SKIP LOCKED"""
SET_TURN_VECTOR = "UPDATE conversation_messages SET embedding = %s::halfvec WHERE user_id = %s AND id = %s"
COUNT_PENDING_TURN_VECTORS = """SELECT count(*) AS n FROM conversation_messages
                                WHERE embedding IS NULL AND length(content) <= %s"""
COUNT_PENDING_TURN_VECTORS_OF_USER = """SELECT count(*) AS n FROM conversation_messages
                                        WHERE embedding IS NULL AND length(content) <= %s AND user_id = %s"""


def claim_pending_turn_vectors(conn: Conn, max_chars: int, limit: int) -> list[dict[str, Any]]:
    """Turns stored without a vector (async mode, the embedder was down, or stored before migration
    0011), locked so that concurrent workers skip them. Over-long turns (``max_chars``) are stored as
    document pieces with their own vectors and stay without one, as ingest leaves them."""
    return memories.claim_per_user(conn, PENDING_TURN_VECTOR_USERS, PENDING_TURN_VECTORS, (max_chars, limit))


def set_turn_vectors(conn: Conn, rows: Sequence[tuple[str, uuid.UUID, np.ndarray]], dim: int) -> int:
    with conn.cursor() as cur:
        cur.executemany(SET_TURN_VECTOR, [(to_halfvec(v, dim), uid, mid) for uid, mid, v in rows])
    return len(rows)


def count_pending_turn_vectors(conn: Conn, max_chars: int, user_id: str | None = None) -> int:
    """How many turns ``claim_pending_turn_vectors`` has yet to hand out (of ``user_id`` if given)."""
    if user_id is None:
        row = conn.execute(COUNT_PENDING_TURN_VECTORS, (max_chars,)).fetchone()
    else:
        row = conn.execute(COUNT_PENDING_TURN_VECTORS_OF_USER, (max_chars, user_id)).fetchone()
    return int(row["n"]) if row else 0
