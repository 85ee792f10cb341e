"""A deleted trait stays deleted (issue 27 item 5; seed 001 §4.4 and §3's "修正" path to dissolved).

The user deleting a trait is the strongest correction there is: it dissolves the trait by the
user's word, not by the evidence. Deleting it leaves a suppression entry (``writes.delete`` →
``store.suppressions``): the trait's theme (its keywords) and every memory that supported it.
Reflection then holds every proposal of a new trait that matches an entry — same primary
keyword, or any evidence the deleted trait rested on:

- the suppressed memories never count again, whatever their theme;
- a supporting memory stored *after* the deletion counts as new evidence, and when the new
  evidence outweighs the old (more memories than the deleted trait had), the entry is lifted
  and the trait forms again, from the new evidence only — the person has changed, or the
  deletion was about the old wording of a true pattern;
- otherwise no trait forms, and the cycle's report counts it (``suppressed``).
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Sequence
from typing import Protocol, TypeVar

from ..store import suppressions as store
from ..store.db import Conn


class _Evidence(Protocol):
    @property
    def memory_id(self) -> uuid.UUID: ...


E = TypeVar("E", bound=_Evidence)


def matches(entry: store.Suppression, keywords: Sequence[str], evidence_ids: Sequence[uuid.UUID]) -> bool:
    """Whether a proposed trait is the suppressed one again: same theme, or built on its evidence."""
    same_theme = bool(keywords and entry.keywords and keywords[0] == entry.keywords[0])
    return same_theme or any(i in entry.evidence_ids for i in evidence_ids)


def outweighs(entry: store.Suppression, fresh: Sequence[uuid.UUID]) -> bool:
    """New supporting memories (stored after the deletion) outweigh the evidence the user rejected."""
    return len(set(fresh) - entry.evidence_ids) > len(entry.evidence_ids)


class Suppressions:
    """The user's active suppression entries for one reflection cycle (read once, lifted in its transaction)."""

    def __init__(self, conn: Conn, user_id: str, now: dt.datetime) -> None:
        self._conn = conn
        self._user_id = user_id
        self._now = now
        self._entries = store.active(conn, user_id)
        self.held = 0  # proposals not formed because of an entry

    def admit(self, keywords: Sequence[str], evidence: Sequence[E]) -> list[E] | None:
        """The evidence a new trait may be formed from, or None when a suppression holds it back."""
        kept = list(evidence)
        for entry in [e for e in self._entries if matches(e, keywords, [x.memory_id for x in kept])]:
            candidates = [x.memory_id for x in kept if x.memory_id not in entry.evidence_ids]
            fresh = store.stored_after(self._conn, self._user_id, candidates, entry.deleted_at)
            if not outweighs(entry, sorted(fresh)):
                self.held += 1
                return None
            store.lift(self._conn, self._user_id, entry.id, self._now)
            self._entries.remove(entry)
            kept = [x for x in kept if x.memory_id in fresh]
        return kept
