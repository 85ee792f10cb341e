"""The runtime: what every pipeline runs against — settings, the database pool, the embedder,
the chat model and the clock — held once and closed once.

It owns no memory operation. The write rules are ``neuromem.writes``, recall is
``neuromem.recall`` (reached through the facade), the embedding backfill is
``neuromem.lifecycle.backfill``; each takes a ``Runtime`` (or the parts it needs) as an
argument, so ingest, recall and reflection sit side by side above the store and none of
them imports another, nor the facade.

Embedding (seed 000 "SQL 同步 + 向量异步"): in ``sync`` mode ``embed_passages`` computes the
vectors before a write; if the embedder fails it answers None, remembers why
(``embed_failure``), and the rows are written with a NULL embedding for the backfill —
nothing accepted is lost. In ``async`` mode it always answers None.
"""

from __future__ import annotations

import datetime as dt
import logging
import threading
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext
from typing import Protocol

import numpy as np

from .config import Settings
from .embed.base import Embedder
from .errors import ConfigError, EmbedderError
from .llm.base import ChatModel
from .store.db import Database

log = logging.getLogger(__name__)

Clock = Callable[[], dt.datetime]


def utc_now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


class AccessBuffer(Protocol):
    """Recall's buffered side effects (``recall.access.AccessTracker``), as the runtime sees them:
    flushed by jobs, suspended for a user being erased, flushed a last time on close."""

    def flush(self) -> int: ...

    def without_user(self, user_id: str) -> AbstractContextManager[None]: ...

    def close(self) -> None: ...


class _NoAccessBuffer:
    """The buffer of a runtime without recall (a job runner, a benchmark): nothing to flush."""

    def flush(self) -> int:
        return 0

    def without_user(self, user_id: str) -> AbstractContextManager[None]:
        return nullcontext()

    def close(self) -> None:
        return None


_NO_CHAT: ChatModel | None = None


class Runtime:
    """Settings, pool, embedder, chat model (made from ``settings.llm`` on first use, None
    offline) and clock. ``close()`` releases them once, in order; a second call does nothing."""

    def __init__(
        self,
        settings: Settings,
        db: Database,
        embedder: Embedder,
        *,
        clock: Clock = utc_now,
        chat: ChatModel | None = _NO_CHAT,
    ) -> None:
        if embedder.dim != settings.store.embedding_dim:
            raise ConfigError(
                f"the embedder {embedder.name!r} makes {embedder.dim}-d vectors but store.embedding_dim is "
                f"{settings.store.embedding_dim}: set NEUROMEM_EMBEDDING_DIM={embedder.dim}"
            )
        self.settings = settings
        self.db = db
        self.embedder = embedder
        self.clock = clock
        self.dim = settings.store.embedding_dim
        self.access: AccessBuffer = _NoAccessBuffer()  # the facade sets recall's tracker
        self.embed_failure: str | None = None  # the last sync-mode embedding failure, until one succeeds
        self.embeddings_deferred = False  # rows were written for the backfill on purpose (large documents)
        self._chat = chat
        self._chat_made = chat is not None
        self._lock = threading.Lock()
        self._closed = False

    @property
    def chat(self) -> ChatModel | None:
        """The configured LLM (one instance for ingest, recall's prompt block and ``add``'s
        restatement judgement), or None offline."""
        with self._lock:
            if not self._chat_made:
                from .llm.factory import create_chat_model

                self._chat = create_chat_model(self.settings.llm, state_file=self.settings.breaker_file())
                self._chat_made = True
            return self._chat

    def now(self) -> dt.datetime:
        return self.clock()

    # ------------------------------------------------------------------ embedding
    def embed_passages(self, texts: Sequence[str]) -> np.ndarray | None:
        """Vectors for ``texts`` in sync mode, or None (async mode, or the embedder failed)."""
        if self.settings.embedder.mode == "async" or not texts:
            return None
        try:
            vectors = self.embedder.embed_passages(list(texts), batch_size=self.settings.embedder.batch_size)
        except EmbedderError as exc:
            log.warning("embedding failed, rows will be backfilled: %s", exc)
            self.embed_failure = str(exc)  # read by the facade: a warning, and the backfill starts
            return None
        self.embed_failure = None
        return vectors

    def embed_query(self, text: str) -> np.ndarray | None:
        try:
            return self.embedder.embed_query(text)
        except EmbedderError as exc:
            log.warning("query embedding failed, recall runs without vectors: %s", exc)
            return None

    def close(self) -> None:
        """Flush recall's buffered side effects, then close the chat model, the pool and the embedder."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            chat = self._chat
        try:
            self.access.close()
        except Exception as exc:
            log.warning("final access-count flush failed: %s", exc)
        if chat is not None:
            chat.close()
        self.db.close()
        self.embedder.close()
