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
from psycopg.types.json import Jsonb

from ..ids import uuid7
from .db import Conn
from .sql_parts import EXACT_SEARCH_MAX_ROWS
from .vectors import from_halfvec_send

_SESSION_COLUMNS = (
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


def lock_session(conn: Conn, user_id: str, external_id: str, started_at: dt.datetime) -> tuple[SessionRow, bool]:
    """The session (created if new), locked for this transaction; also whether it was created."""
    row = conn.execute(
        f"""INSERT INTO conversation_sessions (id, user_id, external_id, started_at)
            VALUES (%s, %s, %s, %s) ON CONFLICT (user_id, external_id) DO NOTHING
            RETURNING {_SESSION_COLUMNS}""",
        (uuid7(), user_id, external_id, started_at),
    ).fetchone()
    if row is not None:
        return _session(row), True
    row = conn.execute(
        f"SELECT {_SESSION_COLUMNS} FROM conversation_sessions WHERE user_id = %s AND external_id = %s FOR UPDATE",
        (user_id, external_id),
    ).fetchone()
    assert row is not None
    return _session(row), False


def get_session(conn: Conn, user_id: str, external_id: str) -> SessionRow | None:
    row = conn.execute(
        f"SELECT {_SESSION_COLUMNS} FROM conversation_sessions WHERE user_id = %s AND external_id = %s",
        (user_id, external_id),
    ).fetchone()
    return None if row is None else _session(row)


def list_sessions(conn: Conn, user_id: str, *, open_only: bool = False, limit: int = 100) -> list[SessionRow]:
    where = " AND ended_at IS NULL" if open_only else ""
    rows = conn.execute(
        f"""SELECT {_SESSION_COLUMNS} FROM conversation_sessions WHERE user_id = %s{where}
            ORDER BY started_at DESC, id LIMIT %s""",
        (user_id, limit),
    ).fetchall()
    return [_session(r) for r in rows]


def insert_messages(conn: Conn, user_id: str, messages: Sequence[NewMessage]) -> list[uuid.UUID]:
    ids = [m.id or uuid7() for m in messages]
    with conn.cursor() as cur:
        cur.executemany(
            """INSERT INTO conversation_messages (id, user_id, session_id, seq, role, speaker, content, sent_at,
                                                   content_hash, raw_chunk_sha256, metadata, turn_key,
                                                   search_tokens, token_count, embedding)
               VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s::halfvec)""",
            [
                (i, user_id, m.session_id, m.seq, m.role, m.speaker, m.content, m.sent_at, m.content_hash,
                 m.raw_chunk_sha256, Jsonb(m.metadata), m.turn_key, m.search_tokens, m.token_count, m.embedding)
                for i, m in zip(ids, messages, strict=True)
            ],
        )
    return ids


def stored_turn_keys(conn: Conn, user_id: str, session_id: uuid.UUID, keys: Sequence[str]) -> dict[str, str]:
    """Which of ``keys`` are already stored in the session, with the stored turn's content hash
    (turn identity, migration 0004)."""
    if not keys:
        return {}
    rows = conn.execute(
        """SELECT turn_key, content_hash FROM conversation_messages
           WHERE user_id = %s AND session_id = %s AND turn_key = ANY(%s)""",
        (user_id, session_id, list(keys)),
    ).fetchall()
    return {r["turn_key"]: r["content_hash"] for r in rows}


def session_speakers(conn: Conn, user_id: str, session_id: uuid.UUID, roles: Sequence[str]) -> set[str]:
    """The distinct speaker names of the session's stored turns with one of ``roles``."""
    rows = conn.execute(
        """SELECT DISTINCT speaker FROM conversation_messages
           WHERE user_id = %s AND session_id = %s AND speaker IS NOT NULL AND role = ANY(%s)""",
        (user_id, session_id, list(roles)),
    ).fetchall()
    return {r["speaker"] for r in rows}


def record_activity(
    conn: Conn,
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
        """UPDATE conversation_sessions
           SET message_count = message_count + %(n)s,
               last_message_at = greatest(coalesce(last_message_at, %(t)s), %(t)s),
               ended_at = NULL, end_reason = NULL,
               metadata = metadata || jsonb_build_object(
                   'importance_sum', coalesce((metadata->>'importance_sum')::float, 0) + %(imp)s,
                   'memories_written', coalesce((metadata->>'memories_written')::int, 0) + %(w)s)
           WHERE id = %(id)s""",
        {"n": added, "t": last_message_at, "imp": importance, "w": memories_written, "id": session_id},
    )


def end_session(
    conn: Conn, user_id: str, external_id: str, *, reason: str, at: dt.datetime | None = None
) -> SessionRow | None:
    """Mark one open session ended; None when there is no such open session."""
    row = conn.execute(
        f"""UPDATE conversation_sessions SET ended_at = coalesce(%s, now()), end_reason = %s
            WHERE user_id = %s AND external_id = %s AND ended_at IS NULL RETURNING {_SESSION_COLUMNS}""",
        (at, reason, user_id, external_id),
    ).fetchone()
    return None if row is None else _session(row)


def end_idle_sessions(
    conn: Conn, idle_before: dt.datetime, *, user_id: str | None = None, exclude: uuid.UUID | None = None
) -> list[SessionRow]:
    """End every open session whose last message is older than ``idle_before`` (reason ``idle``).

    The end time is the last message time: the conversation really stopped then.
    """
    params: list[Any] = [idle_before]
    where = ""
    if user_id is not None:
        where += " AND user_id = %s"
        params.append(user_id)
    if exclude is not None:
        where += " AND id <> %s"
        params.append(exclude)
    rows = conn.execute(
        f"""UPDATE conversation_sessions SET ended_at = coalesce(last_message_at, started_at), end_reason = 'idle'
            WHERE ended_at IS NULL AND coalesce(last_message_at, started_at) < %s{where}
            RETURNING {_SESSION_COLUMNS}""",
        params,
    ).fetchall()
    return [_session(r) for r in rows]


def messages_of(conn: Conn, user_id: str, session_id: uuid.UUID) -> list[dict[str, Any]]:
    return conn.execute(
        """SELECT id, seq, role, speaker, content, sent_at, content_hash, raw_chunk_sha256, metadata
           FROM conversation_messages WHERE user_id = %s AND session_id = %s ORDER BY seq""",
        (user_id, session_id),
    ).fetchall()


def add_sources(conn: Conn, user_id: str, links: Sequence[tuple[uuid.UUID, uuid.UUID, uuid.UUID | None]]) -> None:
    """``memory_sources`` rows: (memory_id, session_id, message_id); repeats are ignored."""
    if not links:
        return
    with conn.cursor() as cur:
        cur.executemany(
            """INSERT INTO memory_sources (memory_id, session_id, message_id, user_id)
               VALUES (%s, %s, %s, %s) ON CONFLICT (memory_id, session_id) DO NOTHING""",
            [(m, s, msg, user_id) for m, s, msg in links],
        )


def sources_of(conn: Conn, user_id: str, memory_id: uuid.UUID) -> list[dict[str, Any]]:
    return conn.execute(
        """SELECT s.memory_id, s.session_id, s.message_id, c.external_id, m.seq, m.role, m.speaker, m.content,
                  m.sent_at, m.metadata
           FROM memory_sources s JOIN conversation_sessions c ON c.id = s.session_id
           LEFT JOIN conversation_messages m ON m.id = s.message_id
           WHERE s.user_id = %s AND s.memory_id = %s ORDER BY m.seq""",
        (user_id, memory_id),
    ).fetchall()


def last_episode_id(conn: Conn, user_id: str, session_id: uuid.UUID) -> uuid.UUID | None:
    """The newest current episodic memory sourced from this session (for TEMPORAL_NEXT)."""
    row = conn.execute(
        """SELECT m.id FROM memory_sources s JOIN memories m ON m.id = s.memory_id AND m.user_id = s.user_id
           WHERE s.user_id = %s AND s.session_id = %s AND m.memory_type = 'episodic' AND m.expired_at IS NULL
           ORDER BY m.valid_at DESC NULLS LAST, m.created_at DESC LIMIT 1""",
        (user_id, session_id),
    ).fetchone()
    return None if row is None else row["id"]


# ---------------------------------------------------------------- turns as a retrieval unit (issue 14)
_TURN_COLUMNS = """m.id, c.external_id AS session_external_id, m.session_id, m.seq, m.role, m.speaker, m.content,
                   m.sent_at, m.created_at, halfvec_send(m.embedding) AS vec"""


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


def turn_vector_search(
    conn: Conn, user_id: str, vector_literal: str, *, limit: int, scope: str, params: dict[str, Any]
) -> list[tuple[uuid.UUID, float]]:
    """``(message id, cosine similarity)`` of the ``limit`` turns nearest to the query among the user's
    turns passing ``scope`` (``store.bm25.turn_scope``): read exactly for a user with few turns, through
    the HNSW index beyond (the two branches of ``sql_parts.nearest_in_partition``, for the same reasons)."""
    p = {**params, "v": vector_literal, "user_id": user_id, "k": limit}
    select = f"""SELECT m.id, m.embedding <=> %(v)s::halfvec AS distance FROM conversation_messages m
                 WHERE m.embedding IS NOT NULL AND {scope}"""
    rows = conn.execute(
        f"""WITH n AS (SELECT count(*) AS rows FROM (SELECT 1 FROM conversation_messages c
                       WHERE c.user_id = %(user_id)s LIMIT {EXACT_SEARCH_MAX_ROWS + 1}) c)
            ({select} AND (SELECT rows FROM n) <= {EXACT_SEARCH_MAX_ROWS}
                  ORDER BY (m.embedding <=> %(v)s::halfvec) + 0 LIMIT %(k)s)
            UNION ALL
            ({select} AND (SELECT rows FROM n) > {EXACT_SEARCH_MAX_ROWS}
                  ORDER BY m.embedding <=> %(v)s::halfvec LIMIT %(k)s)""",
        p,
    ).fetchall()
    return sorted(((r["id"], 1.0 - float(r["distance"])) for r in rows), key=lambda p: (-p[1], p[0]))


def turns_by_id(conn: Conn, user_id: str, ids: Sequence[uuid.UUID]) -> dict[uuid.UUID, TurnRow]:
    if not ids:
        return {}
    rows = conn.execute(
        f"""SELECT {_TURN_COLUMNS} FROM conversation_messages m JOIN conversation_sessions c ON c.id = m.session_id
            WHERE m.user_id = %s AND m.id = ANY(%s)""",
        (user_id, list(ids)),
    ).fetchall()
    return {r["id"]: _turn(r) for r in rows}


def source_turns(conn: Conn, user_id: str, memory_ids: Sequence[uuid.UUID]) -> dict[uuid.UUID, uuid.UUID]:
    """The turn each memory came from (its first ``memory_sources`` message), for the memories that have one."""
    if not memory_ids:
        return {}
    rows = conn.execute(
        """SELECT DISTINCT ON (s.memory_id) s.memory_id, s.message_id FROM memory_sources s
           JOIN conversation_messages m ON m.id = s.message_id
           WHERE s.user_id = %s AND s.memory_id = ANY(%s) AND s.message_id IS NOT NULL
           ORDER BY s.memory_id, m.sent_at, m.seq""",
        (user_id, list(memory_ids)),
    ).fetchall()
    return {r["memory_id"]: r["message_id"] for r in rows}


def turns_at(conn: Conn, user_id: str, places: Sequence[tuple[str, int]]) -> dict[tuple[str, int], TurnRow]:
    """The stored turns at ``(session external id, seq)``: the lines around a cited turn."""
    if not places:
        return {}
    rows = conn.execute(
        f"""SELECT {_TURN_COLUMNS} FROM conversation_messages m JOIN conversation_sessions c ON c.id = m.session_id
            JOIN unnest(%s::text[], %s::int[]) AS w(external_id, seq) ON w.external_id = c.external_id
                 AND w.seq = m.seq
            WHERE m.user_id = %s AND c.user_id = %s""",
        ([s for s, _ in places], [q for _, q in places], user_id, user_id),
    ).fetchall()
    return {(r["session_external_id"], r["seq"]): _turn(r) for r in rows}


def withdrawn_turns(conn: Conn, user_id: str, ids: Sequence[uuid.UUID]) -> set[uuid.UUID]:
    """The turns among ``ids`` a memory of which was deleted (expired, not superseded): what the
    user took back is not recalled through its turn either."""
    if not ids:
        return set()
    rows = conn.execute(
        """SELECT DISTINCT s.message_id FROM memory_sources s JOIN memories x ON x.id = s.memory_id
           WHERE s.user_id = %s AND s.message_id = ANY(%s) AND x.user_id = s.user_id
             AND x.expired_at IS NOT NULL AND x.superseded_by IS NULL""",
        (user_id, list(ids)),
    ).fetchall()
    return {r["message_id"] for r in rows}
