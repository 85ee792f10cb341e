-- 0009: isolation enforced by PostgreSQL (issue #15, seed 003 §8) and the service's API keys.
--
-- The service (`memctl serve`, `memctl mcp`) runs each request's transactions as the role
-- neuromem_service (no BYPASSRLS, not the owner of any table) with `SET LOCAL ROLE` and the
-- request's scoped user in `neuromem.user_id` (set_config(..., true)): neuromem.store.scope.
-- Every table with a user_id column (partitions included: PostgreSQL applies a partition's own
-- policies when it is queried directly) gets the policy `user_isolation`, so a query that
-- forgets its `user_id = %s` predicate still sees only that user's rows. The owner (the
-- in-process SDK, migrations, cross-user maintenance jobs) is not subject to the policies.
-- A later migration that adds a user-owned table calls `SELECT neuromem_enable_rls();`.

DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'neuromem_service') THEN
        CREATE ROLE neuromem_service NOLOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE;
    END IF;
EXCEPTION WHEN duplicate_object OR unique_violation THEN
    NULL;  -- created by a concurrent migration of another database of the same cluster
END $$;

DO $$
BEGIN
    IF NOT pg_has_role(current_user, 'neuromem_service', 'MEMBER') THEN
        EXECUTE format('GRANT neuromem_service TO %I', current_user);
    END IF;
END $$;

-- API keys of the service: stored as SHA-256 of a 256-bit random secret, shown once.
-- A key belongs to a tenant, has a scope (read < write < admin) and may be bound to one user.
CREATE TABLE api_keys (
    id            UUID PRIMARY KEY,
    tenant        VARCHAR(64) NOT NULL,
    name          VARCHAR(255) NOT NULL DEFAULT '',
    scope         VARCHAR(10) NOT NULL,
    bound_user    VARCHAR(255),
    secret_sha256 BYTEA NOT NULL,
    created_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
    last_used_at  TIMESTAMPTZ,
    revoked_at    TIMESTAMPTZ,
    CONSTRAINT chk_api_key_scope CHECK (scope IN ('read', 'write', 'admin'))
);
CREATE INDEX idx_api_keys_tenant ON api_keys (tenant, created_at DESC);

CREATE FUNCTION neuromem_enable_rls() RETURNS integer LANGUAGE plpgsql AS $fn$
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
        IF NOT EXISTS (SELECT 1 FROM pg_policies
                       WHERE schemaname = 'public' AND tablename = t.relname AND policyname = 'user_isolation') THEN
            EXECUTE format(
                'CREATE POLICY user_isolation ON %I TO neuromem_service '
                'USING (user_id = current_setting(''neuromem.user_id'', true)) '
                'WITH CHECK (user_id = current_setting(''neuromem.user_id'', true))', t.relname);
        END IF;
        n := n + 1;
    END LOOP;
    RETURN n;
END
$fn$;

SELECT neuromem_enable_rls();

GRANT USAGE ON SCHEMA public TO neuromem_service;
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO neuromem_service;
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO neuromem_service;
-- the key table and the migration bookkeeping are the owner's alone
REVOKE ALL ON api_keys, neuromem_migrations, neuromem_meta FROM neuromem_service;
