"""Changing the embedding dimension: drop vectors and vector indexes, retype, rebuild (``memctl reembed``)."""

from __future__ import annotations

import psycopg

from ..config import Settings
from . import migrate
from .server import resolve_server

_VECTOR_MIGRATION = 3  # 0003_vector_indexes.sql holds every object built on the embedding column


def reembed(settings: Settings, dim: int) -> None:
    """Retype ``memories.embedding`` to ``halfvec(dim)`` with every vector NULL, rebuild its indexes
    and the trait view, and record the new dimension. The backfill then embeds every row."""
    server = resolve_server(settings.store)
    new_settings = settings.with_updates(store={"embedding_dim": dim})
    vector_sql = next(m for m in migrate.migrations() if m.version == _VECTOR_MIGRATION).sql
    with psycopg.connect(server.url, autocommit=True) as conn, conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (migrate._LOCK_KEY,))
        conn.execute("DROP MATERIALIZED VIEW IF EXISTS mv_trait_decayed")
        for part in ("fact", "episodic", "trait", "document"):
            conn.execute(f"DROP INDEX IF EXISTS idx_{part}_embedding")
        conn.execute(f"ALTER TABLE memories ALTER COLUMN embedding TYPE halfvec({int(dim)}) USING NULL")
        conn.execute("UPDATE memories SET embed_attempts = 0, embed_error = NULL")
        # the turns' vectors (migration 0011) take the new dimension too; they are not re-embedded
        # (the backfill embeds memories): until a turn is ingested again, BM25 finds it
        conn.execute("DROP INDEX IF EXISTS idx_messages_embedding")
        conn.execute(f"ALTER TABLE conversation_messages ALTER COLUMN embedding TYPE halfvec({int(dim)}) USING NULL")
        conn.execute("CREATE INDEX idx_messages_embedding ON conversation_messages "
                     "USING hnsw (embedding halfvec_cosine_ops) WITH (m = 16, ef_construction = 64)")
        conn.execute(migrate.render(vector_sql, new_settings))
        conn.execute(
            "INSERT INTO neuromem_meta (key, value) VALUES ('embedding_dim', %s) "
            "ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
            (str(dim),),
        )
