-- 0013: one decay formula read at query time (issue 13 item 2, issue 16's per-type decay),
-- and the job queue's tables (issue 13 item 3).
-- The functions and the view part of this file are also replayed by the re-embed command
-- (after 0003), so they are written to run again; the queue placeholder is then left empty.

-- value · exp(−rate / (1 + slowdown) · days): the same formula as neuromem.decay.decay
CREATE OR REPLACE FUNCTION neuromem_decay(
    value float8, rate_per_day float8, slowdown float8, since timestamptz, at timestamptz
) RETURNS float8 LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN value * exp(-(rate_per_day / (1 + slowdown))
                   * greatest(0, extract(epoch FROM (at - since))::float8 / 86400.0));

-- decayed trait confidence (seed 001 §4.2): rates = neuromem.decay.trait_rates(settings) as jsonb,
-- {"lambda": {subtype: λ}, "default": λ, "spacing": s}; the clock starts at the last
-- reinforcement, else the first observation, else creation (neuromem.decay.trait_decay_start)
CREATE OR REPLACE FUNCTION neuromem_trait_confidence(
    confidence float8, subtype text, reinforcements integer, last_reinforced timestamptz,
    first_observed timestamptz, created timestamptz, rates jsonb, at timestamptz
) RETURNS float8 LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN neuromem_decay(
    confidence,
    coalesce((rates -> 'lambda' ->> subtype)::float8, (rates ->> 'default')::float8),
    (rates ->> 'spacing')::float8 * coalesce(reinforcements, 0),
    coalesce(last_reinforced, first_observed, created),
    at);

-- the view keeps the recallable traits and their vectors (seed 000 §5.1); the decayed confidence
-- is computed by the query that reads it, with the rates of that moment's settings
DROP MATERIALIZED VIEW IF EXISTS mv_trait_decayed;
CREATE MATERIALIZED VIEW mv_trait_decayed AS
SELECT
    t.id,
    t.user_id,
    t.content,
    t.embedding,
    t.trait_subtype,
    t.trait_stage,
    t.trait_context,
    t.trait_confidence,
    t.trait_reinforcement_count,
    t.trait_first_observed,
    t.trait_last_reinforced,
    t.importance,
    t.metadata,
    t.created_at
FROM memories_trait t
WHERE t.trait_stage NOT IN ('dissolved', 'trend')
  AND t.expired_at IS NULL
WITH DATA;

CREATE UNIQUE INDEX idx_mv_trait_id ON mv_trait_decayed (id);
CREATE INDEX idx_mv_trait_stage ON mv_trait_decayed (user_id, trait_stage);
CREATE INDEX idx_mv_trait_embedding ON mv_trait_decayed
    USING hnsw (embedding halfvec_cosine_ops) WITH (m = 24, ef_construction = 128);

-- the job queue: procrastinate's schema, as shipped with the installed procrastinate
@QUEUE_SCHEMA@
