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

DROP_TRAIT_VIEW = "DROP MATERIALIZED VIEW IF EXISTS mv_trait_decayed"
DROP_INDEX = sql.SQL("DROP INDEX IF EXISTS {}")
RETYPE_MEMORY_VECTORS = sql.SQL("ALTER TABLE memories ALTER COLUMN embedding TYPE halfvec({dim}) USING NULL")
RETYPE_CONCEPT_VECTORS = sql.SQL(
    "ALTER TABLE graph_nodes ALTER COLUMN embedding TYPE halfvec({dim}) USING NULL"
)
RESET_EMBED_ATTEMPTS = "UPDATE memories SET embed_attempts = 0, embed_error = NULL"
# the turns' vectors (migration 0011) take the new dimension too, NULL until the backfill embeds
# them again (lifecycle.backfill); BM25 finds the turns meanwhile
DROP_TURN_VECTOR_INDEX = "DROP INDEX IF EXISTS idx_messages_embedding"
RETYPE_TURN_VECTORS = sql.SQL(
    "ALTER TABLE conversation_messages ALTER COLUMN embedding TYPE halfvec({dim}) USING NULL"
)
CREATE_TURN_VECTOR_INDEX = (
    "CREATE INDEX idx_messages_embedding ON conversation_messages "
    "USING hnsw (embedding halfvec_cosine_ops) WITH (m = 16, ef_construction = 64)"
)
RECORD_DIM = """INSERT INTO neuromem_meta (key, value) VALUES ('embedding_dim', %s)
                ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value"""


def reembed(settings: Settings, dim: int) -> None:
    """Retype ``memories.embedding`` to ``halfvec(dim)`` with every vector NULL, rebuild its indexes
    and the trait view, and record the new dimension. The backfill then embeds every row."""
    server = resolve_server(settings.store)
    new_settings = settings.with_updates(store={"embedding_dim": dim})
    vector_sql = [m.sql for m in migrate.migrations() if m.version in _VECTOR_MIGRATIONS]
    with translated_errors(), psycopg.connect(server.url, autocommit=True) as conn, conn.transaction():
        conn.execute(migrate.LOCK_MIGRATIONS, (migrate._LOCK_KEY,))
        conn.execute(DROP_TRAIT_VIEW)
        for part in ("fact", "episodic", "trait", "document"):
            conn.execute(DROP_INDEX.format(sql.Identifier(f"idx_{part}_embedding")))
        conn.execute(RETYPE_MEMORY_VECTORS.format(dim=sql.Literal(int(dim))))
        # concept centroids (migration 0014) are recomputed by the next consolidate_concepts run
        conn.execute(RETYPE_CONCEPT_VECTORS.format(dim=sql.Literal(int(dim))))
        conn.execute(RESET_EMBED_ATTEMPTS)
        conn.execute(DROP_TURN_VECTOR_INDEX)
        conn.execute(RETYPE_TURN_VECTORS.format(dim=sql.Literal(int(dim))))
        conn.execute(CREATE_TURN_VECTOR_INDEX)
        for text in vector_sql:
            script = migrate.render(text, new_settings, queue=False)
            conn.execute(script)
        conn.execute(RECORD_DIM, (str(dim),))
