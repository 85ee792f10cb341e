"""Physical erasure of what was forgotten (issue 23 item 4): forget with proof reaches the bytes.

``forget`` deletes rows in one transaction, and its receipt names the relations that held them
(``ForgetReceipt.relations``: the memory partitions of the forgotten types, history, messages,
chunks…). Their bytes stay in the table and index files and in the WAL until those are
rewritten. ``compact_forgotten`` does it for the receipts not yet erased (all users, or one):

1. wait (at most ``lifecycle.compact_wait_s``) for the transactions of the database that started
   before it — a snapshot that still sees a deleted row makes VACUUM FULL copy that row;
2. ``VACUUM (FULL)`` each named relation, one at a time, each lock awaited at most
   ``lifecycle.compact_lock_timeout_s`` (a relation not granted in time keeps its receipts pending
   for the next run);
3. checkpoint, WAL switch, checkpoint (``store.compaction.retire_wal``);
4. ``erased_at`` on the receipts whose relations were all rewritten.

Run on demand (``Memory.compact_forgotten``, ``Memory.forget(..., compact=True)``,
``memctl forget --compact``) or by the job ``compact_forgotten`` (daily, after the purge and the
retention jobs). What remains outside the relations — WAL segments PostgreSQL recycles rather
than removes, and backups — is described in docs/operations.md, "Physical erasure".
"""

from __future__ import annotations

import datetime as dt
import logging
import time
import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import psycopg

from ..store import compaction as store
from ..store.db import translated_errors
from ..types import MemoryType

if TYPE_CHECKING:
    from ..core import Runtime

log = logging.getLogger(__name__)

TRAIT_VIEW = "mv_trait_decayed"
_POLL_S = 0.05


@dataclass(frozen=True, slots=True)
class CompactionReport:
    """What a compaction rewrote, and which receipts it completed."""

    erased: tuple[uuid.UUID, ...] = ()  # receipts whose rows are now gone from the relation files
    relations: tuple[str, ...] = ()  # rewritten with VACUUM FULL
    skipped: tuple[str, ...] = ()  # lock not granted in time: their receipts stay pending
    waiting: int = 0  # receipts left pending (skipped relations, or older transactions still open)
    wal_retired: bool = False  # checkpoint + WAL switch done (needs pg_checkpoint / superuser)
    erased_at: dt.datetime | None = None
    seconds: float = 0.0


def relations_of(counts: Mapping[str, int], memory_types: Iterable[str]) -> tuple[str, ...]:
    """The relations a forget deleted from: tables by their counts, the ``memories`` partitions of the
    types deleted (every partition when the types are unknown), and the trait view with the traits."""
    out: set[str] = set()
    for table, n in counts.items():
        if n <= 0:
            continue
        if table == "memories":
            types = set(memory_types) or {t.value for t in MemoryType}
            out.update(f"memories_{t}" for t in types)
        else:
            out.add(table)
    if "memories_trait" in out or "trait_evidence" in out:
        out.add(TRAIT_VIEW)  # the view copies trait text (refreshed after the forget)
    return tuple(sorted(out))


def pending_count(runtime: Runtime, *, user_id: str | None = None) -> int:
    """Receipts not yet physically erased (the job's dry run)."""
    with translated_errors(), psycopg.connect(runtime.db.server.url, autocommit=True) as conn:
        return len(store.pending(conn, user_id, runtime.settings.lifecycle.compact_batch_receipts))


def compact_forgotten(runtime: Runtime, *, user_id: str | None = None) -> CompactionReport:
    """Rewrite the relations of the pending receipts (module docstring); returns what was done."""
    s = runtime.settings.lifecycle
    started = time.perf_counter()
    with translated_errors(), psycopg.connect(runtime.db.server.url, autocommit=True) as conn:
        moment = store.now(conn)
        todo = store.pending(conn, user_id, s.compact_batch_receipts)
        if not todo:
            return CompactionReport(seconds=time.perf_counter() - started)
        if not _wait_for_older_transactions(conn, moment, s.compact_wait_s):
            log.warning("compaction postponed: transactions older than the forgets are still open")
            return CompactionReport(waiting=len(todo), seconds=time.perf_counter() - started)
        rewritten, skipped = [], []
        for relation in store.existing(conn, sorted({r for p in todo for r in p.relations})):
            try:
                store.rewrite(conn, relation, int(s.compact_lock_timeout_s * 1000))
                rewritten.append(relation)
            except psycopg.errors.LockNotAvailable:
                log.warning(
                    "compaction: %s was busy for %.0f s; its receipts stay pending",
                    relation,
                    s.compact_lock_timeout_s,
                )
                skipped.append(relation)
        wal = _retire_wal(conn)
        done = [p.id for p in todo if not set(p.relations) & set(skipped)]
        erased_at = store.mark_erased(conn, done) if done else None
    return CompactionReport(
        erased=tuple(done),
        relations=tuple(rewritten),
        skipped=tuple(skipped),
        waiting=len(todo) - len(done),
        wal_retired=wal,
        erased_at=erased_at,
        seconds=time.perf_counter() - started,
    )


def _wait_for_older_transactions(conn: psycopg.Connection[Any], moment: dt.datetime, wait_s: float) -> bool:
    deadline = time.monotonic() + wait_s
    while store.open_transactions_before(conn, moment):
        if time.monotonic() >= deadline:
            return False
        time.sleep(_POLL_S)
    return True


def _retire_wal(conn: psycopg.Connection[Any]) -> bool:
    try:
        store.retire_wal(conn)
    except psycopg.errors.InsufficientPrivilege as exc:
        log.warning(
            "compaction: no checkpoint / WAL switch (%s); the WAL is retired by the next automatic "
            "checkpoint",
            str(exc).strip(),
        )
        return False
    return True


__all__ = ["CompactionReport", "compact_forgotten", "pending_count", "relations_of"]
