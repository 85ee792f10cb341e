"""Changing the embedding dimension: drop vectors and vector indexes, retype, rebuild (``memctl reembed``)."""

from __future__ import annotations

import psycopg
from psycopg import sql

from ..config import Settings
from . import migrate
from .db import translated_errors
from .server import resolve_server

_VECTOR_MIGRATION = 3  # 0003_vector_indexes.sql holds every object built on the embedding column


def reembed(settings: Settings, dim: int) -> None:
    """Retype ``memories.embedding`` to ``halfvec(dim)`` with every vector NULL, rebuild its indexes
    and the trait view, and record the new dimension. The backfill then embeds every row."""
    server = resolve_server(settings.store)
    new_settings = settings.with_updates(store={"embedding_dim": dim})
    vector_sql = next(m for m in migrate.migrations() if m.version == _VECTOR_MIGRATION).sql
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
        conn.execute(migrate.render(vector_sql, new_settings))
        conn.execute(
            "INSERT INTO neuromem_meta (key, value) VALUES ('embedding_dim', %s) "
            "ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
            (str(dim),),
        )
