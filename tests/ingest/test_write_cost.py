"""Bounded cost per write (issue 23 item 1): a long turn is stored as a document, not mined sentence
by sentence, and long texts are embedded by the backfill after the call, never inside it. The speed
itself is measured by ``python -m bench.writesize``; these tests check the routing that makes it so."""

from __future__ import annotations

import threading
from collections.abc import Sequence

import numpy as np

from neuromem import Memory, Settings
from neuromem.embed import HashingEmbedder
from tests.conftest import TEST_DIM


class CountingEmbedder(HashingEmbedder):
    """The hashing embedder, counting the characters of the passages the caller's thread had embedded
    (the backfill thread's work is what a call leaves for later)."""

    def __init__(self) -> None:
        super().__init__(dim=TEST_DIM)
        self.passage_chars = 0

    def embed_batch(self, texts: Sequence[str], *, kind: str) -> np.ndarray:  # type: ignore[override]
        if kind == "passage" and threading.current_thread() is threading.main_thread():
            self.passage_chars += sum(len(t) for t in texts)
        return super().embed_batch(texts, kind=kind)  # type: ignore[arg-type]


def _pasted(chars: int) -> str:
    sentences = (f"I like tea number {i} and I moved to city {i}. " for i in range(chars // 40 + 1))
    return "".join(sentences)[:chars]


def test_a_long_turn_becomes_a_document_without_per_sentence_memories_or_inline_vectors(
    settings: Settings,
) -> None:
    embedder = CountingEmbedder()
    long_turn = _pasted(60_000) + " The quokka smiled at the ferry. " + _pasted(40_000)  # ~2,400 sentences
    with Memory(settings, embedder=embedder) as m:
        report = m.ingest(
            [{"role": "user", "content": long_turn}, {"role": "user", "content": "I work at Initech."}],
            user_id="u",
            session_id="s",
        )
        assert [r.memory.content for r in report.results] == ["I work at Initech."]
        assert report.dropped["long_turn"] == 1 and len(report.documents) == 1
        assert embedder.passage_chars < 1_000  # only the short turn's memory was embedded in the call
        doc = report.documents[0]
        assert any("quokka" in h.memory.content for h in m.search("quokka", user_id="u", limit=3))
        while m.pending_embeddings(user_id="u"):
            m.flush()
        assert m.document_status(doc.id, user_id="u").state == "ready"


def test_a_long_add_is_written_at_once_and_embedded_by_the_backfill(settings: Settings) -> None:
    embedder = CountingEmbedder()
    s = settings.with_updates(embedder={"inline_max_chars": 2_000})
    text = _pasted(15_000)
    with Memory(s, embedder=embedder) as m:
        [result] = m.add(text, user_id="u")
        assert not result.memory.has_embedding and embedder.passage_chars == 0
        [short] = m.add("I drink green tea every morning.", user_id="u")
        assert short.memory.has_embedding
        while m.pending_embeddings(user_id="u"):
            m.flush()
        assert m.get(result.memory.id, user_id="u").has_embedding
