"""SQL of selective forgetting (seed 003 §24): find every trace of a target, then hard-delete it.

The caller (``neuromem.lifecycle.forget``) owns the transaction. Work sets live in
temporary tables dropped at commit (``_forget_*``), so a target of 100k memories is
joined in the database, never shipped to Python and back:

- ``_forget_mem (id, memory_type)`` — memory rows (every version of each chain);
- ``_forget_msg (id)``, ``_forget_session (id)``, ``_forget_chunk (sha256)``,
  ``_forget_doc (id)``, ``_forget_node (id)`` — messages, sessions, raw chunks,
  document files and graph nodes.

:func:`close_over` grows the sets to a fixpoint by the derivation rules: a memory takes
its whole supersede chain, the messages it was extracted from (``memory_sources``) and
the raw chunks it cites; a message takes its chunks; a chunk takes the messages and
memories that hold or cite its words; an episode takes the memories extracted from it
(``source_episode_ids``) — a compression summary goes with any of its originals, but its
own provenance (the originals' words) draws nothing further in. Traits are derived by reflection and are never seeds here:
:mod:`neuromem.lifecycle.forget` recomputes or dissolves them from the evidence left.

:func:`erase` deletes and returns, per table, the row counts and the sha256 of every
deleted content and id (the receipt's proof). Nothing here keeps deleted text.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from psycopg import sql
from psycopg.types.json import Jsonb

from ..ids import uuid7
from .db import Conn
from .traits import ADVISORY_NAMESPACE as REFLECTION_LOCK_NAMESPACE

_SETS = {
    "_forget_mem": "id uuid NOT NULL, memory_type varchar(50) NOT NULL, PRIMARY KEY (id, memory_type)",
    "_forget_msg": "id uuid PRIMARY KEY",
    "_forget_session": "id uuid PRIMARY KEY",
    "_forget_chunk": "sha256 char(64) PRIMARY KEY",
    "_forget_doc": "id uuid PRIMARY KEY",
    "_forget_node": "id uuid PRIMARY KEY",
}

#: Tables whose rows carry a user's data but are not reached through the work sets: a whole-user
#: forget clears every table with a ``user_id`` column found in the catalog (so tables added
#: later are covered); receipts stay, they are the proof.
KEEP_ON_FORGET = ("forget_receipts",)

#: JSONB logs that may quote deleted words or ids (``decision_fallback`` keeps 200 characters).
_LOG_COLUMNS = (("pipeline_events", "detail"), ("reflection_cycles", "details"))
_LOG_QUOTE_CHARS = 200

#: Node types that are never removed as orphans (the user's own node anchors relations).
_KEPT_NODE_TYPES = ("user",)


def sha256_hex(text: str) -> str:
    """The hex sha256 of a text's UTF-8 bytes (what the receipt proves was deleted)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _sha(expr: str) -> sql.Composed:
    """The text a statement returns for hashing: ``sha256_hex`` runs in Python, since on a Citus cluster
    a RETURNING clause may call only immutable functions (``convert_to`` is stable)."""
    return sql.Composed([sql.SQL(expr)])


CREATE_SET = sql.SQL("CREATE TEMP TABLE IF NOT EXISTS {name} ({columns}) ON COMMIT DROP")
TRUNCATE_SET = sql.SQL("TRUNCATE {name}")
COUNT_SET = sql.SQL("SELECT count(*) AS n FROM {name}")


def open_sets(conn: Conn) -> None:
    """Create the empty work sets for this transaction."""
    for name, columns in _SETS.items():
        conn.execute(CREATE_SET.format(name=sql.Identifier(name), columns=sql.SQL(columns)))
        conn.execute(TRUNCATE_SET.format(name=sql.Identifier(name)))


# --------------------------------------------------------------------------- seeds


LOCK_USER = "SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))"


def lock_user(conn: Conn, user_id: str) -> None:
    """One forget of a user at a time, until the transaction ends; and no reflection cycle of the
    user meanwhile: a running cycle commits first (its log then names the rows, and is scrubbed
    below), a later one waits and never sees the forgotten rows."""
    conn.execute(LOCK_USER, (f"forget:{user_id}",))
    conn.execute(LOCK_USER, (REFLECTION_LOCK_NAMESPACE + user_id,))


def seed_user(conn: Conn, user_id: str) -> int:
    return _insert(conn, "INSERT INTO _forget_mem SELECT id, memory_type FROM memories WHERE user_id = %(u)s", user_id)


SEED_TRAITS = "INSERT INTO _forget_mem SELECT unnest(%s::uuid[]), 'trait'"


def seed_traits(conn: Conn, ids: Sequence[uuid.UUID]) -> int:
    return conn.execute(SEED_TRAITS, (list(ids),)).rowcount


SEED_MEMORY = """INSERT INTO _forget_mem SELECT id, memory_type FROM memories
           WHERE user_id = %s AND id = %s ON CONFLICT DO NOTHING"""


def seed_memory(conn: Conn, user_id: str, memory_id: uuid.UUID) -> int:
    """One memory of any type (a trait named on purpose goes with its evidence links)."""
    cur = conn.execute(SEED_MEMORY, (user_id, memory_id))
    return cur.rowcount


SEED_SESSION_ROW = "INSERT INTO _forget_session SELECT id FROM conversation_sessions WHERE user_id = %s AND external_id = %s"
SEED_SESSION_MESSAGES = """INSERT INTO _forget_msg SELECT m.id FROM conversation_messages m JOIN _forget_session s
           ON s.id = m.session_id WHERE m.user_id = %s ON CONFLICT DO NOTHING"""
SEED_SESSION_MEMORIES = """INSERT INTO _forget_mem SELECT DISTINCT m.id, m.memory_type FROM memory_sources ms
           JOIN _forget_session s ON s.id = ms.session_id
           JOIN memories m ON m.id = ms.memory_id AND m.user_id = ms.user_id
           WHERE ms.user_id = %s AND m.memory_type <> 'trait' ON CONFLICT DO NOTHING"""


def seed_session(conn: Conn, user_id: str, external_id: str) -> int:
    cur = conn.execute(SEED_SESSION_ROW, (user_id, external_id))
    conn.execute(SEED_SESSION_MESSAGES, (user_id,))
    conn.execute(SEED_SESSION_MEMORIES, (user_id,))
    return cur.rowcount


SEED_DOCUMENT_FILE = "INSERT INTO _forget_doc SELECT id FROM document_files WHERE user_id = %s AND id = %s"
SEED_DOCUMENT_CHUNKS = """INSERT INTO _forget_mem SELECT id, memory_type FROM memories
           WHERE user_id = %s AND memory_type = 'document' AND file_id = %s ON CONFLICT DO NOTHING"""


def seed_document(conn: Conn, user_id: str, file_id: uuid.UUID) -> int:
    cur = conn.execute(SEED_DOCUMENT_FILE,
                       (user_id, file_id))  # fmt: skip
    conn.execute(SEED_DOCUMENT_CHUNKS, (user_id, file_id))
    return cur.rowcount


SEED_WINDOW_MESSAGES = """INSERT INTO _forget_msg SELECT id FROM conversation_messages
           WHERE user_id = %s AND sent_at >= %s AND sent_at < %s ON CONFLICT DO NOTHING"""
SEED_WINDOW_MEMORIES = """INSERT INTO _forget_mem SELECT id, memory_type FROM memories
           WHERE user_id = %s AND memory_type <> 'trait' AND created_at >= %s AND created_at < %s
           ON CONFLICT DO NOTHING"""
SEED_WINDOW_DOCUMENTS = """INSERT INTO _forget_doc SELECT id FROM document_files
           WHERE user_id = %s AND created_at >= %s AND created_at < %s ON CONFLICT DO NOTHING"""
SEED_WINDOW_DOCUMENT_CHUNKS = """INSERT INTO _forget_mem SELECT m.id, m.memory_type FROM memories m JOIN _forget_doc d ON d.id = m.file_id
           WHERE m.user_id = %s AND m.memory_type = 'document' ON CONFLICT DO NOTHING"""


def seed_window(conn: Conn, user_id: str, since: dt.datetime | None, until: dt.datetime | None) -> int:
    """Everything recorded in ``[since, until)``: messages by ``sent_at``, memories and documents by
    ``created_at`` (traits excluded: they are recomputed from what is left)."""
    lo = since or dt.datetime.min.replace(tzinfo=dt.UTC)
    hi = until or dt.datetime.max.replace(tzinfo=dt.UTC)
    n = conn.execute(SEED_WINDOW_MESSAGES, (user_id, lo, hi)).rowcount
    n += conn.execute(SEED_WINDOW_MEMORIES, (user_id, lo, hi)).rowcount
    n += conn.execute(SEED_WINDOW_DOCUMENTS, (user_id, lo, hi)).rowcount
    conn.execute(SEED_WINDOW_DOCUMENT_CHUNKS, (user_id,))
    return n


SEED_SCOPE_MEMORIES = """INSERT INTO _forget_mem SELECT id, memory_type FROM memories
           WHERE user_id = %(u)s AND (%(agent)s::text IS NULL OR agent_id = %(agent)s)
             AND (%(run)s::text IS NULL OR run_id = %(run)s) ON CONFLICT DO NOTHING"""


def seed_scope(conn: Conn, user_id: str, agent_id: str | None, run_id: str | None) -> int:
    """Every version of the memories an agent (and/or a run) of the user wrote (issue 26 item 2)."""
    return conn.execute(SEED_SCOPE_MEMORIES, {"u": user_id, "agent": agent_id, "run": run_id}).rowcount


SEED_TEXT_MEMORIES = """INSERT INTO _forget_mem SELECT id, memory_type FROM memories
           WHERE user_id = %s AND memory_type <> 'trait' AND fts @@ to_tsquery('simple', %s)
           ON CONFLICT DO NOTHING"""
SEED_TEXT_CHUNKS = """INSERT INTO _forget_chunk SELECT sha256 FROM raw_chunks
           WHERE user_id = %s AND fts @@ to_tsquery('simple', %s) ON CONFLICT DO NOTHING"""


def seed_text(conn: Conn, user_id: str, tsquery: str) -> int:
    """Every memory version (not traits) and raw chunk whose full text matches ``tsquery``."""
    n = conn.execute(SEED_TEXT_MEMORIES, (user_id, tsquery)).rowcount
    n += conn.execute(SEED_TEXT_CHUNKS, (user_id, tsquery)).rowcount
    return n


def seed_nodes(conn: Conn, user_id: str, names: Sequence[str], node_types: Sequence[str] | None,
               edge_types: Sequence[str] | None) -> int:  # fmt: skip
    """Graph nodes named ``names`` (or with such an alias), of ``node_types`` (None: any but the
    user and raw-chunk nodes), and the memories linked to them by ``edge_types`` (None: any)."""
    types = _OF_NODE_TYPES if node_types else _NOT_KEPT_NODE_TYPES
    n = conn.execute(SEED_NODES.format(types=types),
                     {"u": user_id, "types": list(node_types or ()), "names": list(names)}).rowcount  # fmt: skip
    edges = _OF_EDGE_TYPES if edge_types else sql.SQL("")
    conn.execute(SEED_NODE_MEMORIES.format(edges=edges), {"u": user_id, "edges": list(edge_types or ())})
    return n


SEED_NODES = sql.SQL(
    """INSERT INTO _forget_node SELECT id FROM graph_nodes
       WHERE user_id = %(u)s AND {types}
         AND (normalized_name = ANY(%(names)s) OR aliases && %(names)s) ON CONFLICT DO NOTHING"""
)
_OF_NODE_TYPES = sql.SQL("node_type = ANY(%(types)s)")
_NOT_KEPT_NODE_TYPES = sql.SQL("node_type NOT IN ('user', 'raw_chunk')")
_OF_EDGE_TYPES = sql.SQL("AND e.edge_type = ANY(%(edges)s)")
SEED_NODE_MEMORIES = sql.SQL(
        """INSERT INTO _forget_mem
            SELECT DISTINCT m.id, m.memory_type FROM graph_edges e
            JOIN _forget_node n ON n.id = e.target_id OR n.id = e.source_id
            JOIN memories m ON m.user_id = e.user_id
             AND ((e.source_kind = 'memory' AND m.id = e.source_id)
               OR (e.target_kind = 'memory' AND m.id = e.target_id)
               OR m.id::text = e.properties->>'memory_id')
            WHERE e.user_id = %(u)s AND m.memory_type <> 'trait' {edges}
            ON CONFLICT DO NOTHING"""
)


SEED_SOFT_DELETED_MEMORIES = """INSERT INTO _forget_mem SELECT id, memory_type FROM memories
           WHERE user_id = %s AND expired_at < %s AND superseded_by IS NULL AND archived_at IS NULL
           ON CONFLICT DO NOTHING"""
SEED_DELETED_DOCUMENTS = """INSERT INTO _forget_doc SELECT id FROM document_files
           WHERE user_id = %s AND deleted_at < %s ON CONFLICT DO NOTHING"""


def seed_soft_deleted(conn: Conn, user_id: str, before: dt.datetime) -> int:
    """Rows soft-deleted (``expired_at`` without a successor, not archived) before ``before``, and deleted
    documents."""
    n = conn.execute(SEED_SOFT_DELETED_MEMORIES, (user_id, before)).rowcount
    n += conn.execute(SEED_DELETED_DOCUMENTS, (user_id, before)).rowcount
    return n


_RETENTION_COLUMNS = {"type": "memory_type", "category": "category"}
SEED_OLDER_THAN_OF = sql.SQL(
    """INSERT INTO _forget_mem SELECT id, memory_type FROM memories
       WHERE user_id = %s AND {column} = %s AND created_at < %s ON CONFLICT DO NOTHING"""
)
USERS_WITH_OLDER_THAN = sql.SQL(
    "SELECT DISTINCT user_id FROM memories WHERE {column} = %s AND created_at < %s ORDER BY user_id LIMIT %s"
)
SEED_OLDER_THAN = """INSERT INTO _forget_doc SELECT id FROM document_files
               WHERE user_id = %s AND created_at < %s ON CONFLICT DO NOTHING"""


def seed_older_than(conn: Conn, user_id: str, field: str, value: str, before: dt.datetime) -> int:
    """Retention (issue 16): every version of the memories of one type (``field="type"``) or category
    (``"category"``) written before ``before``; for documents, their files too."""
    column = sql.Identifier(_RETENTION_COLUMNS[field])
    n = conn.execute(SEED_OLDER_THAN_OF.format(column=column), (user_id, value, before)).rowcount
    if field == "type" and value == "document":
        n += conn.execute(SEED_OLDER_THAN, (user_id, before)).rowcount
    return n


def users_with_older_than(conn: Conn, field: str, value: str, before: dt.datetime, limit: int) -> list[str]:
    column = sql.Identifier(_RETENTION_COLUMNS[field])
    rows = conn.execute(USERS_WITH_OLDER_THAN.format(column=column), (value, before, limit)).fetchall()
    return [r["user_id"] for r in rows]


USERS_WITH_SOFT_DELETED = """SELECT user_id FROM (
               SELECT user_id FROM memories WHERE expired_at < %(b)s AND superseded_by IS NULL AND archived_at IS NULL
               UNION SELECT user_id FROM document_files WHERE deleted_at < %(b)s) u
           ORDER BY user_id LIMIT %(n)s"""


def users_with_soft_deleted(conn: Conn, before: dt.datetime, limit: int) -> list[str]:
    rows = conn.execute(USERS_WITH_SOFT_DELETED, {"b": before, "n": limit}).fetchall()
    return [r["user_id"] for r in rows]


# --------------------------------------------------------------------------- closure


# the derivation rules of close_over (module docstring), each a step that grows one work set
DERIVE_OLDER_VERSIONS = """
            INSERT INTO _forget_mem SELECT m.id, m.memory_type FROM memories m
            JOIN _forget_mem f ON m.superseded_by = f.id
            WHERE m.user_id = %(u)s AND NOT EXISTS (SELECT 1 FROM memories s WHERE s.user_id = %(u)s AND s.id = f.id
                                                    AND s.memory_type = f.memory_type AND s.metadata ? 'summary_of')
            ON CONFLICT DO NOTHING"""
DERIVE_NEWER_VERSIONS = """
            INSERT INTO _forget_mem SELECT n.id, n.memory_type FROM memories m
            JOIN _forget_mem f ON f.id = m.id AND f.memory_type = m.memory_type
            JOIN memories n ON n.id = m.superseded_by AND n.user_id = m.user_id
            WHERE m.user_id = %(u)s AND NOT n.metadata ? 'summary_of' ON CONFLICT DO NOTHING"""
DERIVE_DOCUMENT_CHUNKS = """
            INSERT INTO _forget_mem SELECT m.id, m.memory_type FROM memories m JOIN _forget_doc d ON d.id = m.file_id
            WHERE m.user_id = %(u)s AND m.memory_type = 'document' ON CONFLICT DO NOTHING"""
DERIVE_SOURCE_MESSAGES = """
            INSERT INTO _forget_msg SELECT DISTINCT s.message_id FROM memory_sources s
            JOIN _forget_mem f ON f.id = s.memory_id
            JOIN memories m ON m.user_id = s.user_id AND m.id = f.id AND m.memory_type = f.memory_type
                                AND NOT m.metadata ? 'summary_of'
            WHERE s.user_id = %(u)s AND s.message_id IS NOT NULL ON CONFLICT DO NOTHING"""
DERIVE_CITED_CHUNKS = """
            INSERT INTO _forget_chunk SELECT DISTINCT ref->>'sha256' FROM memories m
            JOIN _forget_mem f ON f.id = m.id AND f.memory_type = m.memory_type,
            jsonb_array_elements(m.raw_refs) ref
            WHERE m.user_id = %(u)s AND ref ? 'sha256' AND NOT m.metadata ? 'summary_of'
            ON CONFLICT DO NOTHING"""
DERIVE_MESSAGE_CHUNKS = """
            INSERT INTO _forget_chunk SELECT DISTINCT c.raw_chunk_sha256 FROM conversation_messages c
            JOIN _forget_msg f ON f.id = c.id
            WHERE c.user_id = %(u)s AND c.raw_chunk_sha256 IS NOT NULL ON CONFLICT DO NOTHING"""
DERIVE_CHUNK_MESSAGES = """
            INSERT INTO _forget_msg SELECT c.id FROM conversation_messages c JOIN _forget_chunk k
            ON k.sha256 = c.raw_chunk_sha256 WHERE c.user_id = %(u)s ON CONFLICT DO NOTHING"""
DERIVE_CHUNK_CITERS = """
            INSERT INTO _forget_mem SELECT DISTINCT m.id, m.memory_type FROM _forget_chunk k
            JOIN LATERAL (SELECT id, memory_type FROM memories
                          WHERE user_id = %(u)s AND memory_type <> 'trait'
                            AND raw_refs @> jsonb_build_array(jsonb_build_object('sha256', k.sha256::text))) m ON true
            ON CONFLICT DO NOTHING"""
DERIVE_MESSAGE_EXTRACTS = """
            INSERT INTO _forget_mem SELECT DISTINCT m.id, m.memory_type FROM memory_sources s
            JOIN _forget_msg f ON f.id = s.message_id
            JOIN memories m ON m.id = s.memory_id AND m.user_id = s.user_id
            WHERE s.user_id = %(u)s AND m.memory_type <> 'trait' ON CONFLICT DO NOTHING"""
DERIVE_EPISODE_EXTRACTS = """
            INSERT INTO _forget_mem SELECT m.id, m.memory_type FROM memories m
            WHERE m.user_id = %(u)s AND m.memory_type <> 'trait' AND cardinality(m.source_episode_ids) > 0
              AND m.source_episode_ids && (SELECT coalesce(array_agg(id), '{}') FROM _forget_mem
                                           WHERE memory_type = 'episodic')
            ON CONFLICT DO NOTHING"""


def _insert(conn: Conn, query: str, user_id: str) -> int:
    return conn.execute(query, {"u": user_id}).rowcount


def close_over(conn: Conn, user_id: str, *, max_rounds: int = 8, derived: bool = True) -> None:
    """Grow the work sets to a fixpoint of the derivation rules (module docstring). With
    ``derived=False`` (the purge of soft-deleted rows) no other memory is drawn in: only the
    rows' chains, sources and cited chunks (see :func:`spare_shared`)."""
    for _ in range(max_rounds):
        grew = 0
        # every version of each chain, both directions (a compression summary is not a version:
        # the chain stops there, see lifecycle.compress); one step per round, each on an index
        grew += _insert(conn, DERIVE_OLDER_VERSIONS, user_id)
        grew += _insert(conn, DERIVE_NEWER_VERSIONS, user_id)
        # documents whose chunks go take their file row along only when targeted; chunks of a
        # targeted document go
        grew += _insert(conn, DERIVE_DOCUMENT_CHUNKS, user_id)
        # messages the memories were extracted from
        grew += _insert(conn, DERIVE_SOURCE_MESSAGES, user_id)
        # chunks the memories cite and the messages hold
        grew += _insert(conn, DERIVE_CITED_CHUNKS, user_id)
        grew += _insert(conn, DERIVE_MESSAGE_CHUNKS, user_id)
        if not derived:
            if grew == 0:
                return
            continue
        # messages holding a forgotten chunk's words
        grew += _insert(conn, DERIVE_CHUNK_MESSAGES, user_id)
        # memories citing a forgotten chunk, extracted from a forgotten message or episode
        grew += _insert(conn, DERIVE_CHUNK_CITERS, user_id)
        grew += _insert(conn, DERIVE_MESSAGE_EXTRACTS, user_id)
        grew += _insert(conn, DERIVE_EPISODE_EXTRACTS, user_id)
        if grew == 0:
            return


SPARE_MESSAGES_OF_KEPT_MEMORIES = """DELETE FROM _forget_msg f USING memory_sources s
            WHERE s.user_id = %(u)s AND s.message_id = f.id
              AND NOT EXISTS (SELECT 1 FROM _forget_mem x WHERE x.id = s.memory_id)"""
SPARE_CHUNKS_CITED_BY_KEPT_MEMORIES = """DELETE FROM _forget_chunk k WHERE EXISTS (
            SELECT 1 FROM memories m, jsonb_array_elements(m.raw_refs) ref
            WHERE m.user_id = %(u)s AND ref->>'sha256' = k.sha256
              AND NOT EXISTS (SELECT 1 FROM _forget_mem x WHERE x.id = m.id AND x.memory_type = m.memory_type))"""
SPARE_CHUNKS_OF_KEPT_MESSAGES = """DELETE FROM _forget_chunk k WHERE EXISTS (
            SELECT 1 FROM conversation_messages c WHERE c.user_id = %(u)s AND c.raw_chunk_sha256 = k.sha256
              AND NOT EXISTS (SELECT 1 FROM _forget_msg f WHERE f.id = c.id))"""
SPARE_MESSAGES_OF_KEPT_CHUNKS = """DELETE FROM _forget_msg f USING conversation_messages c
            WHERE c.user_id = %(u)s AND c.id = f.id AND c.raw_chunk_sha256 IS NOT NULL
              AND NOT EXISTS (SELECT 1 FROM _forget_chunk k WHERE k.sha256 = c.raw_chunk_sha256)"""


def spare_shared(conn: Conn, user_id: str) -> None:
    """Keep the messages and chunks that a memory outside ``_forget_mem`` still stands on (the purge
    removes deleted rows, not what live memories were extracted from)."""
    u = {"u": user_id}
    for _ in range(4):
        n = conn.execute(SPARE_MESSAGES_OF_KEPT_MEMORIES, u).rowcount  # fmt: skip
        n += conn.execute(SPARE_CHUNKS_CITED_BY_KEPT_MEMORIES,
            u).rowcount  # fmt: skip
        n += conn.execute(SPARE_CHUNKS_OF_KEPT_MESSAGES, u).rowcount  # fmt: skip
        n += conn.execute(SPARE_MESSAGES_OF_KEPT_CHUNKS, u).rowcount  # fmt: skip
        if n == 0:
            return


EXTRA_CHUNK_SHAS = """SELECT c.content, c.raw_chunk_sha256 FROM conversation_messages c JOIN _forget_msg f ON f.id = c.id
           WHERE c.user_id = %s"""


def extra_chunk_shas(conn: Conn, user_id: str) -> list[tuple[str, str]]:
    """(message text, first chunk sha) of forgotten messages, to recompute the further chunks of
    long turns (a turn longer than one chunk is cut in several)."""
    rows = conn.execute(EXTRA_CHUNK_SHAS, (user_id,)).fetchall()
    return [(r["content"], (r["raw_chunk_sha256"] or "").strip()) for r in rows]


ADD_CHUNKS = "INSERT INTO _forget_chunk SELECT unnest(%s::text[]) ON CONFLICT DO NOTHING"


def add_chunks(conn: Conn, shas: Sequence[str]) -> int:
    if not shas:
        return 0
    return conn.execute(
        ADD_CHUNKS, (list(shas),)
    ).rowcount


# --------------------------------------------------------------------------- preview


@dataclass(frozen=True, slots=True)
class PreviewRow:
    """One memory a forget would remove (a dry run shows the words, nothing is deleted)."""

    id: uuid.UUID
    memory_type: str
    content: str
    created_at: dt.datetime
    current: bool


PREVIEW_MEMORIES = """SELECT m.id, m.memory_type, m.content, m.created_at, m.expired_at IS NULL AS current
           FROM memories m JOIN _forget_mem f ON f.id = m.id AND f.memory_type = m.memory_type
           WHERE m.user_id = %s ORDER BY m.created_at, m.id LIMIT %s"""


def preview(conn: Conn, user_id: str, limit: int) -> tuple[list[PreviewRow], dict[str, int]]:
    rows = conn.execute(PREVIEW_MEMORIES, (user_id, limit)).fetchall()
    counts = {name: int(conn.execute(COUNT_SET.format(name=sql.Identifier(name))).fetchone()["n"])  # type: ignore[index]
              for name in _SETS}  # fmt: skip
    return [PreviewRow(**r) for r in rows], counts


# --------------------------------------------------------------------------- erase


@dataclass
class Erased:
    """What :func:`erase` removed: rows per table, sha256 of contents and ids, chunk files."""

    counts: dict[str, int] = field(default_factory=dict)
    content_sha256: list[str] = field(default_factory=list)
    id_sha256: list[str] = field(default_factory=list)
    files: list[Path] = field(default_factory=list)
    tombstones: list[tuple[str, str, str]] = field(default_factory=list)  # (memory_type, id sha, content sha)
    lost_evidence: list[dict[str, Any]] = field(default_factory=list)  # trait_id, evidence_type, quality
    log_needles: list[str] = field(default_factory=list)

    def add(self, table: str, n: int) -> None:
        if n:
            self.counts[table] = self.counts.get(table, 0) + n


MARK_CHUNK_NODES = """INSERT INTO _forget_node SELECT n.id FROM graph_nodes n JOIN _forget_chunk k
                    ON n.node_type = 'raw_chunk' AND n.normalized_name = k.sha256
                    WHERE n.user_id = %(u)s ON CONFLICT DO NOTHING"""
MARK_DOCUMENT_NODES = """INSERT INTO _forget_node SELECT n.id FROM graph_nodes n JOIN _forget_doc d
                    ON n.node_type = 'document' AND n.normalized_name = d.id::text
                    WHERE n.user_id = %(u)s ON CONFLICT DO NOTHING"""
DELETE_EDGES = """WITH gone AS (
               DELETE FROM graph_edges e WHERE e.user_id = %(u)s AND (
                   e.source_id IN (SELECT id FROM _forget_mem UNION ALL SELECT id FROM _forget_node)
                OR e.target_id IN (SELECT id FROM _forget_mem UNION ALL SELECT id FROM _forget_node)
                OR (e.properties ? 'memory_id' AND e.properties->>'memory_id' IN (SELECT id::text FROM _forget_mem)))
               RETURNING e.source_id, e.source_kind, e.target_id, e.target_kind)
           SELECT array_agg(DISTINCT x) AS ids, (SELECT count(*) FROM gone) AS n FROM (
               SELECT source_id AS x FROM gone WHERE source_kind = 'node'
               UNION ALL SELECT target_id FROM gone WHERE target_kind = 'node') t"""
DELETE_EVIDENCE = """DELETE FROM trait_evidence WHERE user_id = %(u)s AND (memory_id IN (SELECT id FROM _forget_mem)
               OR trait_id IN (SELECT id FROM _forget_mem WHERE memory_type = 'trait'))
           RETURNING trait_id, evidence_type, quality"""
FORGOTTEN_TRAITS = "SELECT id FROM _forget_mem WHERE memory_type = 'trait'"
DELETE_CONFLICTS = """DELETE FROM memory_conflicts WHERE user_id = %(u)s AND (old_id IN (SELECT id FROM _forget_mem)
           OR new_id IN (SELECT id FROM _forget_mem)) RETURNING id::text AS id"""
DELETE_SOURCES = """DELETE FROM memory_sources WHERE user_id = %(u)s AND (memory_id IN (SELECT id FROM _forget_mem)
           OR message_id IN (SELECT id FROM _forget_msg) OR session_id IN (SELECT id FROM _forget_session))"""
DELETE_HISTORY = "DELETE FROM memory_history WHERE user_id = %(u)s AND memory_id IN (SELECT id FROM _forget_mem)"
DELETE_CHUNKS = """DELETE FROM raw_chunks r USING _forget_chunk k WHERE r.user_id = %(u)s AND r.sha256 = k.sha256
           RETURNING r.sha256, r.path"""

_QUOTE_CHARS = sql.Literal(_LOG_QUOTE_CHARS)
DELETE_NODES = sql.SQL("""DELETE FROM graph_nodes WHERE user_id = %(u)s AND id IN (SELECT id FROM _forget_node)
            RETURNING {id_sha} AS id_text, {name_sha} AS content_text""").format(id_sha=_sha("id::text"),
                                                                              name_sha=_sha("name"))
DELETE_MEMORIES = sql.SQL("""DELETE FROM memories m USING _forget_mem f
            WHERE m.user_id = %(u)s AND m.id = f.id AND m.memory_type = f.memory_type
            RETURNING m.memory_type, m.file_id, m.id::text AS id, {id_sha} AS id_text,
                      {content_sha} AS content_text, left(m.content, {quote}) AS quote""").format(
    id_sha=_sha("m.id::text"), content_sha=_sha("m.content"), quote=_QUOTE_CHARS
)
DELETE_MESSAGES = sql.SQL("""DELETE FROM conversation_messages c USING _forget_msg f WHERE c.user_id = %(u)s AND c.id = f.id
            RETURNING c.id::text AS id, c.session_id, {id_sha} AS id_text,
                      {content_sha} AS content_text, left(c.content, {quote}) AS quote""").format(
    id_sha=_sha("c.id::text"), content_sha=_sha("c.content"), quote=_QUOTE_CHARS
)
# sessions targeted, and sessions left without any message
DELETE_SESSIONS = sql.SQL("""DELETE FROM conversation_sessions s WHERE s.user_id = %(u)s AND (
                s.id IN (SELECT id FROM _forget_session)
             OR (s.id = ANY(%(emptied)s) AND NOT EXISTS (
                   SELECT 1 FROM conversation_messages c WHERE c.user_id = %(u)s AND c.session_id = s.id)))
            RETURNING s.id::text AS id, s.external_id, {id_sha} AS id_text""").format(id_sha=_sha("s.id::text"))
# files targeted, and files left without any chunk
DELETE_DOCUMENTS = sql.SQL("""DELETE FROM document_files d WHERE d.user_id = %(u)s AND (d.id IN (SELECT id FROM _forget_doc)
                OR (d.id = ANY(%(files)s) AND NOT EXISTS (
                      SELECT 1 FROM memories m WHERE m.user_id = %(u)s AND m.memory_type = 'document'
                      AND m.file_id = d.id)))
            RETURNING d.id::text AS id, d.sha256, {id_sha} AS id_text""").format(id_sha=_sha("d.id::text"))


def erase(conn: Conn, user_id: str) -> Erased:
    """Hard-delete every row the work sets name, with what depends on it. Returns the proof material."""
    out = Erased()
    u = {"u": user_id}
    # graph: raw-chunk and document nodes of what goes, then every edge touching a forgotten
    # memory or node (relation edges name their memory in properties.memory_id)
    conn.execute(MARK_CHUNK_NODES, u)
    conn.execute(MARK_DOCUMENT_NODES, u)
    touched = conn.execute(DELETE_EDGES, u).fetchone()
    assert touched is not None
    out.add("graph_edges", int(touched["n"] or 0))
    _mark_orphan_nodes(conn, user_id, touched["ids"] or [])
    nodes = conn.execute(DELETE_NODES, u).fetchall()
    out.add("graph_nodes", len(nodes))
    out.id_sha256.extend(sha256_hex(r["id_text"]) for r in nodes)
    # trait evidence of forgotten memories (the caller recomputes those traits)
    lost = conn.execute(DELETE_EVIDENCE, u).fetchall()
    out.add("trait_evidence", len(lost))
    gone = {r["id"] for r in conn.execute(FORGOTTEN_TRAITS).fetchall()}
    out.lost_evidence = [dict(r) for r in lost if r["trait_id"] not in gone]
    # conflicts of the review queue naming a forgotten fact (their attribute may quote it)
    conflicts = conn.execute(DELETE_CONFLICTS, u).fetchall()
    out.add("memory_conflicts", len(conflicts))
    out.log_needles.extend(r["id"] for r in conflicts)
    # provenance rows
    out.add("memory_sources", conn.execute(DELETE_SOURCES, u).rowcount)
    out.add("memory_history", conn.execute(DELETE_HISTORY, u).rowcount)
    mems = conn.execute(DELETE_MEMORIES, u).fetchall()
    out.add("memories", len(mems))
    out.tombstones = [(r["memory_type"], sha256_hex(r["id_text"]), sha256_hex(r["content_text"])) for r in mems]
    out.id_sha256.extend(sha256_hex(r["id_text"]) for r in mems)
    out.content_sha256.extend(sha256_hex(r["content_text"]) for r in mems)
    out.log_needles.extend(r["id"] for r in mems)
    out.log_needles.extend(r["quote"] for r in mems)
    restore_archived(conn, user_id, [r["id"] for r in mems])
    msgs = conn.execute(DELETE_MESSAGES, u).fetchall()
    out.add("conversation_messages", len(msgs))
    out.id_sha256.extend(sha256_hex(r["id_text"]) for r in msgs)
    out.content_sha256.extend(sha256_hex(r["content_text"]) for r in msgs)
    out.log_needles.extend(r["id"] for r in msgs)
    out.log_needles.extend(r["quote"] for r in msgs)
    # sessions targeted, and sessions left without any message
    emptied = list({r["session_id"] for r in msgs})
    sessions = conn.execute(DELETE_SESSIONS, {**u, "emptied": emptied}).fetchall()
    out.add("conversation_sessions", len(sessions))
    out.id_sha256.extend(sha256_hex(r["id_text"]) for r in sessions)
    out.log_needles.extend(r["id"] for r in sessions)
    out.log_needles.extend(r["external_id"] for r in sessions)
    chunks = conn.execute(DELETE_CHUNKS, u).fetchall()
    out.add("raw_chunks", len(chunks))
    out.content_sha256.extend(r["sha256"].strip() for r in chunks)
    out.files.extend(Path(r["path"]) for r in chunks if r["path"])
    files = list({r["file_id"] for r in mems if r["file_id"] is not None})
    docs = conn.execute(DELETE_DOCUMENTS, {**u, "files": files}).fetchall()
    out.add("document_files", len(docs))
    out.id_sha256.extend(sha256_hex(r["id_text"]) for r in docs)
    out.content_sha256.extend(r["sha256"].strip() for r in docs)
    out.log_needles.extend(r["id"] for r in docs)
    _detach_survivors(conn, user_id)
    for table, column in _LOG_COLUMNS:
        out.add(table, scrub_log(conn, user_id, table, column, out.log_needles))
    return out


MARK_ORPHAN_NODES = """INSERT INTO _forget_node SELECT n.id FROM graph_nodes n
           WHERE n.user_id = %(u)s AND n.id = ANY(%(ids)s) AND n.node_type <> ALL(%(kept)s)
             AND NOT EXISTS (SELECT 1 FROM graph_edges e WHERE e.user_id = n.user_id
                             AND (e.source_id = n.id OR e.target_id = n.id))
           ON CONFLICT DO NOTHING"""


def _mark_orphan_nodes(conn: Conn, user_id: str, node_ids: Sequence[uuid.UUID]) -> None:
    """Nodes left without any edge after a forget (not the user's own node) go too: they are
    added to ``_forget_node``."""
    if not node_ids:
        return
    conn.execute(
        MARK_ORPHAN_NODES,
        {"u": user_id, "ids": list(node_ids), "kept": list(_KEPT_NODE_TYPES)},
    )


DROP_SUMMARY_QUOTES = """UPDATE memory_history SET new_content = NULL, new_metadata = '{"summary_forgotten": true}'
           WHERE user_id = %s AND new_metadata->>'summary_id' = ANY(%s)"""
RESTORE_SUMMARISED = """UPDATE memories SET expired_at = NULL, superseded_by = NULL, updated_at = now(), version = version + 1
           WHERE user_id = %s AND superseded_by = ANY(%s::uuid[]) RETURNING id, memory_type"""


RECORD_RESTORED = """INSERT INTO memory_history (id, user_id, memory_id, memory_type, event, new_metadata, actor)
                   VALUES (%s, %s, %s, %s, 'UPDATE', %s, 'forget:restore')"""


def restore_archived(conn: Conn, user_id: str, deleted_ids: Sequence[str]) -> int:
    """Rows archived into a summary that was just deleted become current again (the summary is
    derived; what it summarised was not forgotten), each with an ``UPDATE`` history row."""
    if not deleted_ids:
        return 0
    conn.execute(  # the archiving rows quoted the summary: keep the event, drop the words
        DROP_SUMMARY_QUOTES,
        (user_id, list(deleted_ids)),
    )
    rows = conn.execute(RESTORE_SUMMARISED, (user_id, list(deleted_ids))).fetchall()
    if rows:
        with conn.cursor() as cur:
            cur.executemany(
                RECORD_RESTORED,
                [(uuid7(), user_id, r["id"], r["memory_type"], Jsonb({"reason": "its summary was forgotten"}))
                 for r in rows],
            )  # fmt: skip
    return len(rows)


DETACH_SURVIVORS = """UPDATE memories SET trait_parent_id = NULL WHERE user_id = %(u)s AND memory_type = 'trait'
           AND trait_parent_id IS NOT NULL
           AND NOT EXISTS (SELECT 1 FROM memories p WHERE p.id = memories.trait_parent_id AND p.user_id = %(u)s)"""


def _detach_survivors(conn: Conn, user_id: str) -> None:
    """Surviving rows keep no pointer to what went: lineage (``trait_parent_id``) is cleared."""
    conn.execute(DETACH_SURVIVORS, {"u": user_id})


def scrub_log(conn: Conn, user_id: str, table: str, column: str, needles: Sequence[str]) -> int:
    """Delete log rows (``pipeline_events``, ``reflection_cycles``) whose JSON holds a deleted id or
    quotes deleted words: diagnostics never outlive what they describe."""
    words = [n for n in dict.fromkeys(needles) if n and len(n) >= 4]
    if not words:
        return 0
    query = sql.SQL(
        """DELETE FROM {table} t WHERE t.user_id = %(u)s AND EXISTS (
               SELECT 1 FROM jsonb_path_query(t.{column}, 'strict $.**') v, unnest(%(n)s::text[]) w
               WHERE jsonb_typeof(v) = 'string' AND strpos(v #>> '{{}}', w) > 0)"""
    ).format(table=sql.Identifier(table), column=sql.Identifier(column))
    return conn.execute(query, {"u": user_id, "n": words}).rowcount


WRITE_TOMBSTONES = """INSERT INTO memory_history (id, user_id, memory_id, memory_type, event, new_metadata, actor)
               VALUES (%s, %s, %s, %s, 'FORGET', %s, %s)"""


def write_tombstones(conn: Conn, user_id: str, receipt_id: uuid.UUID, actor: str,
                     tombstones: Sequence[tuple[str, str, str]]) -> int:  # fmt: skip
    """One content-free ``FORGET`` history row per forgotten memory: ``memory_id`` is the receipt's
    id (the memory's id is gone too), the metadata holds only hashes."""
    if not tombstones:
        return 0
    with conn.cursor() as cur:
        cur.executemany(
            WRITE_TOMBSTONES,
            [(uuid7(), user_id, receipt_id, kind,
              Jsonb({"receipt_id": str(receipt_id), "id_sha256": id_sha, "content_sha256": content_sha}), actor)
             for kind, id_sha, content_sha in tombstones],
        )  # fmt: skip
    return len(tombstones)


# --------------------------------------------------------------------------- whole user


TABLES_WITH_USER_ID = """SELECT c.relname FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace
           JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'user_id' AND NOT a.attisdropped
           WHERE s.nspname = current_schema() AND c.relkind IN ('r', 'p') AND NOT c.relispartition
           ORDER BY c.relname"""


def user_tables(conn: Conn) -> list[str]:
    """Every ordinary or partitioned table of this schema with a ``user_id`` column (from the catalog)."""
    rows = conn.execute(TABLES_WITH_USER_ID).fetchall()
    return [r["relname"] for r in rows if r["relname"] not in KEEP_ON_FORGET]


DELETE_USER_CHUNKS = "DELETE FROM raw_chunks WHERE user_id = %(u)s RETURNING sha256, path"
_ROW_HASHES = sql.SQL("RETURNING {id_sha} AS id_text, {content_sha} AS content_text").format(id_sha=_sha("id::text"),
                                                                          content_sha=_sha("content"))
DELETE_USER_MEMORIES = sql.SQL("DELETE FROM memories WHERE user_id = %(u)s {}").format(_ROW_HASHES)
DELETE_USER_MESSAGES = sql.SQL("DELETE FROM conversation_messages WHERE user_id = %(u)s {}").format(_ROW_HASHES)
DELETE_USER_DOCUMENTS = sql.SQL("DELETE FROM document_files WHERE user_id = %(u)s RETURNING {} AS id_text, sha256").format(
    _sha("id::text")
)
DELETE_USER_ROWS = sql.SQL("DELETE FROM {} WHERE user_id = %(u)s")


def erase_user(conn: Conn, user_id: str) -> Erased:
    """Delete every row of ``user_id`` from every user table; hashes of memories, messages, chunks
    and documents are taken on the way out."""
    out = Erased()
    u = {"u": user_id}
    rows = conn.execute(DELETE_USER_MEMORIES, u).fetchall()
    out.add("memories", len(rows))
    out.id_sha256.extend(sha256_hex(r["id_text"]) for r in rows)
    out.content_sha256.extend(sha256_hex(r["content_text"]) for r in rows)
    rows = conn.execute(DELETE_USER_MESSAGES, u).fetchall()
    out.add("conversation_messages", len(rows))
    out.id_sha256.extend(sha256_hex(r["id_text"]) for r in rows)
    out.content_sha256.extend(sha256_hex(r["content_text"]) for r in rows)
    rows = conn.execute(DELETE_USER_CHUNKS, u).fetchall()
    out.add("raw_chunks", len(rows))
    out.content_sha256.extend(r["sha256"].strip() for r in rows)
    out.files.extend(Path(r["path"]) for r in rows if r["path"])
    rows = conn.execute(DELETE_USER_DOCUMENTS, u).fetchall()
    out.add("document_files", len(rows))
    out.id_sha256.extend(sha256_hex(r["id_text"]) for r in rows)
    out.content_sha256.extend(r["sha256"].strip() for r in rows)
    for table in user_tables(conn):
        n = conn.execute(DELETE_USER_ROWS.format(sql.Identifier(table)), u).rowcount
        out.add(table, n)
    return out


CHUNK_PATHS = "SELECT path FROM raw_chunks WHERE user_id = %s AND path IS NOT NULL"


def chunk_paths(conn: Conn, user_id: str) -> list[Path]:
    """Files of a user's raw chunks kept in a chunk directory."""
    rows = conn.execute(CHUNK_PATHS, (user_id,)).fetchall()
    return [Path(r["path"]) for r in rows]


# --------------------------------------------------------------------------- receipts


@dataclass(frozen=True, slots=True)
class ReceiptRow:
    id: uuid.UUID
    user_id: str
    target_kind: str
    target_sha256: str
    actor: str
    counts: dict[str, int]
    content_sha256: tuple[str, ...]
    id_sha256: tuple[str, ...]
    digest: str
    created_at: dt.datetime
    relations: tuple[str, ...]  # where the rows were: what physical erasure rewrites
    erased_at: dt.datetime | None  # when that rewrite completed (``lifecycle.compaction``)


_RECEIPT_COLUMNS = ("id, user_id, target_kind, target_sha256, actor, counts, content_sha256, id_sha256, digest, "
                    "created_at, relations, erased_at")  # fmt: skip


def _receipt(row: dict[str, Any]) -> ReceiptRow:
    return ReceiptRow(**{**row, "target_sha256": row["target_sha256"].strip(), "digest": row["digest"].strip(),
                         "counts": dict(row["counts"]), "content_sha256": tuple(row["content_sha256"]),
                         "id_sha256": tuple(row["id_sha256"]), "relations": tuple(row["relations"])})  # fmt: skip


INSERT_RECEIPT = sql.SQL("""INSERT INTO forget_receipts (id, user_id, target_kind, target_sha256, actor, counts, content_sha256,
                                         id_sha256, digest, relations)
            VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s) RETURNING {receipt_columns}""").format(receipt_columns=sql.SQL(_RECEIPT_COLUMNS))


def insert_receipt(conn: Conn, receipt_id: uuid.UUID, user_id: str, *, target_kind: str, target_sha256: str,
                   actor: str, counts: dict[str, int], content_sha256: Sequence[str], id_sha256: Sequence[str],
                   digest: str, relations: Sequence[str] = ()) -> ReceiptRow:  # fmt: skip
    row = conn.execute(
        INSERT_RECEIPT,
        (receipt_id, user_id, target_kind, target_sha256, actor, Jsonb(counts), list(content_sha256),
         list(id_sha256), digest, list(relations)),
    ).fetchone()  # fmt: skip
    assert row is not None
    return _receipt(row)


GET_RECEIPT = sql.SQL("SELECT {receipt_columns} FROM forget_receipts WHERE user_id = %s AND id = %s").format(receipt_columns=sql.SQL(_RECEIPT_COLUMNS))


def get_receipt(conn: Conn, user_id: str, receipt_id: uuid.UUID) -> ReceiptRow | None:
    row = conn.execute(
        GET_RECEIPT, (user_id, receipt_id)
    ).fetchone()
    return None if row is None else _receipt(row)


LIST_RECEIPTS = sql.SQL("SELECT {receipt_columns} FROM forget_receipts WHERE user_id = %s ORDER BY created_at DESC, id DESC LIMIT %s").format(receipt_columns=sql.SQL(_RECEIPT_COLUMNS))


def list_receipts(conn: Conn, user_id: str, limit: int) -> list[ReceiptRow]:
    rows = conn.execute(LIST_RECEIPTS, (user_id, limit)).fetchall()
    return [_receipt(r) for r in rows]
