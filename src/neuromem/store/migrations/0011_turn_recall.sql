-- 0011: every stored turn is recallable (issue 14 item 1). A conversation turn, of any role, is
-- a retrieval unit beside the memories: its words in `search_tokens` (jieba-segmented, with the
-- speaker's name, like memories) behind a GIN full-text index, its length for BM25, and its
-- passage vector (shared with a memory whose text is the turn's). Turns stored before this
-- migration get their raw words as tokens (the ingest segments Chinese; a later `memctl reembed`
-- or backfill gives them vectors); until then BM25 finds them.
ALTER TABLE conversation_messages ADD COLUMN search_tokens TEXT NOT NULL DEFAULT '';
ALTER TABLE conversation_messages ADD COLUMN token_count INTEGER NOT NULL DEFAULT 0;
ALTER TABLE conversation_messages ADD COLUMN embedding halfvec(@EMBEDDING_DIM@);
ALTER TABLE conversation_messages ADD COLUMN fts tsvector
    GENERATED ALWAYS AS (to_tsvector('simple', search_tokens)) STORED;
UPDATE conversation_messages
SET search_tokens = lower(coalesce(speaker || ' ', '') || content),
    token_count = greatest(1, array_length(regexp_split_to_array(btrim(content), '\s+'), 1));
CREATE INDEX idx_messages_fts ON conversation_messages USING gin (fts);
CREATE INDEX idx_messages_embedding ON conversation_messages
    USING hnsw (embedding halfvec_cosine_ops) WITH (m = 16, ef_construction = 64);
