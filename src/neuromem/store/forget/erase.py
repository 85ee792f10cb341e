"""Erase what the work sets name, with what depends on it; keep only the proof material
(counts and sha256 of the deleted contents and ids) and content-free tombstones.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from psycopg import sql
from psycopg.types.json import Jsonb

from ...ids import uuid7
from ...types import sha256_text
from ..db import Conn
from .work_sets import text_to_hash

#: JSONB logs that may quote deleted words or ids (``decision_fallback`` keeps 200 characters).
_LOG_COLUMNS = (("pipeline_events", "detail"), ("reflection_cycles", "details"))
_LOG_QUOTE_CHARS = 200

#: Node types that are never removed as orphans (the user's own node anchors relations).
_KEPT_NODE_TYPES = ("user",)


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
DELETE_HISTORY = (
    "DELETE FROM memory_history WHERE user_id = %(u)s AND memory_id IN (SELECT id FROM _forget_mem)"
)
DELETE_CHUNKS = """DELETE FROM raw_chunks r USING _forget_chunk k WHERE r.user_id = %(u)s AND r.sha256 = k.sha256
           RETURNING r.sha256, r.path"""

_QUOTE_CHARS = sql.Literal(_LOG_QUOTE_CHARS)
DELETE_NODES = sql.SQL("""DELETE FROM graph_nodes WHERE user_id = %(u)s AND id IN (SELECT id FROM _forget_node)
            RETURNING {id_sha} AS id_text, {name_sha} AS content_text""").format(
    id_sha=text_to_hash("id::text"), name_sha=text_to_hash("name")
)
DELETE_MEMORIES = sql.SQL("""DELETE FROM memories m USING _forget_mem f
            WHERE m.user_id = %(u)s AND m.id = f.id AND m.memory_type = f.memory_type
            RETURNING m.memory_type, m.file_id, m.id::text AS id, {id_sha} AS id_text,
                      {content_sha} AS content_text, left(m.content, {quote}) AS quote""").format(
    id_sha=text_to_hash("m.id::text"), content_sha=text_to_hash("m.content"), quote=_QUOTE_CHARS
)
DELETE_MESSAGES = sql.SQL("""DELETE FROM conversation_messages c USING _forget_msg f WHERE c.user_id = %(u)s AND c.id = f.id
            RETURNING c.id::text AS id, c.session_id, {id_sha} AS id_text,
                      {content_sha} AS content_text, left(c.content, {quote}) AS quote""").format(
    id_sha=text_to_hash("c.id::text"), content_sha=text_to_hash("c.content"), quote=_QUOTE_CHARS
)
# sessions targeted, and sessions left without any message
DELETE_SESSIONS = sql.SQL("""DELETE FROM conversation_sessions s WHERE s.user_id = %(u)s AND (
                s.id IN (SELECT id FROM _forget_session)
             OR (s.id = ANY(%(emptied)s) AND NOT EXISTS (
                   SELECT 1 FROM conversation_messages c WHERE c.user_id = %(u)s AND c.session_id = s.id)))
            RETURNING s.id::text AS id, s.external_id, {id_sha} AS id_text""").format(
    id_sha=text_to_hash("s.id::text")
)
# files targeted, and files left without any chunk
DELETE_DOCUMENTS = sql.SQL("""DELETE FROM document_files d WHERE d.user_id = %(u)s AND (d.id IN (SELECT id FROM _forget_doc)
                OR (d.id = ANY(%(files)s) AND NOT EXISTS (
                      SELECT 1 FROM memories m WHERE m.user_id = %(u)s AND m.memory_type = 'document'
                      AND m.file_id = d.id)))
            RETURNING d.id::text AS id, d.sha256, {id_sha} AS id_text""").format(
    id_sha=text_to_hash("d.id::text")
)


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
    out.id_sha256.extend(sha256_text(r["id_text"]) for r in nodes)
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
    out.tombstones = [
        (r["memory_type"], sha256_text(r["id_text"]), sha256_text(r["content_text"])) for r in mems
    ]
    out.id_sha256.extend(sha256_text(r["id_text"]) for r in mems)
    out.content_sha256.extend(sha256_text(r["content_text"]) for r in mems)
    out.log_needles.extend(r["id"] for r in mems)
    out.log_needles.extend(r["quote"] for r in mems)
    restore_archived(conn, user_id, [r["id"] for r in mems])
    msgs = conn.execute(DELETE_MESSAGES, u).fetchall()
    out.add("conversation_messages", len(msgs))
    out.id_sha256.extend(sha256_text(r["id_text"]) for r in msgs)
    out.content_sha256.extend(sha256_text(r["content_text"]) for r in msgs)
    out.log_needles.extend(r["id"] for r in msgs)
    out.log_needles.extend(r["quote"] for r in msgs)
    # sessions targeted, and sessions left without any message
    emptied = list({r["session_id"] for r in msgs})
    sessions = conn.execute(DELETE_SESSIONS, {**u, "emptied": emptied}).fetchall()
    out.add("conversation_sessions", len(sessions))
    out.id_sha256.extend(sha256_text(r["id_text"]) for r in sessions)
    out.log_needles.extend(r["id"] for r in sessions)
    out.log_needles.extend(r["external_id"] for r in sessions)
    chunks = conn.execute(DELETE_CHUNKS, u).fetchall()
    out.add("raw_chunks", len(chunks))
    out.content_sha256.extend(r["sha256"].strip() for r in chunks)
    out.files.extend(Path(r["path"]) for r in chunks if r["path"])
    files = list({r["file_id"] for r in mems if r["file_id"] is not None})
    docs = conn.execute(DELETE_DOCUMENTS, {**u, "files": files}).fetchall()
    out.add("document_files", len(docs))
    out.id_sha256.extend(sha256_text(r["id_text"]) for r in docs)
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
                [
                    (
                        uuid7(),
                        user_id,
                        r["id"],
                        r["memory_type"],
                        Jsonb({"reason": "its summary was forgotten"}),
                    )
                    for r in rows
                ],
            )
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


def write_tombstones(
    conn: Conn, user_id: str, receipt_id: uuid.UUID, actor: str, tombstones: Sequence[tuple[str, str, str]]
) -> int:
    """One content-free ``FORGET`` history row per forgotten memory: ``memory_id`` is the receipt's
    id (the memory's id is gone too), the metadata holds only hashes."""
    if not tombstones:
        return 0
    with conn.cursor() as cur:
        cur.executemany(
            WRITE_TOMBSTONES,
            [
                (
                    uuid7(),
                    user_id,
                    receipt_id,
                    kind,
                    Jsonb(
                        {"receipt_id": str(receipt_id), "id_sha256": id_sha, "content_sha256": content_sha}
                    ),
                    actor,
                )
                for kind, id_sha, content_sha in tombstones
            ],
        )
    return len(tombstones)
