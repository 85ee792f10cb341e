"""Scale-out on paper, checked in code (issue #15): can every user-owned table be distributed by
``user_id`` (Citus, colocated)? Citus requires every primary key and unique constraint of a
distributed table to contain the distribution column, and foreign keys between distributed
tables to include it on both sides. This test reads the catalog; the tables that do not follow
the rules yet are listed explicitly (and in docs/operations.md), so a new violation fails."""

from __future__ import annotations

import psycopg

KEYS_SQL = """
    SELECT c.relname AS table_name, con.conname, con.contype,
           array(SELECT a.attname FROM unnest(con.conkey) k JOIN pg_attribute a
                 ON a.attrelid = con.conrelid AND a.attnum = k)::text[] AS cols,
           CASE WHEN con.contype = 'f' THEN array(SELECT a.attname FROM unnest(con.confkey) k JOIN pg_attribute a
                 ON a.attrelid = con.confrelid AND a.attnum = k)::text[] END AS ref_cols
    FROM pg_constraint con JOIN pg_class c ON c.oid = con.conrelid
    WHERE con.connamespace = 'public'::regnamespace AND con.contype IN ('p', 'u', 'f')
      AND NOT c.relispartition AND con.conparentid = 0
    UNION ALL
    SELECT t.relname, i.relname, 'i', array(SELECT a.attname FROM unnest(x.indkey) k JOIN pg_attribute a
                 ON a.attrelid = x.indrelid AND a.attnum = k)::text[], NULL
    FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
    WHERE t.relnamespace = 'public'::regnamespace AND x.indisunique AND NOT x.indisprimary
      AND NOT t.relispartition AND t.relkind IN ('r', 'p')
      AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid)
"""

USER_TABLES_SQL = """
    SELECT c.relname FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'user_id'
    WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p') AND NOT c.relispartition"""

# Known exceptions (docs/operations.md "Citus"): single-column UUIDv7 primary keys, globally unique
# by construction. Distributing these tables needs the key widened to (user_id, id) first.
KNOWN_EXCEPTIONS = {
    ("memories", "memories_pkey"),  # (id, memory_type): the partition key is required, user_id is not there
    ("memory_history", "memory_history_pkey"),
    ("reflection_cycles", "reflection_cycles_pkey"),
    ("conversation_sessions", "conversation_sessions_pkey"),
    ("conversation_messages", "conversation_messages_pkey"),
    # a message's session: FK (session_id) → conversation_sessions(id) and UNIQUE (session_id, seq)
    ("conversation_messages", "conversation_messages_session_id_fkey"),
    ("conversation_messages", "conversation_messages_session_id_seq_key"),
    ("graph_nodes", "graph_nodes_pkey"),
    ("graph_edges", "graph_edges_pkey"),
    ("document_files", "document_files_pkey"),
    ("model_usage", "model_usage_pkey"),
    ("pipeline_events", "pipeline_events_pkey"),
    ("trait_evidence", "trait_evidence_pkey"),
    ("memory_sources", "memory_sources_pkey"),
}


def violations(url: str) -> set[tuple[str, str]]:
    with psycopg.connect(url) as conn:
        user_tables = {r[0] for r in conn.execute(USER_TABLES_SQL).fetchall()}
        keys = conn.execute(KEYS_SQL).fetchall()
    bad = set()
    for table, name, kind, cols, ref_cols in keys:
        if table not in user_tables:
            continue
        if "user_id" not in cols or (kind == "f" and "user_id" not in (ref_cols or [])):
            bad.add((table, name))
    return bad


def test_user_owned_keys_include_the_distribution_column(db_url: str) -> None:
    found = violations(db_url)
    new = found - KNOWN_EXCEPTIONS
    assert not new, f"keys of user-owned tables without user_id (Citus cannot distribute them): {sorted(new)}"
    fixed = KNOWN_EXCEPTIONS - found
    assert not fixed, f"no longer violations — remove them from KNOWN_EXCEPTIONS and docs: {sorted(fixed)}"
    with psycopg.connect(db_url) as conn:
        compliant = conn.execute(
            "SELECT conname FROM pg_constraint WHERE conname IN ('raw_chunks_pkey', 'forget_receipts_pkey')"
        ).fetchall()
    assert len(compliant) == 2  # the content-addressed store and the receipts already comply
