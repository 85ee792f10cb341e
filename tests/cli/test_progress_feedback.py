"""Feedback on long work (issue 22 item 9): the document upload bar moves with the embedding, batch
by batch, instead of jumping from 0 to the end; the ingest bar's clock (and so its ETA) starts
after the model is loaded. A slow embedder stands in for a real model (real database)."""

from __future__ import annotations

import json
import re
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from neuromem import Memory, Settings
from neuromem.cli import ingest_commands
from neuromem.cli.main import cli
from neuromem.embed.hashing import HashingEmbedder

LOAD_S = 3.0


class SlowEmbedder(HashingEmbedder):
    """Loads in ``LOAD_S`` on its first call, then takes ``per_call_s`` per batch."""

    def __init__(self, dim: int, per_call_s: float) -> None:
        super().__init__(dim=dim)
        self.per_call_s, self.loaded, self.lock = per_call_s, False, threading.Lock()

    def embed_batch(self, texts, *, kind):  # type: ignore[no-untyped-def]
        with self.lock:
            if not self.loaded:
                time.sleep(LOAD_S)
                self.loaded = True
        time.sleep(self.per_call_s)
        return super().embed_batch(texts, kind=kind)


@pytest.fixture
def run(settings: Settings, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    """``memctl`` with the test's database and a slow embedder; the command's own settings changes kept."""
    dim = settings.store.embedding_dim

    def open_memory(given: Settings | None = None) -> Memory:
        batch = given.embedder.batch_size if given else settings.embedder.batch_size
        ours = settings.with_updates(
            embedder={"batch_size": batch}, ingest={"document_background_chars": 500}
        )
        return Memory(ours, embedder=SlowEmbedder(dim, per_call_s=0.3))

    monkeypatch.setattr(ingest_commands, "open_memory", open_memory)
    env = {
        "NEUROMEM_DATABASE_URL": settings.store.database_url.get_secret_value(),  # type: ignore[union-attr]
        "NEUROMEM_EMBEDDER": "hashing",
        "NEUROMEM_EMBEDDER__DIM": str(dim),
        "NEUROMEM_EMBEDDING_DIM": str(dim),
        "NEUROMEM_INGEST__DOCUMENT_BACKGROUND_CHARS": "500",
    }
    return lambda *args: CliRunner().invoke(cli, list(args), env=env, catch_exceptions=False)


def test_the_upload_bar_moves_batch_by_batch(run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    doc = tmp_path / "long.md"
    doc.write_text(
        "\n\n".join(
            f"## Part {i}\n" + f"Paragraph {i} about sailing and the weather. " * 40 for i in range(40)
        ),
        encoding="utf-8",
    )
    out = run("documents", "upload", "-u", "ann", str(doc))
    assert out.exit_code == 0, out.output
    chunks = int(re.search(r"  long\.md  (\d+) chunks", out.output).group(1))  # type: ignore[union-attr]
    assert chunks >= 24, out.output
    shown = {int(n) for n in re.findall(rf"\b(\d+)/{chunks} ", out.output)}
    assert len(shown - {0, chunks}) >= 2, f"the bar jumped: {sorted(shown)}"
    assert out.output.index("loading the embedding model") < out.output.index("embed:")


def test_the_ingest_clock_starts_after_the_model_is_loaded(run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    export = tmp_path / "chat.json"
    export.write_text(
        json.dumps(
            [
                {
                    "session_id": "s1",
                    "messages": [
                        {"role": "user", "content": f"I walked the dog along the river, day {i}"}
                        for i in range(6)
                    ],
                }
            ]
        )
    )
    out = run("ingest", "-u", "ann", str(export), "--no-wait")
    assert out.exit_code == 0, out.output
    assert out.output.index("loading the embedding model") < out.output.index("ingest:")
    [elapsed] = re.findall(r"ingest: 100%.*?\| 6/6 \[(\d\d):(\d\d)<", out.output)[-1:]
    assert int(elapsed[0]) * 60 + int(elapsed[1]) < LOAD_S, out.output  # the loading is not in the bar's time
