"""What recall reads to tell a current value from an outdated one (issue 21 items 2–3; seed 003 §7
version chains and review queue, seed 000 §1 bitemporal rows).

- :func:`outdated_turns`: turns that stated a value a newer one ended — the source turn of a memory
  whose value stopped holding (``invalid_at`` passed: a changed value, ``update(ends_previous=True)``,
  a lost conflict; not a re-wording or merge, whose new version restates it, nor a deletion), with no
  current memory from that turn — each with the memory that replaced it and when the old value ended;
- :func:`same_subject_links`: pairs of memories linked as two values of one thing (``CONTRADICTS``,
  ``SUPERSEDES``);
- :func:`open_conflicts`: review-queue items (``memory_conflicts`` status ``open``) touching memories.

Every query is scoped to one ``user_id``.
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..text.spans import is_question
from ..text.tokenize import tokenize
from .db import Conn

#: Edge types that say two memories speak of the same subject (a changed or restated value): where the
#: replacement of an ended memory is looked for
SAME_SUBJECT_EDGES = ("SIMILAR_TO", "CONTRADICTS", "SUPERSEDES", "SAME_AS")
#: Edge types that say two current memories hold two values of one thing, so that the newer ranks first.
#: ``SIMILAR_TO`` is not one: today's ingest links restatements and neighbours with it, and ordering those
#: by time cost LongMemEval turn nDCG@10 −0.05 to −0.07 on both halves (docs/benchmarks.md)
VALUE_CHANGE_EDGES = ("CONTRADICTS", "SUPERSEDES")


@dataclass(frozen=True, slots=True)
class OutdatedTurn:
    """A turn whose value was replaced: ``replaced_by`` is the current memory that holds the newer value
    (None when the chain has no current head), ``until`` when the old value stopped holding."""

    message_id: uuid.UUID
    memory_id: uuid.UUID
    replaced_by: uuid.UUID | None
    until: dt.datetime | None


# The ended memories of each turn; the replacement is the current head of the version chain
# (``superseded_by`` followed), else a current memory linked to it by a same-subject edge, newest first.
OUTDATED_TURNS = """
WITH RECURSIVE ended AS (
    SELECT s.message_id, x.id AS memory_id, x.superseded_by, x.invalid_at AS until
      FROM memory_sources s JOIN memories x ON x.id = s.memory_id AND x.user_id = s.user_id
     WHERE s.user_id = %(u)s AND s.message_id = ANY(%(ids)s)
       AND x.invalid_at IS NOT NULL AND x.invalid_at <= greatest(now(), %(present)s::timestamptz)
       AND NOT EXISTS (SELECT 1 FROM memory_sources s2 JOIN memories y ON y.id = s2.memory_id AND y.user_id = s2.user_id
                        WHERE s2.user_id = s.user_id AND s2.message_id = s.message_id AND y.expired_at IS NULL
                          AND (y.invalid_at IS NULL OR y.invalid_at > greatest(now(), %(present)s::timestamptz)))
), chain AS (
    SELECT e.memory_id, e.superseded_by AS next_id, 1 AS depth FROM ended e WHERE e.superseded_by IS NOT NULL
    UNION ALL
    SELECT c.memory_id, m.superseded_by, c.depth + 1 FROM chain c
      JOIN memories m ON m.user_id = %(u)s AND m.id = c.next_id
     WHERE m.superseded_by IS NOT NULL AND c.depth < 50
)
SELECT e.message_id, e.memory_id, e.until,
       coalesce(
         (SELECT h.id FROM chain c JOIN memories h ON h.user_id = %(u)s AND h.id = c.next_id
           WHERE c.memory_id = e.memory_id AND h.expired_at IS NULL AND (h.invalid_at IS NULL OR h.invalid_at > greatest(now(), %(present)s::timestamptz))
           ORDER BY c.depth DESC LIMIT 1),
         (SELECT y.id FROM graph_edges g
            JOIN memories y ON y.user_id = g.user_id
                           AND y.id = CASE WHEN g.source_id = e.memory_id THEN g.target_id ELSE g.source_id END
           WHERE g.user_id = %(u)s AND g.expired_at IS NULL AND g.edge_type = ANY(%(types)s)
             AND (g.source_id = e.memory_id OR g.target_id = e.memory_id)
             AND y.expired_at IS NULL AND (y.invalid_at IS NULL OR y.invalid_at > greatest(now(), %(present)s::timestamptz))
           ORDER BY coalesce(y.valid_at, y.created_at) DESC, y.id LIMIT 1)
       ) AS replaced_by
  FROM ended e
 ORDER BY e.message_id, e.until DESC NULLS LAST
"""


def outdated_turns(
    conn: Conn, user_id: str, message_ids: Sequence[uuid.UUID], present: dt.datetime | None = None
) -> dict[uuid.UUID, OutdatedTurn]:
    """The turns among ``message_ids`` that stated a value since replaced (module docstring), each once; "since" by
    the clock, or by ``present`` when that is later (a question asked at a time after the clock)."""
    if not message_ids:
        return {}
    params = {"u": user_id, "ids": list(message_ids), "types": list(SAME_SUBJECT_EDGES), "present": present}
    rows = conn.execute(OUTDATED_TURNS, params).fetchall()
    out: dict[uuid.UUID, OutdatedTurn] = {}
    for r in rows:
        out.setdefault(
            r["message_id"], OutdatedTurn(r["message_id"], r["memory_id"], r["replaced_by"], r["until"])
        )
    return out


SAME_SUBJECT_LINKS = """SELECT DISTINCT source_id, target_id FROM graph_edges
 WHERE user_id = %(u)s AND expired_at IS NULL AND edge_type = ANY(%(types)s)
   AND source_kind = 'memory' AND target_kind = 'memory'
   AND source_id = ANY(%(ids)s) AND target_id = ANY(%(ids)s) AND source_id <> target_id"""


def same_subject_links(
    conn: Conn, user_id: str, memory_ids: Sequence[uuid.UUID]
) -> list[tuple[uuid.UUID, uuid.UUID]]:
    """Pairs among ``memory_ids`` that a current value-change edge links."""
    if len(memory_ids) < 2:
        return []
    rows = conn.execute(
        SAME_SUBJECT_LINKS, {"u": user_id, "ids": list(memory_ids), "types": list(VALUE_CHANGE_EDGES)}
    ).fetchall()
    return [(r["source_id"], r["target_id"]) for r in rows]


@dataclass(frozen=True, slots=True)
class OpenConflict:
    """A review-queue item: two current values of one attribute the engine could not decide between."""

    id: uuid.UUID
    attribute: str
    old_id: uuid.UUID
    new_id: uuid.UUID


OPEN_CONFLICTS = """SELECT c.id, c.attribute, c.old_id, c.new_id FROM memory_conflicts c
 WHERE c.user_id = %(u)s AND c.status = 'open' AND (c.old_id = ANY(%(ids)s) OR c.new_id = ANY(%(ids)s))
   AND EXISTS (SELECT 1 FROM memories m WHERE m.user_id = c.user_id AND m.id = c.old_id AND m.expired_at IS NULL)
   AND EXISTS (SELECT 1 FROM memories m WHERE m.user_id = c.user_id AND m.id = c.new_id AND m.expired_at IS NULL)
 ORDER BY c.created_at DESC, c.id"""


def open_conflicts(conn: Conn, user_id: str, memory_ids: Sequence[uuid.UUID]) -> list[OpenConflict]:
    """Open review items whose old or new memory is among ``memory_ids`` (both still current)."""
    if not memory_ids:
        return []
    rows = conn.execute(OPEN_CONFLICTS, {"u": user_id, "ids": list(memory_ids)}).fetchall()
    return [OpenConflict(r["id"], r["attribute"], r["old_id"], r["new_id"]) for r in rows]


# Of each memory, the next memory of the user written after it, when neither came from a conversation turn (both
# told by ``add``: an ingested turn keeps the assistant's words that carry it)
# (every table filtered by the one user: a router query on a Citus cluster, where a join on a column it derives is not)
NEXT_STATEMENTS = """SELECT a.id AS after_id, n.id AS next_id, n.content AS next_content
  FROM memories a
  CROSS JOIN LATERAL (
        SELECT m.id, m.content FROM memories m
         WHERE m.user_id = %(u)s AND m.memory_type = ANY(%(types)s)
           AND (m.created_at, m.id) > (a.created_at, a.id)
         ORDER BY m.created_at, m.id LIMIT 1) n
 WHERE a.user_id = %(u)s AND a.id = ANY(%(ids)s) AND a.memory_type = ANY(%(types)s)
   AND NOT EXISTS (SELECT 1 FROM memory_sources s WHERE s.user_id = %(u)s AND s.memory_id IN (a.id, n.id))"""


def next_statements(
    conn: Conn, user_id: str, memory_ids: Sequence[uuid.UUID], types: Sequence[str]
) -> dict[uuid.UUID, tuple[uuid.UUID, str]]:
    """Of each of ``memory_ids`` (of ``types``), the memory of ``types`` the user told next, whatever its state,
    when neither came from a conversation turn: memory id → the next one's id and words."""
    if not memory_ids:
        return {}
    rows = conn.execute(
        NEXT_STATEMENTS, {"u": user_id, "ids": list(memory_ids), "types": list(types)}
    ).fetchall()
    return {r["after_id"]: (r["next_id"], r["next_content"]) for r in rows}


# Of each turn, the next two turns of the user's conversations (by when each was sent, then its place), with the first
# current memory that came from each, if any (every table filtered by the one user: a router query on a Citus cluster)
NEXT_TURNS = """SELECT a.id AS after_id, a.content AS after_content, n.id AS next_id, n.role, n.content, x.memory_id
  FROM conversation_messages a
  CROSS JOIN LATERAL (
        SELECT m.id, m.role, m.content, m.sent_at, m.seq FROM conversation_messages m
         WHERE m.user_id = %(u)s AND (m.sent_at, m.seq, m.id) > (a.sent_at, a.seq, a.id)
         ORDER BY m.sent_at, m.seq, m.id LIMIT 2) n
  LEFT JOIN LATERAL (
        SELECT s.memory_id FROM memory_sources s JOIN memories r ON r.user_id = s.user_id AND r.id = s.memory_id
         WHERE s.user_id = %(u)s AND r.user_id = %(u)s AND s.message_id = n.id AND r.expired_at IS NULL
         ORDER BY r.created_at, r.id LIMIT 1) x ON true
 WHERE a.user_id = %(u)s AND a.id = ANY(%(ids)s)
 ORDER BY a.id, n.sent_at, n.seq, n.id"""


def next_turns(
    conn: Conn, user_id: str, message_ids: Sequence[uuid.UUID]
) -> dict[uuid.UUID, tuple[uuid.UUID, str, uuid.UUID | None]]:
    """Of each of ``message_ids``, the turn the user sent next in their conversations, with nobody between but an
    assistant's question about what was said (a word of it: "Is Alfie still drumming for the jazz band?" after "My
    grandson Alfie's the drummer in his school's jazz band"): message id → the next turn's id, its words and the
    first current memory that came from it (None: only the turn)."""
    if not message_ids:
        return {}
    rows = conn.execute(NEXT_TURNS, {"u": user_id, "ids": list(message_ids)}).fetchall()
    following: dict[uuid.UUID, list[dict[str, Any]]] = {}
    for r in rows:
        following.setdefault(r["after_id"], []).append(r)
    out: dict[uuid.UUID, tuple[uuid.UUID, str, uuid.UUID | None]] = {}
    for after, turns in following.items():
        if len(turns) > 1 and _asks_about(turns[0], str(turns[0]["after_content"])):
            turns = turns[1:]
        if turns[0]["role"] == "user":
            out[after] = (turns[0]["next_id"], str(turns[0]["content"]), turns[0]["memory_id"])
    return out


def _asks_about(turn: dict[str, Any], said: str) -> bool:
    asked = str(turn["content"])
    return (
        turn["role"] == "assistant"
        and is_question(asked)
        and bool(set(tokenize(asked)) & set(tokenize(said)))
    )
