"""Selective forgetting with a receipt (seed 003 §24 "选择性遗忘": node, topic, time window,
whole user; tombstones; deletion proof).

``forget(runtime, user_id, target)`` hard-deletes, in **one** transaction, every trace of
exactly one target: the memories (every version), their history (one content-free
``FORGET`` tombstone per memory stays), provenance rows, the messages and raw chunks
holding the words (and the chunk files of a chunk directory, unlinked after the commit),
graph edges and the nodes left without edges, documents, embeddings (they are columns of
the deleted rows) and the diagnostic log rows that quote them. What was derived from the
forgotten words goes with them (``store.forget.close_over``). Traits are recomputed from
the evidence left: each lost piece of supporting evidence is taken back with the inverse of
the seed 001 §4.2 reinforcement; a trait left without supporting evidence is deleted (its
wording came from the forgotten memories).

The ``ForgetReceipt`` (table ``forget_receipts``) proves the deletion without holding any of
it: rows per table, sha256 of every deleted content and id, one digest over them, the
actor and the time. ``receipt.proves(memory_id)`` checks an id the caller still holds.

A dry run (``dry_run=True``) computes the same closure, returns a ``ForgetPreview`` of the
memories that would go, and rolls back.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import logging
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .. import validation as check
from ..config import WriteSettings
from ..errors import ForgetTargetError, ReceiptNotFoundError
from ..ids import uuid7
from ..reflect import math as tm
from ..store import forget as store
from ..store import maintenance, memories, traits
from ..store.forget import PreviewRow
from ..store.raw_chunks import chunk_turn
from ..text.entities import normalize_entity_name
from ..text.tokenize import search_text
from ..types import ForgetReceipt, HistoryEvent, TraitStage
from .compaction import relations_of

if TYPE_CHECKING:
    from ..core import Runtime

log = logging.getLogger(__name__)

TARGET_KINDS = (
    "memory",
    "session",
    "document",
    "window",
    "query",
    "entity",
    "concept",
    "scope",
    "everything",
)
#: the purge job's own kind: rows soft-deleted before ``until`` (``lifecycle.purge``)
PURGE = "purge"
#: the retention job's own kind: rows past their type's or category's TTL (``lifecycle.retention``)
RETENTION = "retention"


@dataclass(frozen=True, slots=True)
class ForgetTarget:
    """Exactly one thing to forget, validated."""

    kind: str
    memory_id: uuid.UUID | None = None
    session_id: str | None = None
    document_id: uuid.UUID | None = None
    since: dt.datetime | None = None
    until: dt.datetime | None = None
    text: str | None = None  # query, entity or concept name
    ttl: tuple[tuple[str, str, dt.datetime], ...] = ()  # retention: ("type" | "category", value, cutoff)
    agent_id: str | None = None  # scope: the agent's memories (with run_id: of that run)
    run_id: str | None = None

    def fingerprint(self) -> str:
        """sha256 of the target's description (the receipt keeps this, never the query words)."""
        parts = [
            self.kind,
            str(self.memory_id or ""),
            self.session_id or "",
            str(self.document_id or ""),
            self.since.isoformat() if self.since else "",
            self.until.isoformat() if self.until else "",
            self.text or "",
            *(f"{k}={v}<{c.isoformat()}" for k, v, c in self.ttl),
            *([self.agent_id or "", self.run_id or ""] if self.kind == "scope" else []),
        ]
        return hashlib.sha256("\x1f".join(parts).encode("utf-8")).hexdigest()


def target_of(
    *,
    memory_id: Any = None,
    session_id: Any = None,
    document_id: Any = None,
    since: Any = None,
    until: Any = None,
    query: Any = None,
    entity: Any = None,
    concept: Any = None,
    everything: Any = False,
    agent_id: Any = None,
    run_id: Any = None,
    settings: WriteSettings | None = None,
) -> ForgetTarget:
    """Validate the caller's keywords into one ``ForgetTarget``; zero or several → ``ForgetTargetError``."""
    if not isinstance(everything, bool):
        raise ForgetTargetError(f"everything must be a boolean, got {everything!r}")
    given = {
        "memory": memory_id is not None,
        "session": session_id is not None,
        "document": document_id is not None,
        "window": since is not None or until is not None,
        "query": query is not None,
        "entity": entity is not None,
        "concept": concept is not None,
        "scope": agent_id is not None or run_id is not None,
        "everything": everything,
    }
    chosen = [k for k, v in given.items() if v]
    if len(chosen) != 1:
        what = "no target" if not chosen else f"several targets ({', '.join(chosen)})"
        raise ForgetTargetError(
            f"forget needs exactly one target — memory_id, session_id, document_id, a time window "
            f"(since/until), query, entity, concept, a scope (agent_id/run_id) or everything=True — got {what}"
        )
    kind = chosen[0]
    if kind == "memory":
        return ForgetTarget(kind, memory_id=check.memory_id(memory_id))
    if kind == "document":
        return ForgetTarget(kind, document_id=check.memory_id(document_id))
    if kind == "session":
        if not isinstance(session_id, str) or not session_id.strip():
            raise ForgetTargetError("session_id must be a non-empty string")
        return ForgetTarget(kind, session_id=session_id)
    if kind == "window":
        lo, hi = check.timestamp(since, "since"), check.timestamp(until, "until")
        if lo is not None and hi is not None and hi <= lo:
            raise ForgetTargetError("until must be later than since")
        return ForgetTarget(kind, since=lo, until=hi)
    if kind == "scope":
        w = settings or WriteSettings()
        return ForgetTarget(
            kind, agent_id=check.scope_id(agent_id, "agent_id", w), run_id=check.scope_id(run_id, "run_id", w)
        )
    if kind in ("query", "entity", "concept"):
        text = {"query": query, "entity": entity, "concept": concept}[kind]
        if not isinstance(text, str) or not text.strip():
            raise ForgetTargetError(f"{kind} must be a non-empty string")
        return ForgetTarget(kind, text=text.strip())
    return ForgetTarget(kind)


@dataclass(frozen=True, slots=True)
class ForgetPreview:
    """What a forget would remove (``dry_run=True``); nothing was deleted."""

    user_id: str
    target_kind: str
    memories: tuple[PreviewRow, ...]
    counts: dict[str, int]  # sizes of the work sets: memories, messages, sessions, chunks, documents, nodes


def digest_of(content: Sequence[str], ids: Sequence[str]) -> str:
    """One sha256 over the sorted content and id hashes: the receipt's seal."""
    h = hashlib.sha256()
    for item in sorted(content):
        h.update(b"c" + item.encode("ascii"))
    for item in sorted(ids):
        h.update(b"i" + item.encode("ascii"))
    return h.hexdigest()


# --------------------------------------------------------------------------- trait recompute (pure)


def unreinforce(c: float, quality: str, settings: Any) -> float:
    """Take back one piece of supporting evidence: the inverse of ``c' = c + (1 − c)·f``
    (seed 001 §4.2), i.e. ``c = (c' − f) / (1 − f)``, floored at 0."""
    f = tm.reinforcement_factor(quality, settings)
    return max(0.0, (c - f) / (1.0 - f)) if f < 1.0 else 0.0


def uncontradict(c: float, settings: Any) -> float:
    """Take back one ordinary contradiction: the inverse of ``c' = c·(1 − g)`` with g for one piece."""
    g = tm.contradiction_factor(0.0, settings)
    return min(1.0, c / (1.0 - g)) if g < 1.0 else c


# --------------------------------------------------------------------------- the operation


def forget(
    runtime: Runtime,
    uid: str,
    target: ForgetTarget,
    *,
    dry_run: bool = False,
    actor: str = "user",
    preview_limit: int = 200,
) -> ForgetReceipt | ForgetPreview:
    """Forget ``target`` for the (checked) user ``uid`` (module docstring). Raises ``NotFoundError``
    subclasses when a named memory, session or document does not exist (nothing is written)."""
    receipt_id = uuid7()
    try:
        with runtime.access.without_user(uid), runtime.db.transaction() as conn:
            store.lock_user(conn, uid)
            erased, recomputed, deleted = _erase(
                conn, uid, target, runtime.settings, dry_run=dry_run, actor=actor, preview_limit=preview_limit
            )
            store.write_tombstones(conn, uid, receipt_id, actor, erased.tombstones)
            row = store.insert_receipt(
                conn,
                receipt_id,
                uid,
                target_kind=target.kind,
                target_sha256=target.fingerprint(),
                actor=actor,
                counts=dict(sorted(erased.counts.items())),
                content_sha256=erased.content_sha256,
                id_sha256=erased.id_sha256,
                digest=digest_of(erased.content_sha256, erased.id_sha256),
                relations=relations_of(erased.counts, {kind for kind, _i, _c in erased.tombstones}),
            )
    except _DryRun as done:  # raised inside the transaction, so it rolled back
        return done.preview
    removed = remove_files(erased.files)
    if (
        recomputed or deleted or target.kind == "everything"
    ) and runtime.settings.traits.refresh_view_after_reflect:
        _refresh_view(runtime)
    return replace(row, traits_recomputed=recomputed, traits_deleted=deleted, files_removed=removed)


class _DryRun(Exception):
    """Carries a preview out of the transaction it rolls back."""

    def __init__(self, preview: ForgetPreview) -> None:
        super().__init__("dry run")
        self.preview = preview


def _erase(
    conn: Any, uid: str, target: ForgetTarget, settings: Any, *, dry_run: bool, actor: str, preview_limit: int
) -> tuple[store.Erased, int, int]:
    store.open_sets(conn)
    if target.kind == "everything":
        if dry_run:
            store.seed_user(conn, uid)
            rows, counts = store.preview(conn, uid, preview_limit)
            raise _DryRun(ForgetPreview(uid, target.kind, tuple(rows), _set_counts(counts)))
        return store.erase_user(conn, uid), 0, 0
    _seed(conn, uid, target)
    if target.kind in (PURGE, RETENTION):  # what lives on (derived facts, shared words) stays
        store.close_over(conn, uid, derived=False)
        store.spare_shared(conn, uid)
    else:
        _close(conn, uid, settings.ingest.raw_chunk_max_chars)
    if dry_run:
        rows, counts = store.preview(conn, uid, preview_limit)
        raise _DryRun(ForgetPreview(uid, target.kind, tuple(rows), _set_counts(counts)))
    erased = store.erase(conn, uid)
    lost = erased.lost_evidence
    recomputed = deleted = 0
    for _ in range(4):  # a deleted trait may have been evidence of its parent
        if not lost:
            break
        n, gone, extra = _recompute_traits(conn, uid, lost, settings.traits, actor=actor)
        recomputed, deleted = recomputed + n, deleted + gone
        for table, count in extra.counts.items():
            erased.add(table, count)
        erased.id_sha256.extend(extra.id_sha256)
        erased.content_sha256.extend(extra.content_sha256)
        erased.tombstones.extend(extra.tombstones)
        lost = extra.lost_evidence
    return erased, recomputed, deleted


def _set_counts(counts: dict[str, int]) -> dict[str, int]:
    names = {
        "_forget_mem": "memories",
        "_forget_msg": "messages",
        "_forget_session": "sessions",
        "_forget_chunk": "raw_chunks",
        "_forget_doc": "documents",
        "_forget_node": "graph_nodes",
    }
    return {names[k]: v for k, v in counts.items()}


def _seed(conn: Any, uid: str, target: ForgetTarget) -> None:
    from ..errors import DocumentNotFoundError, MemoryNotFoundError, SessionNotFoundError

    if target.kind == "memory":
        assert target.memory_id is not None
        if not store.seed_memory(conn, uid, target.memory_id):
            raise MemoryNotFoundError(f"no memory {target.memory_id} for user {uid!r}")
    elif target.kind == "session":
        assert target.session_id is not None
        if not store.seed_session(conn, uid, target.session_id):
            raise SessionNotFoundError(f"no session {target.session_id!r} for user {uid!r}")
    elif target.kind == "document":
        assert target.document_id is not None
        if not store.seed_document(conn, uid, target.document_id):
            raise DocumentNotFoundError(f"no document {target.document_id} for user {uid!r}")
    elif target.kind == "window":
        store.seed_window(conn, uid, target.since, target.until)
    elif target.kind == "purge":
        assert target.until is not None
        store.seed_soft_deleted(conn, uid, target.until)
    elif target.kind == RETENTION:
        for field_name, value, cutoff in target.ttl:
            store.seed_older_than(conn, uid, field_name, value, cutoff)
    elif target.kind == "scope":
        store.seed_scope(conn, uid, target.agent_id, target.run_id)
    elif target.kind == "query":
        assert target.text is not None
        terms = [t for t in dict.fromkeys(search_text(target.text).split()) if t]
        if not terms:
            raise ForgetTargetError(f"the query {target.text!r} has no searchable words")
        store.seed_text(conn, uid, " & ".join(_quote(t) for t in terms))
    else:  # entity / concept
        assert target.text is not None
        name = normalize_entity_name(target.text)
        if target.kind == "entity":
            store.seed_nodes(conn, uid, [name, target.text], None, None)
        else:
            store.seed_nodes(conn, uid, [name, target.text], ["concept"], ["ABOUT"])


def _quote(term: str) -> str:
    from ..store.sql_parts import quote_term

    return quote_term(term)


def _close(conn: Any, uid: str, max_chars: int) -> None:
    """Closure to a fixpoint, including the further chunks of long turns (recomputed from the text)."""
    for _ in range(4):
        store.close_over(conn, uid)
        shas = {
            c.sha256
            for text, _first in store.extra_chunk_shas(conn, uid)
            for _o, c in chunk_turn(text, max_chars).pieces
        }
        if not store.add_chunks(conn, sorted(shas)):
            return


def _recompute_traits(
    conn: Any, uid: str, lost: Sequence[dict[str, Any]], settings: Any, *, actor: str
) -> tuple[int, int, store.Erased]:
    """Recompute each trait that lost evidence; delete a trait left with no supporting evidence."""
    by_trait: dict[uuid.UUID, list[dict[str, Any]]] = {}
    for e in lost:
        by_trait.setdefault(e["trait_id"], []).append(e)
    recomputed = 0
    doomed: list[uuid.UUID] = []
    for trait_id, pieces in by_trait.items():
        trait = traits.get_trait(conn, uid, trait_id)
        if trait is None:
            continue
        left = [e for e in traits.evidence_for(conn, uid, [trait_id]) if e.evidence_type == "supporting"]
        if not left:
            doomed.append(trait_id)
            continue
        if trait.expired_at is not None:
            continue
        confidence = trait.trait_confidence
        support = sum(1 for p in pieces if p["evidence_type"] == "supporting")
        if confidence is not None:
            for p in pieces:
                confidence = (
                    unreinforce(confidence, p["quality"], settings)
                    if p["evidence_type"] == "supporting"
                    else uncontradict(confidence, settings)
                )
        fields: dict[str, Any] = {
            "trait_reinforcement_count": max(0, trait.trait_reinforcement_count - support),
            "trait_contradiction_count": max(0, trait.trait_contradiction_count - (len(pieces) - support)),
        }
        event = HistoryEvent.UPDATE
        if confidence is not None:
            fields["trait_confidence"] = confidence
            if trait.trait_stage not in (TraitStage.TREND, TraitStage.DISSOLVED, None):
                stage = (
                    TraitStage.DISSOLVED
                    if tm.should_dissolve(confidence, settings)
                    else tm.stage_for_confidence(confidence, settings)
                )
                if stage != trait.trait_stage:
                    fields["trait_stage"] = stage.value
                    event = HistoryEvent.STAGE_CHANGE
        traits.update_trait(conn, trait, fields, event=event, actor=actor)
        recomputed += 1
    extra = store.Erased()
    if doomed:
        store.open_sets(conn)
        store.seed_traits(conn, doomed)
        extra = store.erase(conn, uid)
    return recomputed, len(doomed), extra


def remove_files(paths: Sequence[Path]) -> int:
    """Unlink chunk files after the commit (a file system is not transactional); empty parent
    directories go too. A file that cannot be removed is logged, not raised."""
    removed = 0
    for path in paths:
        try:
            path.unlink(missing_ok=True)
            removed += 1
        except OSError as exc:
            log.warning("could not remove chunk file %s: %s", path, exc)
            continue
        for parent in (path.parent, path.parent.parent):
            try:
                parent.rmdir()
            except OSError:
                break
    return removed


def reset(runtime: Runtime, uid: str) -> dict[str, int]:
    """Erase every row of the (checked) user ``uid`` in every table, then the user's files of the
    chunk directory (after the commit); no receipt — ``Memory.reset`` is the operator's wipe.
    Recall's buffered access counts of the user are dropped, not flushed into rows being deleted."""
    with runtime.access.without_user(uid), runtime.db.transaction() as conn:
        files = store.chunk_paths(conn, uid)
        removed = memories.delete_user(conn, uid)
    remove_files(files)
    return removed


def _refresh_view(runtime: Runtime) -> None:
    """Forgotten traits leave ``mv_trait_decayed`` at once (the view copies trait text and vectors)."""
    try:
        maintenance.refresh_trait_view(runtime.db)
    except Exception as exc:  # the recall query re-checks the base table; the job refreshes later
        log.warning("refreshing mv_trait_decayed after a forget failed: %s", exc)


def receipt(runtime: Runtime, uid: str, rid: uuid.UUID) -> ForgetReceipt:
    with runtime.db.connection() as conn:
        row = store.get_receipt(conn, uid, rid)
    if row is None:
        raise ReceiptNotFoundError(f"no forget receipt {rid} for user {uid!r}")
    return row


def receipts(runtime: Runtime, uid: str, *, limit: int = 100) -> list[ForgetReceipt]:
    with runtime.db.connection() as conn:
        return store.list_receipts(conn, uid, limit)


__all__ = [
    "ForgetPreview",
    "ForgetReceipt",
    "ForgetTarget",
    "forget",
    "receipt",
    "receipts",
    "reset",
    "target_of",
]
