-- 0002: conversations, raw chunks, graph, key-values, emotion profiles, documents, model usage
-- (seed 000 §2.6.4, §4.1, §7; seed 003 §3.0).

CREATE TABLE conversation_sessions (
    id                UUID PRIMARY KEY,
    user_id           VARCHAR(255) NOT NULL,
    external_id       VARCHAR(255) NOT NULL,
    started_at        TIMESTAMPTZ NOT NULL DEFAULT now(),
    last_message_at   TIMESTAMPTZ,
    ended_at          TIMESTAMPTZ,
    end_reason        VARCHAR(20),
    last_reflected_at TIMESTAMPTZ,
    message_count     INTEGER NOT NULL DEFAULT 0,
    metadata          JSONB NOT NULL DEFAULT '{}',
    UNIQUE (user_id, external_id)
);
CREATE INDEX idx_sessions_open ON conversation_sessions (user_id, last_message_at) WHERE ended_at IS NULL;

CREATE TABLE conversation_messages (
    id          UUID PRIMARY KEY,
    user_id     VARCHAR(255) NOT NULL,
    session_id  UUID NOT NULL REFERENCES conversation_sessions (id) ON DELETE CASCADE,
    seq         INTEGER NOT NULL,
    role        VARCHAR(20) NOT NULL,
    speaker     VARCHAR(255),
    content     TEXT NOT NULL,
    sent_at     TIMESTAMPTZ NOT NULL,
    content_hash VARCHAR(64) NOT NULL,
    raw_chunk_sha256 CHAR(64),
    metadata    JSONB NOT NULL DEFAULT '{}',
    created_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    UNIQUE (session_id, seq)
);
CREATE INDEX idx_messages_user ON conversation_messages (user_id, sent_at);

-- content-addressed immutable raw text (seed 003 §3.0)
CREATE TABLE raw_chunks (
    user_id      VARCHAR(255) NOT NULL,
    sha256       CHAR(64) NOT NULL,
    compression  VARCHAR(10) NOT NULL DEFAULT 'zstd',
    data         BYTEA,
    path         TEXT,
    size_bytes   INTEGER NOT NULL,
    search_tokens TEXT NOT NULL DEFAULT '',
    fts          tsvector GENERATED ALWAYS AS (to_tsvector('simple', search_tokens)) STORED,
    created_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
    last_accessed_at TIMESTAMPTZ,
    PRIMARY KEY (user_id, sha256),
    CONSTRAINT chk_raw_location CHECK (data IS NOT NULL OR path IS NOT NULL)
);
CREATE INDEX idx_raw_chunks_fts ON raw_chunks USING gin (fts);

-- entity graph with bitemporal edges (seed 000 §4.1, seed 003 §2.2)
CREATE TABLE graph_nodes (
    id              UUID PRIMARY KEY,
    user_id         VARCHAR(255) NOT NULL,
    node_type       VARCHAR(30) NOT NULL,
    name            TEXT NOT NULL,
    normalized_name TEXT NOT NULL,
    aliases         TEXT[] NOT NULL DEFAULT '{}',
    properties      JSONB NOT NULL DEFAULT '{}',
    mention_count   INTEGER NOT NULL DEFAULT 0,
    created_at      TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at      TIMESTAMPTZ,
    expired_at      TIMESTAMPTZ,
    UNIQUE (user_id, node_type, normalized_name)
);
CREATE INDEX idx_nodes_aliases ON graph_nodes USING gin (aliases);

CREATE TABLE graph_edges (
    id          UUID PRIMARY KEY,
    user_id     VARCHAR(255) NOT NULL,
    source_id   UUID NOT NULL,
    source_kind VARCHAR(10) NOT NULL,
    target_id   UUID NOT NULL,
    target_kind VARCHAR(10) NOT NULL,
    edge_type   VARCHAR(30) NOT NULL,
    weight      REAL NOT NULL DEFAULT 1.0,
    confidence  REAL NOT NULL DEFAULT 1.0,
    properties  JSONB NOT NULL DEFAULT '{}',
    valid_at    TIMESTAMPTZ,
    invalid_at  TIMESTAMPTZ,
    created_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    expired_at  TIMESTAMPTZ,
    CONSTRAINT chk_edge_kinds CHECK (source_kind IN ('memory', 'node') AND target_kind IN ('memory', 'node'))
);
CREATE INDEX idx_edges_source ON graph_edges (user_id, source_id) WHERE expired_at IS NULL;
CREATE INDEX idx_edges_target ON graph_edges (user_id, target_id) WHERE expired_at IS NULL;
CREATE INDEX idx_edges_type ON graph_edges (user_id, edge_type);
CREATE UNIQUE INDEX idx_edges_unique_current ON graph_edges (user_id, source_id, target_id, edge_type)
    WHERE expired_at IS NULL;

CREATE TABLE key_values (
    user_id    VARCHAR(255) NOT NULL,
    namespace  VARCHAR(100) NOT NULL,
    key        VARCHAR(255) NOT NULL,
    value      JSONB NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, namespace, key)
);

CREATE TABLE emotion_profiles (
    user_id          VARCHAR(255) PRIMARY KEY,
    valence_mean     REAL NOT NULL DEFAULT 0,
    arousal_mean     REAL NOT NULL DEFAULT 0,
    sample_count     INTEGER NOT NULL DEFAULT 0,
    emotion_triggers JSONB NOT NULL DEFAULT '{}',
    updated_at       TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE TABLE document_files (
    id          UUID PRIMARY KEY,
    user_id     VARCHAR(255) NOT NULL,
    file_name   TEXT NOT NULL,
    mime_type   VARCHAR(100) NOT NULL DEFAULT 'text/plain',
    size_bytes  INTEGER NOT NULL,
    sha256      CHAR(64) NOT NULL,
    chunk_count INTEGER NOT NULL DEFAULT 0,
    metadata    JSONB NOT NULL DEFAULT '{}',
    created_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    deleted_at  TIMESTAMPTZ
);
CREATE INDEX idx_document_files_user ON document_files (user_id, created_at DESC);

-- token usage and latency of model calls, per user and operation
CREATE TABLE model_usage (
    id                UUID PRIMARY KEY,
    user_id           VARCHAR(255) NOT NULL,
    operation         VARCHAR(50) NOT NULL,
    model             VARCHAR(255) NOT NULL,
    prompt_tokens     INTEGER NOT NULL DEFAULT 0,
    completion_tokens INTEGER NOT NULL DEFAULT 0,
    latency_ms        REAL NOT NULL DEFAULT 0,
    ok                BOOLEAN NOT NULL,
    error             TEXT,
    created_at        TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX idx_model_usage_user ON model_usage (user_id, operation, created_at DESC);

-- pipeline events worth keeping: extraction fallbacks, dropped candidates, job runs
CREATE TABLE pipeline_events (
    id         UUID PRIMARY KEY,
    user_id    VARCHAR(255) NOT NULL,
    kind       VARCHAR(50) NOT NULL,
    detail     JSONB NOT NULL DEFAULT '{}',
    created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX idx_pipeline_events_user ON pipeline_events (user_id, kind, created_at DESC);
