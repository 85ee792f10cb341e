-- 0012: drop key_values and emotion_profiles (issue 13 item 7).
-- Seed 000 §7 lists them as tables of the system V2 replaces: key_values kept only for non-memory
-- settings until traits carry the profile (§7.1), emotion_profiles as a per-user aggregate "kept
-- as is" beside V2 (§7.2). neuromem has no such predecessor and nothing wrote or read either
-- table: profiles are traits and facts, the per-memory emotion is metadata.emotion (recall's
-- arousal-slowed recency, reflection's 14-day emotional trends). Empty tables only misled
-- export, forget, row-level security and the Citus checks, so they go.
DROP TABLE IF EXISTS key_values;
DROP TABLE IF EXISTS emotion_profiles;
