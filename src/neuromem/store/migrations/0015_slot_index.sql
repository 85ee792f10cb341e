-- 0015: the current facts of one slot (issue 21): a new value of "my office phone extension" finds the
-- old one by metadata.slot whatever the embedder says
CREATE INDEX idx_memories_slot ON memories (user_id, (metadata->>'slot'))
    WHERE (metadata->>'slot') IS NOT NULL AND expired_at IS NULL AND invalid_at IS NULL;
