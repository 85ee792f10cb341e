-- 0003: per-partition HNSW indexes with the seed's differentiated parameters (seed 000 §2.5)
-- and the decayed-trait materialized view (seed 000 §5.1).
-- This file is also replayed by the re-embed command after the embedding dimension changes,
-- so every statement here must depend only on the embedding column.

CREATE INDEX idx_fact_embedding ON memories_fact
    USING hnsw (embedding halfvec_cosine_ops) WITH (m = 16, ef_construction = 64);
CREATE INDEX idx_episodic_embedding ON memories_episodic
    USING hnsw (embedding halfvec_cosine_ops) WITH (m = 16, ef_construction = 64);
CREATE INDEX idx_trait_embedding ON memories_trait
    USING hnsw (embedding halfvec_cosine_ops) WITH (m = 24, ef_construction = 128);
CREATE INDEX idx_document_embedding ON memories_document
    USING hnsw (embedding halfvec_cosine_ops) WITH (m = 16, ef_construction = 64);

-- decay: confidence * exp(-lambda_eff * days), lambda_eff = lambda / (1 + @SPACING@ * reinforcement_count)
CREATE MATERIALIZED VIEW mv_trait_decayed AS
SELECT
    t.id,
    t.user_id,
    t.content,
    t.embedding,
    t.trait_subtype,
    t.trait_stage,
    t.trait_context,
    t.trait_confidence AS raw_confidence,
    t.trait_reinforcement_count,
    t.trait_first_observed,
    t.trait_confidence * exp(
        -(CASE t.trait_subtype
            WHEN 'behavior'   THEN @LAMBDA_BEHAVIOR@
            WHEN 'preference' THEN @LAMBDA_PREFERENCE@
            WHEN 'core'       THEN @LAMBDA_CORE@
            ELSE @LAMBDA_DEFAULT@
          END / (1 + @SPACING@ * COALESCE(t.trait_reinforcement_count, 0)))
        * EXTRACT(EPOCH FROM (now() - COALESCE(t.trait_last_reinforced, t.created_at))) / 86400.0
    ) AS decayed_confidence,
    t.importance,
    t.metadata,
    t.created_at,
    t.trait_last_reinforced
FROM memories_trait t
WHERE t.trait_stage NOT IN ('dissolved', 'trend')
  AND t.expired_at IS NULL
WITH DATA;

CREATE UNIQUE INDEX idx_mv_trait_id ON mv_trait_decayed (id);
CREATE INDEX idx_mv_trait_user ON mv_trait_decayed (user_id, decayed_confidence DESC);
CREATE INDEX idx_mv_trait_stage ON mv_trait_decayed (user_id, trait_stage);
CREATE INDEX idx_mv_trait_embedding ON mv_trait_decayed
    USING hnsw (embedding halfvec_cosine_ops) WITH (m = 24, ef_construction = 128);
