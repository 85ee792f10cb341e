-- 0004: turn identity (issue 12 item 1). A stored turn is recognised by its key — a hash of
-- the caller's message id, or of role, speaker, timestamp and content, plus how many earlier
-- turns of the session had the same identity — never by a count of turns per session.
-- ``neuromem.ingest.turns`` computes the same keys in Python.

ALTER TABLE conversation_messages ADD COLUMN turn_key CHAR(64);

UPDATE conversation_messages m SET turn_key = k.turn_key
FROM (
    SELECT id, encode(sha256(convert_to(basis || chr(31)
               || (row_number() OVER (PARTITION BY session_id, basis ORDER BY seq) - 1)::text, 'UTF8')), 'hex')
               AS turn_key
    FROM (
        SELECT id, session_id, seq,
               CASE WHEN coalesce(btrim(metadata->>'message_id'), '') <> ''
                        THEN 'id' || chr(31) || btrim(metadata->>'message_id')
                    WHEN coalesce(btrim(metadata->>'id'), '') <> ''
                        THEN 'id' || chr(31) || btrim(metadata->>'id')
                    ELSE role || chr(31) || coalesce(speaker, '') || chr(31)
                         || (extract(epoch FROM sent_at) * 1000000)::bigint::text || chr(31) || content
               END AS basis
        FROM conversation_messages
    ) b
) k
WHERE k.id = m.id;

ALTER TABLE conversation_messages ALTER COLUMN turn_key SET NOT NULL;
CREATE UNIQUE INDEX idx_messages_turn_key ON conversation_messages (user_id, session_id, turn_key);
