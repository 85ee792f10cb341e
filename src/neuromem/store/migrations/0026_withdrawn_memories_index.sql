-- 0026: the memories a user took back (expired, not superseded), indexed on their own (issue 25, speed).
-- Every search asks which of its candidate turns such a memory came from (recall's "withdrawn turns",
-- store/conversations.py): the planner walked the user's whole partition once per candidate turn,
-- about 4 ms for 85 turns of a 500-turn user; with this index each probe finds the few withdrawn rows.
CREATE INDEX idx_memories_withdrawn ON memories (user_id, id) WHERE expired_at IS NOT NULL AND superseded_by IS NULL;
