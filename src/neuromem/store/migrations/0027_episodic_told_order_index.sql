-- 0027: episodes in the order they were told (issue 21, recall's continuations: store/recall_truth.py,
-- next_statements). Recall reads the memory a user told next after each of its first hits; facts have
-- (user_id, created_at) already, episodes only (user_id, valid_at), so each probe sorted the user's whole
-- episodic partition: 42 ms for 8 hits of a user with 20,000 episodes.
CREATE INDEX idx_episodic_told ON memories_episodic (user_id, created_at, id);
