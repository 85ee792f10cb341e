-- 0014: consolidation that keeps memory small and true (issue 16): tags, archive, concepts, retention.

-- tags (seed 002 "tags TEXT[] DEFAULT '{}'"): the caller's labels, filtered with && (any) and @> (all)
ALTER TABLE memories ADD COLUMN tags TEXT[] NOT NULL DEFAULT '{}';
CREATE INDEX idx_memories_tags ON memories USING gin (tags);

-- archive of low-weight rows (seed 003 §6.4 "低权重归档"): an archived memory or node has expired_at
-- (it leaves every current path and recall) and archived_at (it is neither deleted nor superseded:
-- the purge never takes it and `restore` brings it back)
ALTER TABLE memories ADD COLUMN archived_at TIMESTAMPTZ;
ALTER TABLE graph_nodes ADD COLUMN archived_at TIMESTAMPTZ;

-- concept nodes carry the centroid of the memories ABOUT them (seed 003 §6.3 "概念中心 centroid"):
-- the concept recall route compares the query with it
ALTER TABLE graph_nodes ADD COLUMN embedding halfvec(@EMBEDDING_DIM@);
CREATE INDEX idx_nodes_concepts ON graph_nodes (user_id) WHERE node_type = 'concept' AND expired_at IS NULL;

-- history: ARCHIVE / RESTORE of the archive job, LINK when consolidation files a memory under a concept
ALTER TABLE memory_history DROP CONSTRAINT chk_history_event;
ALTER TABLE memory_history ADD CONSTRAINT chk_history_event
    CHECK (event IN ('ADD', 'UPDATE', 'DELETE', 'SUPERSEDE', 'STAGE_CHANGE', 'FORGET', 'ARCHIVE', 'RESTORE',
                     'LINK'));

-- receipts of the retention job (per-type / per-category TTL)
ALTER TABLE forget_receipts DROP CONSTRAINT chk_forget_target;
ALTER TABLE forget_receipts ADD CONSTRAINT chk_forget_target
    CHECK (target_kind IN ('memory', 'session', 'document', 'window', 'query', 'entity', 'concept',
                           'everything', 'purge', 'retention'));
