-- 0024_events_per_row: the change feed of 0020 on a Citus cluster too (issue 24 item 2).
--
-- 0020 fills memory_events from statement-level triggers with transition tables. Citus runs a
-- trigger of a distributed table on the shard, and its planner cannot read a transition table
-- (a tuplestore) in a query on distributed tables. So each trigger function gets a per-row twin,
-- named <function>_per_row: on a cluster, the layout step (store/distributed.py) replaces each
-- statement-level trigger by a row-level one calling the twin with the table's name as its argument
-- (on a shard, TG_TABLE_NAME is the shard's name), whose statements name the row's
-- user and so run on the row's own node, next to the co-located memory_events shard. On a single
-- node nothing changes: the statement-level triggers stay (one INSERT per statement, not per row).
-- What an event says is computed by the functions below, which both forms call: one source of truth.

-- the kind of event a history row tells (NULL: none; a SUPERSEDE row of an updated memory is no event)
CREATE FUNCTION neuromem_history_event_kind(event text, memory_type text, reason text, stage text)
RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $fn$
    SELECT CASE
        WHEN event = 'ADD' AND memory_type = 'trait' THEN 'trait.formed'
        WHEN event = 'ADD' THEN 'memory.added'
        WHEN event = 'STAGE_CHANGE' AND stage = 'dissolved' THEN 'trait.dissolved'
        WHEN event = 'STAGE_CHANGE' THEN 'trait.stage_changed'
        WHEN event = 'UPDATE' AND reason IN ('contradicted', 'conflict resolved') THEN 'memory.invalidated'
        WHEN event = 'UPDATE' THEN 'memory.updated'
        WHEN event = 'DELETE' THEN 'memory.deleted'
        WHEN event = 'FORGET' THEN 'memory.forgotten'
    END
$fn$;

CREATE FUNCTION neuromem_history_event_detail(actor text, event text, stage text, memory_id uuid)
RETURNS jsonb LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $fn$
    SELECT jsonb_strip_nulls(jsonb_build_object(
        'actor', actor, 'history_event', event, 'stage', stage,
        'receipt_id', CASE WHEN event = 'FORGET' THEN memory_id END))
$fn$;

CREATE FUNCTION neuromem_conflict_event_detail(conflict_id uuid, old_id uuid, new_id uuid, detector text)
RETURNS jsonb LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $fn$
    SELECT jsonb_build_object('conflict_id', conflict_id, 'old_id', old_id, 'new_id', new_id, 'detector', detector)
$fn$;

CREATE OR REPLACE FUNCTION neuromem_history_events() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER
SET search_path = public AS $fn$
BEGIN
    INSERT INTO memory_events (user_id, kind, memory_id, memory_type, source_id, detail)
    SELECT h.user_id, k.kind, CASE WHEN h.event = 'FORGET' THEN NULL ELSE h.memory_id END, h.memory_type, h.id,
           neuromem_history_event_detail(h.actor, h.event, t.trait_stage, h.memory_id)
    FROM added h
    LEFT JOIN memories_trait t ON h.memory_type = 'trait' AND t.user_id = h.user_id AND t.id = h.memory_id
    CROSS JOIN LATERAL (SELECT neuromem_history_event_kind(h.event, h.memory_type, h.new_metadata->>'reason',
                                                           t.trait_stage) AS kind) k
    WHERE k.kind IS NOT NULL
    ON CONFLICT DO NOTHING;
    RETURN NULL;
END $fn$;

CREATE FUNCTION neuromem_history_events_per_row() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER
SET search_path = public AS $fn$
DECLARE
    stage text;
    kind text;
BEGIN
    IF NEW.memory_type = 'trait' THEN
        SELECT t.trait_stage INTO stage FROM memories_trait t WHERE t.user_id = NEW.user_id AND t.id = NEW.memory_id;
    END IF;
    kind := neuromem_history_event_kind(NEW.event, NEW.memory_type, NEW.new_metadata->>'reason', stage);
    IF kind IS NOT NULL THEN
        INSERT INTO memory_events (user_id, kind, memory_id, memory_type, source_id, detail)
        VALUES (NEW.user_id, kind, CASE WHEN NEW.event = 'FORGET' THEN NULL ELSE NEW.memory_id END, NEW.memory_type,
                NEW.id, neuromem_history_event_detail(NEW.actor, NEW.event, stage, NEW.memory_id))
        ON CONFLICT DO NOTHING;
    END IF;
    RETURN NULL;
END $fn$;

CREATE OR REPLACE FUNCTION neuromem_conflict_events() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER
SET search_path = public AS $fn$
BEGIN
    INSERT INTO memory_events (user_id, kind, memory_id, memory_type, source_id, detail)
    SELECT c.user_id, 'conflict.opened', c.new_id, 'fact', c.id,
           neuromem_conflict_event_detail(c.id, c.old_id, c.new_id, c.detector)
    FROM added c WHERE c.status = 'open'
    ON CONFLICT DO NOTHING;
    RETURN NULL;
END $fn$;

CREATE FUNCTION neuromem_conflict_events_per_row() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER
SET search_path = public AS $fn$
BEGIN
    IF NEW.status = 'open' THEN
        INSERT INTO memory_events (user_id, kind, memory_id, memory_type, source_id, detail)
        VALUES (NEW.user_id, 'conflict.opened', NEW.new_id, 'fact', NEW.id,
                neuromem_conflict_event_detail(NEW.id, NEW.old_id, NEW.new_id, NEW.detector))
        ON CONFLICT DO NOTHING;
    END IF;
    RETURN NULL;
END $fn$;

CREATE FUNCTION neuromem_withdraw_events_per_row() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER
SET search_path = public AS $fn$
BEGIN
    DELETE FROM memory_events e WHERE e.user_id = OLD.user_id AND e.source_id = OLD.id;
    IF TG_ARGV[0] = 'memory_history' THEN  -- (TG_TABLE_NAME would name the shard)
        IF OLD.event <> 'FORGET' THEN
            DELETE FROM memory_events e WHERE e.user_id = OLD.user_id AND e.memory_id = OLD.memory_id;
        END IF;
    END IF;
    RETURN NULL;
END $fn$;
