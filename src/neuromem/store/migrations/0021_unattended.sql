-- 0021: memory that keeps itself (issue 27).
--
-- Item 2. An ingest with wait=False stores its batch here (one INSERT) and returns the job id;
-- extraction runs later (neuromem.ingest.async_jobs). A runner claims a queued job with
-- FOR UPDATE SKIP LOCKED and holds the row lock while it works, so a crashed runner's job is
-- simply queued again; the batch's turn keys make a second run skip what the first one stored.
CREATE TABLE ingest_jobs (
    id          UUID NOT NULL,
    user_id     VARCHAR(255) NOT NULL,
    session_id  VARCHAR(255) NOT NULL,
    payload     JSONB NOT NULL,
    status      VARCHAR(10) NOT NULL DEFAULT 'queued',
    attempts    INTEGER NOT NULL DEFAULT 0,
    result      JSONB,
    error       TEXT,
    created_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    started_at  TIMESTAMPTZ,
    finished_at TIMESTAMPTZ,
    PRIMARY KEY (user_id, id),  -- user_id first: a distributed (Citus) table keys on it
    CONSTRAINT chk_ingest_job_status CHECK (status IN ('queued', 'done', 'failed'))
);
CREATE INDEX idx_ingest_jobs_queued ON ingest_jobs (created_at) WHERE status = 'queued';
CREATE INDEX idx_ingest_jobs_user ON ingest_jobs (user_id, created_at);

-- Item 5. A trait the user deleted stays deleted: the deletion leaves a suppression entry (its theme
-- keywords and the memories that supported it). Reflection forms no trait of that theme again
-- from those memories; only supporting memories stored after the deletion count, and only when
-- they outweigh (outnumber) the suppressed evidence is the entry lifted (neuromem.reflect.suppression).
CREATE TABLE trait_suppressions (
    id           UUID NOT NULL,
    user_id      VARCHAR(255) NOT NULL,
    trait_id     UUID NOT NULL,
    content      TEXT NOT NULL,
    keywords     TEXT[] NOT NULL DEFAULT '{}',
    evidence_ids UUID[] NOT NULL DEFAULT '{}',
    deleted_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
    lifted_at    TIMESTAMPTZ,
    PRIMARY KEY (user_id, id)
);
CREATE INDEX idx_trait_suppressions_user ON trait_suppressions (user_id) WHERE lifted_at IS NULL;

SELECT neuromem_enable_rls();
