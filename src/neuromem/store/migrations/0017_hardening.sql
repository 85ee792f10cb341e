-- 0017: hardening (issue 23 items 4 and 6).
--
-- Item 6. The service logs in as neuromem_service (LOGIN, no superuser, no BYPASSRLS, owns
-- nothing), not as the owner, so `RESET ROLE` inside a request goes back to a role that row-level
-- security still binds. The request's user is no longer taken on trust from `neuromem.user_id`:
-- the policies compare user_id with neuromem_scoped_user(), which returns that setting only when
-- `neuromem.scope_proof` holds sha256(key ‖ tenant ␟ user ␟ backend pid ‖ key) for the secret
-- key of neuromem_scope_key, a table only the owner can read. The service process reads the key
-- through its owner connection and signs each scope (neuromem.store.scope); SQL running inside a
-- request can set the settings to anything but cannot sign another user.
DO $$
BEGIN
    -- only when needed: on a Citus cluster an ALTER ROLE runs on every node, where it can collide
    -- with a node being added ("tuple concurrently updated")
    IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'neuromem_service' AND NOT rolcanlogin) THEN
        ALTER ROLE neuromem_service LOGIN;
    END IF;
EXCEPTION WHEN insufficient_privilege THEN
    RAISE WARNING 'neuromem: cannot give neuromem_service LOGIN (%); see docs/operations.md, "The service''s login role"',
        SQLERRM;
END $$;

CREATE TABLE neuromem_scope_key (
    id  BOOLEAN PRIMARY KEY DEFAULT true,
    key BYTEA NOT NULL,
    CONSTRAINT chk_scope_key_single CHECK (id)
);
INSERT INTO neuromem_scope_key (key)
SELECT sha256(convert_to(gen_random_uuid()::text || gen_random_uuid()::text || gen_random_uuid()::text, 'UTF8'));
REVOKE ALL ON neuromem_scope_key FROM PUBLIC, neuromem_service;

CREATE FUNCTION neuromem_scoped_user() RETURNS text
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
-- PL/pgSQL, not SQL: its statement's plan is cached for the session (a SQL function's body would be
-- planned again by every statement that calls it)
DECLARE
    k bytea;
    u text := current_setting('neuromem.user_id', true);
BEGIN
    SELECT s.key INTO k FROM public.neuromem_scope_key s;
    IF u IS NULL OR k IS NULL OR current_setting('neuromem.scope_proof', true) IS DISTINCT FROM encode(sha256(
           k || convert_to(coalesce(current_setting('neuromem.tenant', true), '') || chr(31) || u || chr(31)
                           || pg_backend_pid()::text, 'UTF8') || k), 'hex') THEN
        RETURN NULL;
    END IF;
    RETURN u;
END
$fn$;
REVOKE ALL ON FUNCTION neuromem_scoped_user() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION neuromem_scoped_user() TO neuromem_service;

CREATE OR REPLACE FUNCTION neuromem_enable_rls() RETURNS integer LANGUAGE plpgsql AS $fn$
DECLARE
    t record;
    n integer := 0;
BEGIN
    FOR t IN
        SELECT c.relname
        FROM pg_class c
        JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'user_id' AND NOT a.attisdropped
        WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p')
        ORDER BY c.relname
    LOOP
        EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t.relname);
        EXECUTE format('DROP POLICY IF EXISTS user_isolation ON %I', t.relname);
        -- (SELECT …): evaluated once per query (an InitPlan), not once per row
        EXECUTE format(
            'CREATE POLICY user_isolation ON %I TO neuromem_service '
            'USING (user_id = (SELECT neuromem_scoped_user())) '
            'WITH CHECK (user_id = (SELECT neuromem_scoped_user()))', t.relname);
        n := n + 1;
    END LOOP;
    RETURN n;
END
$fn$;

-- Item 4. Raw chunks at rest are AES-GCM ciphertext under a key of their user (crypto-shredding):
-- forgetting everything of a user deletes the user's keys with the rest of the user's rows.
CREATE TABLE raw_chunk_keys (
    user_id    VARCHAR(255) NOT NULL,
    key_id     UUID NOT NULL,
    key        BYTEA NOT NULL,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, key_id)
);
ALTER TABLE raw_chunks ADD COLUMN key_id UUID;

-- A receipt records which relations held the forgotten rows and when they were rewritten on disk
-- (VACUUM FULL, checkpoint, WAL switch: neuromem.lifecycle.compaction).
ALTER TABLE forget_receipts ADD COLUMN relations TEXT[] NOT NULL DEFAULT '{}';
ALTER TABLE forget_receipts ADD COLUMN erased_at TIMESTAMPTZ;
CREATE INDEX idx_forget_receipts_pending ON forget_receipts (created_at) WHERE erased_at IS NULL;

SELECT neuromem_enable_rls();
