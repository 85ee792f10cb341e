"""Changing the embedding dimension: drop vectors and vector indexes, retype, rebuild (``memctl reembed``)."""

from __future__ import annotations

import psycopg
from psycopg import sql

from ..config import Settings
from . import migrate
from .db import translated_errors
from .server import resolve_server

# every object built on the embedding column: 0003's indexes (and first trait view), 0013's trait view
_VECTOR_MIGRATIONS = (3, 13)


def reembed(settings: Settings, dim: int) -> None:
    """Retype ``memories.embedding`` to ``halfvec(dim)`` with every vector NULL, rebuild its indexes
    and the trait view, and record the new dimension. The backfill then embeds every row."""
    server = resolve_server(settings.store)
    new_settings = settings.with_updates(store={"embedding_dim": dim})
    vector_sql = [m.sql for m in migrate.migrations() if m.version in _VECTOR_MIGRATIONS]
    with translated_errors(), psycopg.connect(server.url, autocommit=True) as conn, conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (migrate._LOCK_KEY,))
        conn.execute("DROP MATERIALIZED VIEW IF EXISTS mv_trait_decayed")
        for part in ("fact", "episodic", "trait", "document"):
            conn.execute(sql.SQL("DROP INDEX IF EXISTS {}").format(sql.Identifier(f"idx_{part}_embedding")))
        conn.execute(sql.SQL("ALTER TABLE memories ALTER COLUMN embedding TYPE halfvec({}) USING NULL")
                     .format(sql.Literal(int(dim))))  # fmt: skip
        # concept centroids (migration 0014) are recomputed by the next consolidate_concepts run
        conn.execute(sql.SQL("ALTER TABLE graph_nodes ALTER COLUMN embedding TYPE halfvec({}) USING NULL")
                     .format(sql.Literal(int(dim))))  # fmt: skip
        conn.execute("UPDATE memories SET embed_attempts = 0, embed_error = NULL")
        # the turns' vectors (migration 0011) take the new dimension too; they are not re-embedded
        # (the backfill embeds memories): until a turn is ingested again, BM25 finds it
        conn.execute("DROP INDEX IF EXISTS idx_messages_embedding")
        conn.execute(sql.SQL("ALTER TABLE conversation_messages ALTER COLUMN embedding TYPE halfvec({}) USING NULL")
                     .format(sql.Literal(int(dim))))  # fmt: skip
        conn.execute("CREATE INDEX idx_messages_embedding ON conversation_messages "
                     "USING hnsw (embedding halfvec_cosine_ops) WITH (m = 16, ef_construction = 64)")
        for text in vector_sql:
            conn.execute(migrate.render(text, new_settings, queue=False))
        conn.execute(
            "INSERT INTO neuromem_meta (key, value) VALUES ('embedding_dim', %s) "
            "ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
            (str(dim),),
        )
