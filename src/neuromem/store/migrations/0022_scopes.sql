-- 0022: scopes beyond the user (issue 26 item 2; seed 003 privacy.scope; Mem0's agent_id / run_id).
--
-- A memory belongs to a user and may name an agent (agent_id) and a run (run_id); its visibility is
-- private (the default), team (every member of team_id in the owner's tenant) or public (every
-- user of the owner's tenant). docs/architecture.md, "Scopes", states the semantics.
--
-- The request scope now signs an agent and a run too: the proof of neuromem_scoped_user() covers
-- tenant ␟ user ␟ agent ␟ run ␟ backend pid (empty agent / run: none), and neuromem_scoped_agent(),
-- neuromem_scoped_run() and neuromem_scoped_tenant() return their setting only under a valid proof.
-- memories and its partitions keep the policy user_isolation, narrowed to what the scope's agent
-- and run may see, and gain shared_visibility (SELECT only: nobody writes another user's rows).
ALTER TABLE memories ADD COLUMN agent_id VARCHAR(255);
ALTER TABLE memories ADD COLUMN run_id VARCHAR(255);
ALTER TABLE memories ADD COLUMN visibility VARCHAR(10) NOT NULL DEFAULT 'private';
ALTER TABLE memories ADD COLUMN team_id VARCHAR(255);
ALTER TABLE memories ADD CONSTRAINT chk_memory_visibility CHECK (visibility IN ('private', 'team', 'public'));
ALTER TABLE memories ADD CONSTRAINT chk_memory_team CHECK ((visibility = 'team') = (team_id IS NOT NULL));
CREATE INDEX idx_memories_agent_run ON memories (user_id, agent_id, run_id)
    WHERE agent_id IS NOT NULL OR run_id IS NOT NULL;
CREATE INDEX idx_memories_shared ON memories (visibility, team_id) WHERE visibility <> 'private';

-- forgetting a scope (Memory.forget(agent_id=…, run_id=…)) leaves a receipt of kind 'scope'
ALTER TABLE forget_receipts DROP CONSTRAINT chk_forget_target;
ALTER TABLE forget_receipts ADD CONSTRAINT chk_forget_target
    CHECK (target_kind IN ('memory', 'session', 'document', 'window', 'query', 'entity', 'concept',
                           'everything', 'purge', 'retention', 'scope'));

-- who belongs to which team (user_id: the stored, tenant-scoped user key)
CREATE TABLE team_members (
    user_id    VARCHAR(255) NOT NULL,
    team_id    VARCHAR(255) NOT NULL,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, team_id)
);
CREATE INDEX idx_team_members_team ON team_members (team_id);

CREATE OR REPLACE FUNCTION neuromem_scoped_user() RETURNS text
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
DECLARE
    k bytea;
    u text := current_setting('neuromem.user_id', true);
BEGIN
    SELECT s.key INTO k FROM public.neuromem_scope_key s;
    IF u IS NULL OR k IS NULL OR current_setting('neuromem.scope_proof', true) IS DISTINCT FROM encode(sha256(
           k || convert_to(coalesce(current_setting('neuromem.tenant', true), '') || chr(31) || u || chr(31)
                           || coalesce(current_setting('neuromem.agent_id', true), '') || chr(31)
                           || coalesce(current_setting('neuromem.run_id', true), '') || chr(31)
                           || pg_backend_pid()::text, 'UTF8') || k), 'hex') THEN
        RETURN NULL;
    END IF;
    RETURN u;
END
$fn$;

-- the other signed settings: NULL unless the proof holds (and for an empty agent / run)
CREATE FUNCTION neuromem_scoped_setting(name text) RETURNS text
LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp AS $fn$
    SELECT CASE WHEN public.neuromem_scoped_user() IS NOT NULL THEN nullif(current_setting(name, true), '') END
$fn$;
REVOKE ALL ON FUNCTION neuromem_scoped_setting(text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION neuromem_scoped_setting(text) TO neuromem_service;

-- the tenant of a stored user key (neuromem.service.api.tenancy: 't=<tenant>/<user>', else 'default')
CREATE FUNCTION neuromem_tenant_of(user_key text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $fn$
    SELECT CASE WHEN user_key LIKE 't=%/%' THEN split_part(substr(user_key, 3), '/', 1)
                WHEN user_key IS NOT NULL THEN 'default' END
$fn$;

-- is a memory of owner, visibility and team shared with the user viewer (another user of the same
-- tenant)? The policy shared_visibility and the library's include_shared listing both ask this.
-- A plain SQL function: inlined into the query that calls it.
CREATE FUNCTION neuromem_shared_with(viewer text, owner text, visibility text, team text) RETURNS boolean
LANGUAGE sql STABLE AS $fn$
    SELECT coalesce(visibility <> 'private' AND neuromem_tenant_of(owner) = neuromem_tenant_of(viewer), false)
           AND (visibility = 'public'
                OR EXISTS (SELECT 1 FROM team_members m WHERE m.user_id = viewer AND m.team_id = team))
$fn$;

CREATE OR REPLACE FUNCTION neuromem_enable_rls() RETURNS integer LANGUAGE plpgsql AS $fn$
DECLARE
    t record;
    n integer := 0;
    own text;
BEGIN
    FOR t IN
        SELECT c.relname,
               EXISTS (SELECT 1 FROM pg_attribute v WHERE v.attrelid = c.oid AND v.attname = 'visibility'
                       AND NOT v.attisdropped) AS scoped
        FROM pg_class c
        JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'user_id' AND NOT a.attisdropped
        WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p')
        ORDER BY c.relname
    LOOP
        EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t.relname);
        EXECUTE format('DROP POLICY IF EXISTS user_isolation ON %I', t.relname);
        EXECUTE format('DROP POLICY IF EXISTS shared_visibility ON %I', t.relname);
        -- (SELECT …): evaluated once per query (an InitPlan), not once per row
        own := 'user_id = (SELECT neuromem_scoped_user())';
        IF t.scoped THEN
            -- a scope with an agent (a run) sees the user's rows of no agent (no run), its own, and the
            -- rows shared beyond their agent (visibility team / public)
            own := own
                || ' AND (agent_id IS NULL OR visibility <> ''private'''
                || ' OR agent_id = coalesce((SELECT neuromem_scoped_setting(''neuromem.agent_id'')), agent_id))'
                || ' AND (run_id IS NULL OR visibility <> ''private'''
                || ' OR run_id = coalesce((SELECT neuromem_scoped_setting(''neuromem.run_id'')), run_id))';
            EXECUTE format(
                'CREATE POLICY shared_visibility ON %I FOR SELECT TO neuromem_service USING ('
                'neuromem_shared_with((SELECT neuromem_scoped_user()), user_id, visibility, team_id))', t.relname);
        END IF;
        EXECUTE format('CREATE POLICY user_isolation ON %I TO neuromem_service USING (%s) WITH CHECK (%s)',
                       t.relname, own, own);
        n := n + 1;
    END LOOP;
    RETURN n;
END
$fn$;

SELECT neuromem_enable_rls();
