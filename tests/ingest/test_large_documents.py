"""Large documents (issue #12 item 7): ``add_document`` returns once the text is stored — searchable
by full text at once — and a background thread embeds the chunks, with a status to poll."""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence

import numpy as np
import pytest

from neuromem import DocumentStatus, Memory, Settings
from neuromem.embed import HashingEmbedder
from neuromem.errors import DocumentNotFoundError, InvalidInputError
from tests.conftest import TEST_DIM


class SlowPassages(HashingEmbedder):
    """A real hashing embedder that takes ``delay_s`` per passage batch (a slow model), and can be
    held back until the test releases it."""

    def __init__(self, delay_s: float) -> None:
        super().__init__(dim=TEST_DIM)
        self.delay_s = delay_s
        self.release = threading.Event()
        self.release.set()

    def embed_batch(self, texts: Sequence[str], *, kind: str) -> np.ndarray:  # type: ignore[override]
        if kind == "passage":
            self.release.wait(30)
            time.sleep(self.delay_s)
        return super().embed_batch(texts, kind=kind)  # type: ignore[arg-type]


def _document(paragraphs: int) -> str:
    return "\n\n".join(
        f"Section {i}. The turbine blade {i} was inspected and logged as item code-{i:04d}. " * 3
        for i in range(paragraphs)
    )


def _wait_ready(m: Memory, file_id: object, timeout_s: float = 60) -> DocumentStatus:
    deadline = time.monotonic() + timeout_s
    status = m.document_status(file_id, user_id="eng")
    while status.state != "ready" and time.monotonic() < deadline:
        time.sleep(0.1)
        status = m.document_status(file_id, user_id="eng")
    return status


def test_large_document_is_searchable_at_once_and_embedded_in_the_background(settings: Settings) -> None:
    s = settings.with_updates(ingest={"document_background_chars": 2_000}, embedder={"batch_size": 8})
    embedder = SlowPassages(delay_s=0.05)
    with Memory(s, embedder=embedder) as m:
        embedder.release.clear()  # hold the background embedding: the state right after the call
        started = time.monotonic()
        doc = m.add_document(_document(120), user_id="eng", file_name="manual.md", mime_type="text/markdown")
        assert time.monotonic() - started < 10
        status = m.document_status(doc.id, user_id="eng")
        assert status.chunks == doc.chunk_count > 8 and status.embedded == 0 and status.state == "embedding"
        hits = m.search("code-0117", user_id="eng", limit=3)  # full text answers before any vector exists
        assert hits and "code-0117" in hits[0].memory.content
        embedder.release.set()
        status = _wait_ready(m, doc.id)
        assert status.state == "ready" and status.embedded == status.chunks and status.progress == 1.0
        assert m.pending_embeddings(user_id="eng") == 0


def test_small_document_is_embedded_in_the_call_and_background_can_be_forced(memory: Memory) -> None:
    small = memory.add_document("A short note about the boiler.", user_id="eng", file_name="note.txt")
    assert memory.document_status(small.id, user_id="eng").state == "ready"
    forced = memory.add_document(_document(3), user_id="eng", file_name="f.txt", background=True)
    assert _wait_ready(memory, forced.id).state == "ready"
    with pytest.raises(InvalidInputError):
        memory.add_document("text", user_id="eng", file_name="x.txt", background="yes")  # type: ignore[arg-type]
    with pytest.raises(DocumentNotFoundError):
        memory.document_status(forced.id, user_id="someone-else")


def test_memctl_documents_upload_waits_with_progress(
    memctl, tmp_path, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("NEUROMEM_INGEST__DOCUMENT_BACKGROUND_CHARS", "500")
    path = tmp_path / "manual.md"
    path.write_text(_document(40), encoding="utf-8")
    result = memctl("documents", "upload", "-u", "eng", str(path))
    assert result.exit_code == 0, result.output
    assert "chunks" in result.output and "still to embed" not in result.output
    listed = memctl("search", "-u", "eng", "code-0033")
    assert "code-0033" in listed.output
