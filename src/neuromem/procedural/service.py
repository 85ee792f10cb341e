"""Record procedures after a task succeeds, reinforce them, and find the ones a task looks like.

- ``record_procedure`` (seed 004 §5.3 ``after_skill_success``): a new procedure is a fact of
  category ``procedure`` with importance ``procedures.importance``; recording one that is
  already known (same name, case-insensitive) counts one more success and raises its
  importance by ``procedures.reinforce_importance`` — in place when the steps are the same,
  as a new version when they changed (the newest way that worked wins).
- ``alike_procedures`` (seed 004 §4.2 "Proven Skills"): the procedures whose task looks like
  the query — cosine ≥ ``procedures.similarity_threshold``, or at least
  ``procedures.name_overlap`` of the words of the procedure's name in the query — best first
  by similarity × (1 + log of the success count).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import validation as check
from .. import writes
from ..store import procedures as store
from ..store.db import Conn
from ..text.tokenize import tokenize
from ..types import MemoryRecord, Operation, ScoreBreakdown, SearchHit, WriteResult
from .record import CATEGORY, METADATA_KEY, Procedure, checked

if TYPE_CHECKING:
    from ..core import Runtime

ACTOR = "procedure"


def record_procedure(
    runtime: Runtime,
    user_id: str,
    name: Any,
    steps: Any,
    *,
    preconditions: Any = (),
    outcome: Any = None,
    tools: Any = (),
    metadata: Any = None,
) -> WriteResult:
    """Store a procedure that just worked, or count one more success of a known one."""
    uid = user_id  # checked by the facade
    procedure = checked(name, steps, preconditions, outcome, tools)
    extra = check.metadata(metadata)
    settings = runtime.settings.procedures
    with runtime.db.connection() as conn:
        known = _by_name(store.current_procedures(conn, uid, CATEGORY), procedure.name)
    if known is None:
        draft = writes.draft(
            runtime,
            procedure.to_text(),
            uid,
            metadata={**extra, METADATA_KEY: procedure.to_metadata()},
            importance=settings.importance,
            category=CATEGORY,
        )
        return writes.add(runtime, draft, actor=ACTOR)
    before = Procedure.from_metadata(known.metadata[METADATA_KEY])
    merged = Procedure(
        name=before.name,
        steps=procedure.steps,
        preconditions=procedure.preconditions or before.preconditions,
        outcome=procedure.outcome or before.outcome,
        successes=before.successes + 1,
        tools=procedure.tools or before.tools,
    )
    text = merged.to_text()
    change = writes.Change(
        content=None if text == known.content else text,
        metadata={**extra, METADATA_KEY: merged.to_metadata()},
        importance=min(1.0, known.importance + settings.reinforce_importance),
    )
    record = writes.update(runtime, uid, known.id, change, actor=ACTOR)
    return WriteResult(Operation.UPDATE, record, previous_id=known.id, reason=f"{merged.successes} successes")


def alike_procedures(
    runtime: Runtime,
    conn: Conn,
    query: str,
    user_id: str,
    vector: np.ndarray | None = None,
    *,
    limit: int | None = None,
) -> list[SearchHit]:
    """The user's procedures for a task like ``query``, best first (see the module docstring), read over
    ``conn``. ``vector``: the query's, when recall already has it (``SearchResults.query_vector``); else
    the query is embedded here, and only if the user has procedures."""
    settings = runtime.settings.procedures
    n = settings.max_in_prompt if limit is None else limit
    if n <= 0:
        return []
    known = store.current_procedures(conn, user_id, CATEGORY)
    if not known:
        return []
    if vector is None:
        vector = runtime.embed_query(query)
    cosine = {} if vector is None else store.similarities(conn, user_id, CATEGORY, vector, runtime.dim)
    words = set(tokenize(query))
    scored = []
    for record in known:
        similarity = cosine.get(record.id, 0.0)
        if (
            similarity < settings.similarity_threshold
            and _name_overlap(record, words) < settings.name_overlap
        ):
            continue
        successes = int(record.metadata.get(METADATA_KEY, {}).get("successes", 1))
        value = max(similarity, _name_overlap(record, words)) * (1 + math.log(max(successes, 1)))
        scored.append(
            SearchHit(
                record,
                ScoreBreakdown(0.0, 0.0, record.importance, 0.0, value, extra={"similarity": similarity}),
            )
        )
    scored.sort(key=lambda h: -h.score.final)
    return scored[:n]


def _by_name(records: Sequence[MemoryRecord], name: str) -> MemoryRecord | None:
    wanted = name.casefold()
    for record in records:
        data = record.metadata.get(METADATA_KEY)
        if isinstance(data, dict) and str(data.get("name", "")).casefold() == wanted:
            return record
    return None


def _name_overlap(record: MemoryRecord, query_words: set[str]) -> float:
    data = record.metadata.get(METADATA_KEY)
    name = str(data.get("name", "")) if isinstance(data, dict) else record.content
    words = set(tokenize(name))
    return len(words & query_words) / len(words) if words else 0.0
