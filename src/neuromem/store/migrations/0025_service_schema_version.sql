-- 0025: the schema version for the service role (issue 26 item 4). An export names the schema version
-- in its header; over REST it runs as neuromem_service, which may not read neuromem_migrations (the
-- owner's alone, 0009). This function answers the version and nothing else.
CREATE FUNCTION neuromem_schema_version() RETURNS integer
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
    SELECT coalesce(max(version), 0) FROM public.neuromem_migrations
$fn$;
REVOKE ALL ON FUNCTION neuromem_schema_version() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION neuromem_schema_version() TO neuromem_service;
