-- 0010: forgetting with a receipt (seed 003 §24 "选择性遗忘", deletion proof).
-- A receipt proves what a forget removed without holding any of it: counts per table,
-- sha256 of every deleted content and of every deleted id, one digest over them all.
CREATE TABLE forget_receipts (
    id             UUID NOT NULL,
    user_id        VARCHAR(255) NOT NULL,
    target_kind    VARCHAR(20) NOT NULL,
    target_sha256  CHAR(64) NOT NULL,
    actor          VARCHAR(50) NOT NULL,
    counts         JSONB NOT NULL DEFAULT '{}',
    content_sha256 TEXT[] NOT NULL DEFAULT '{}',
    id_sha256      TEXT[] NOT NULL DEFAULT '{}',
    digest         CHAR(64) NOT NULL,
    created_at     TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp(),
    PRIMARY KEY (user_id, id),  -- keys hold the distribution column (Citus by user_id)
    CONSTRAINT chk_forget_target CHECK (target_kind IN ('memory', 'session', 'document', 'window', 'query',
                                                        'entity', 'concept', 'everything', 'purge'))
);
CREATE INDEX idx_forget_receipts_user ON forget_receipts (user_id, created_at DESC);

-- a forgotten memory leaves one content-free FORGET tombstone in its history
ALTER TABLE memory_history DROP CONSTRAINT chk_history_event;
ALTER TABLE memory_history ADD CONSTRAINT chk_history_event
    CHECK (event IN ('ADD', 'UPDATE', 'DELETE', 'SUPERSEDE', 'STAGE_CHANGE', 'FORGET'));

-- conflicts between facts (seed 003 §7.2): every detected conflict with both sides' priority;
-- status 'auto' (decided by the formula), 'open' (too close: the review queue) or 'resolved'.
CREATE TABLE memory_conflicts (
    id          UUID NOT NULL,
    user_id     VARCHAR(255) NOT NULL,
    attribute   TEXT NOT NULL,
    old_id      UUID NOT NULL,
    new_id      UUID NOT NULL,
    old_score   REAL NOT NULL,
    new_score   REAL NOT NULL,
    status      VARCHAR(10) NOT NULL,
    winner_id   UUID,
    detector    VARCHAR(20) NOT NULL,
    created_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    resolved_at TIMESTAMPTZ,
    resolved_by VARCHAR(50),
    PRIMARY KEY (user_id, id),  -- keys hold the distribution column (Citus by user_id)
    CONSTRAINT chk_conflict_status CHECK (status IN ('auto', 'open', 'resolved'))
);
CREATE INDEX idx_conflicts_user ON memory_conflicts (user_id, status, created_at DESC);

-- lookups of forgetting (the closure of store/forget.py) on an index instead of a scan of the user's rows
CREATE INDEX idx_memories_raw_refs ON memories USING gin (raw_refs jsonb_path_ops);
CREATE INDEX idx_memories_source_episodes ON memories USING gin (source_episode_ids)
    WHERE cardinality(source_episode_ids) > 0;
CREATE INDEX idx_messages_chunk ON conversation_messages (user_id, raw_chunk_sha256);
CREATE INDEX idx_sources_message ON memory_sources (message_id) WHERE message_id IS NOT NULL;

-- the new user-owned tables get row-level security like every other (migration 0009)
SELECT neuromem_enable_rls();
