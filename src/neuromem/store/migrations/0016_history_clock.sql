-- 0016: the history's own clock (issue 22 item 7). Decay and trend windows measure event time
-- against the user's history, not the wall clock alone: a history recorded late (an import of
-- dated conversations) is not "silent" for the time between its last event and its recording.
-- A wall-clock reading `at` (between the recording of the latest event and the present) is moved
-- back by that recording lag (recorded − happened, never negative); any other clock is a replay's
-- or a simulation's, already on the history's timeline, and stays. The latest event is the newest
-- message (sent_at / created_at), else the newest current fact or episode with an event time
-- (valid_at / created_at).
-- Python reads it through neuromem.store.decay.history_clock.
CREATE OR REPLACE FUNCTION neuromem_history_clock(uid text, at timestamptz)
RETURNS timestamptz LANGUAGE sql STABLE PARALLEL SAFE AS $$
    SELECT coalesce((
        SELECT CASE WHEN at >= latest.recorded AND at <= now() + interval '1 minute'
                    THEN at - greatest(latest.recorded - latest.happened, interval '0') ELSE at END
        FROM ((SELECT m.sent_at AS happened, m.created_at AS recorded, 0 AS preference
               FROM conversation_messages m WHERE m.user_id = uid ORDER BY m.sent_at DESC LIMIT 1)
              UNION ALL
              (SELECT x.valid_at, x.created_at, 1 FROM memories x
               WHERE x.user_id = uid AND x.memory_type IN ('fact', 'episodic') AND x.valid_at IS NOT NULL
                 AND x.expired_at IS NULL
               ORDER BY x.valid_at DESC LIMIT 1)) latest
        ORDER BY latest.preference LIMIT 1), at)
$$;
