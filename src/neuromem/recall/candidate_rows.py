"""The rows one recall reads about its candidates, each read once.

Fusion and scoring read, for the candidates of the lists, the turn each memory came from, the turns a
deleted memory withdraws, the memories' rows with their vectors, and the turns' rows. The second hop
(``recall.hop``) fuses the first hop's candidates again with a few new ones: it reads only the new ones.
Rows are read at their first use and kept for the one recall (a request sees one state of its rows).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TypeVar

import numpy as np

from ..store import conversations
from ..store import recall_queries as rq
from ..store.conversations import TurnRow
from ..store.db import Conn
from ..types import MemoryRecord

V = TypeVar("V")


class CandidateRows:
    """Memoised reads of one recall's candidate rows, by id (a row that is not there is remembered too)."""

    def __init__(self, conn: Conn, user_id: str) -> None:
        self.conn = conn
        self.user_id = user_id
        self._sources: dict[uuid.UUID, uuid.UUID | None] = {}
        self._withdrawn: dict[uuid.UUID, bool | None] = {}
        self._records: dict[uuid.UUID, MemoryRecord | None] = {}
        self._vectors: dict[uuid.UUID, np.ndarray] = {}
        self._turns: dict[uuid.UUID, TurnRow | None] = {}

    def source_turns(self, memory_ids: Sequence[uuid.UUID]) -> dict[uuid.UUID, uuid.UUID]:
        """The turn each of ``memory_ids`` came from, for those that have one (``conversations.source_turns``)."""
        self._read(
            self._sources, memory_ids, lambda ids: conversations.source_turns(self.conn, self.user_id, ids)
        )
        return _present(self._sources, memory_ids)

    def withdrawn_turns(self, turn_ids: Sequence[uuid.UUID]) -> set[uuid.UUID]:
        """The turns among ``turn_ids`` a deleted memory came from (``conversations.withdrawn_turns``)."""

        def read(ids: list[uuid.UUID]) -> dict[uuid.UUID, bool]:
            return dict.fromkeys(conversations.withdrawn_turns(self.conn, self.user_id, ids), True)

        self._read(self._withdrawn, turn_ids, read)
        return {i for i in turn_ids if self._withdrawn[i]}

    def records_with_vectors(
        self, ids: Sequence[uuid.UUID]
    ) -> tuple[dict[uuid.UUID, MemoryRecord], dict[uuid.UUID, np.ndarray]]:
        """The memories' rows and their stored vectors (``recall_queries.records_with_vectors``)."""

        def read(missing: list[uuid.UUID]) -> dict[uuid.UUID, MemoryRecord]:
            records, vectors = rq.records_with_vectors(self.conn, self.user_id, missing)
            self._vectors.update(vectors)
            return records

        self._read(self._records, ids, read)
        return _present(self._records, ids), {i: self._vectors[i] for i in ids if i in self._vectors}

    def turns_by_id(self, turn_ids: Sequence[uuid.UUID]) -> dict[uuid.UUID, TurnRow]:
        """The turns' rows (``conversations.turns_by_id``)."""
        self._read(self._turns, turn_ids, lambda ids: conversations.turns_by_id(self.conn, self.user_id, ids))
        return _present(self._turns, turn_ids)

    @staticmethod
    def _read(
        known: dict[uuid.UUID, V | None],
        ids: Iterable[uuid.UUID],
        read: Callable[[list[uuid.UUID]], Mapping[uuid.UUID, V]],
    ) -> None:
        missing = list(dict.fromkeys(i for i in ids if i not in known))
        if not missing:
            return
        found = read(missing)
        for i in missing:
            known[i] = found.get(i)


def _present(known: Mapping[uuid.UUID, V | None], ids: Iterable[uuid.UUID]) -> dict[uuid.UUID, V]:
    return {i: v for i in ids if (v := known[i]) is not None}


__all__ = ["CandidateRows"]
