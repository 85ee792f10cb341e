"""The closure: grow the work sets to a fixpoint by the derivation rules (package docstring),
or spare what live memories still stand on.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..db import Conn
from .work_sets import grow

# the derivation rules of close_over (package docstring), each a step that grows one work set
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


def close_over(conn: Conn, user_id: str, *, max_rounds: int = 8, derived: bool = True) -> None:
    """Grow the work sets to a fixpoint of the derivation rules (module docstring). With
    ``derived=False`` (the purge of soft-deleted rows) no other memory is drawn in: only the
    rows' chains, sources and cited chunks (see :func:`spare_shared`)."""
    for _ in range(max_rounds):
        grew = 0
        # every version of each chain, both directions (a compression summary is not a version:
        # the chain stops there, see lifecycle.compress); one step per round, each on an index
        grew += grow(conn, DERIVE_OLDER_VERSIONS, user_id)
        grew += grow(conn, DERIVE_NEWER_VERSIONS, user_id)
        # documents whose chunks go take their file row along only when targeted; chunks of a
        # targeted document go
        grew += grow(conn, DERIVE_DOCUMENT_CHUNKS, user_id)
        # messages the memories were extracted from
        grew += grow(conn, DERIVE_SOURCE_MESSAGES, user_id)
        # chunks the memories cite and the messages hold
        grew += grow(conn, DERIVE_CITED_CHUNKS, user_id)
        grew += grow(conn, DERIVE_MESSAGE_CHUNKS, user_id)
        if not derived:
            if grew == 0:
                return
            continue
        # messages holding a forgotten chunk's words
        grew += grow(conn, DERIVE_CHUNK_MESSAGES, user_id)
        # memories citing a forgotten chunk, extracted from a forgotten message or episode
        grew += grow(conn, DERIVE_CHUNK_CITERS, user_id)
        grew += grow(conn, DERIVE_MESSAGE_EXTRACTS, user_id)
        grew += grow(conn, DERIVE_EPISODE_EXTRACTS, user_id)
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
        n = conn.execute(SPARE_MESSAGES_OF_KEPT_MEMORIES, u).rowcount
        n += conn.execute(SPARE_CHUNKS_CITED_BY_KEPT_MEMORIES, u).rowcount
        n += conn.execute(SPARE_CHUNKS_OF_KEPT_MESSAGES, u).rowcount
        n += conn.execute(SPARE_MESSAGES_OF_KEPT_CHUNKS, u).rowcount
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
    return conn.execute(ADD_CHUNKS, (list(shas),)).rowcount
