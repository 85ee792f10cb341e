"""Asynchronous embedding and backfill: nothing accepted is lost while the embedder is down."""

from __future__ import annotations

import time

from neuromem import Memory, Settings
from neuromem.embed.openai import OpenAIEmbedder
from tests.fakes.openai_server import FakeOpenAI

DIM = 64


def _embedder(fake: FakeOpenAI) -> OpenAIEmbedder:
    return OpenAIEmbedder(base_url=fake.base_url, model="fake-embed", dim=DIM, max_retries=0, backoff_s=0.0)


def test_sync_mode_embedder_down_stores_row_then_backfills(
    settings: Settings, fake_openai: FakeOpenAI
) -> None:
    fake_openai.embedding_dim = DIM
    with Memory(settings, embedder=_embedder(fake_openai)) as m:
        fake_openai.down = True
        rec = m.add("Grace keeps bees on her rooftop", user_id="g")[0].memory
        assert not rec.has_embedding
        assert m.pending_embeddings(user_id="g") == 1
        # recall still answers, by full text alone
        hits = m.search("bees rooftop", user_id="g")
        assert [h.memory.id for h in hits] == [rec.id] and "vector" not in hits[0].retrievers
        assert m.flush() == 0  # still down: nothing embedded, the attempt is recorded
        assert m.get(rec.id, user_id="g").has_embedding is False
        fake_openai.down = False
        # the failure started the backfill thread (sync mode): it and flush() race for the row,
        # and whichever claims it embeds it (SKIP LOCKED) — the row is embedded exactly once
        embedded = m.flush()
        deadline = time.monotonic() + 20
        while m.pending_embeddings() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert embedded in (0, 1)
        assert m.get(rec.id, user_id="g").has_embedding
        assert m.pending_embeddings() == 0
        found_by = m.search("bees rooftop", user_id="g")[0].retrievers
        assert "vector" in found_by and len(found_by) >= 2  # full text and, now, the vector path


def test_async_mode_backfill_worker_retries_until_the_embedder_recovers(
    settings: Settings, fake_openai: FakeOpenAI
) -> None:
    fake_openai.embedding_dim = DIM
    fake_openai.fail_embeddings = 2  # the first two embedding requests fail with 503
    async_settings = settings.with_updates(embedder={"mode": "async"})
    with Memory(async_settings, embedder=_embedder(fake_openai)) as m:
        m._backfill.interval_s = 0.05  # type: ignore[union-attr]
        m._backfill.max_backoff_s = 0.2  # type: ignore[union-attr]
        ids = [m.add(f"note number {i} about the garden", user_id="h")[0].memory.id for i in range(5)]
        deadline = time.monotonic() + 20
        while m.pending_embeddings() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert m.pending_embeddings() == 0
        assert all(m.get(i, user_id="h").has_embedding for i in ids)
        failed = [r for r in fake_openai.requests_to("/v1/embeddings")]
        assert len(failed) >= 3  # two failures, then success
