-- Scheduled jobs, their run history, the scheduler's lease (its heartbeat) and the log of OS
-- notifications that the rolling-hour rate limit counts. Written with IF NOT EXISTS so that it
-- stays harmless if migration numbering shifts while 0002 lands.

CREATE TABLE IF NOT EXISTS jobs (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL UNIQUE COLLATE NOCASE,
    schedule TEXT NOT NULL,          -- canonical JSON: {"type":"at"|"every"|"cron", ...}
    tz TEXT NOT NULL,                -- IANA zone the schedule is read in
    prompt TEXT NOT NULL,
    target TEXT,                     -- session id or <channel>:<chat_id>
    model TEXT,
    enabled INTEGER NOT NULL DEFAULT 1,
    notify INTEGER NOT NULL DEFAULT 1,
    auth_hash TEXT,                  -- sha256 of what the user approved
    auth_tools TEXT,                 -- JSON array of the high-risk tools approved
    authorized_at INTEGER,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    last_run_at INTEGER,
    next_run_at INTEGER,
    run_requested_at INTEGER         -- a "run now" waiting for the runner
);

CREATE INDEX IF NOT EXISTS jobs_due ON jobs (enabled, next_run_at);

CREATE TABLE IF NOT EXISTS job_runs (
    id INTEGER PRIMARY KEY,
    job_id TEXT NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
    scheduled_for INTEGER,
    started_at INTEGER NOT NULL,
    finished_at INTEGER,
    status TEXT NOT NULL CHECK (status IN ('running', 'ok', 'failed', 'skipped_overlap')),
    catch_up INTEGER NOT NULL DEFAULT 0,
    manual INTEGER NOT NULL DEFAULT 0,
    authorized INTEGER NOT NULL DEFAULT 0,
    output TEXT,
    error TEXT
);

CREATE INDEX IF NOT EXISTS job_runs_by_job ON job_runs (job_id, id);
-- A job never has two runs in progress.
CREATE UNIQUE INDEX IF NOT EXISTS job_runs_one_running ON job_runs (job_id) WHERE status = 'running';

CREATE TABLE IF NOT EXISTS scheduler_lease (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    owner TEXT NOT NULL,
    pid INTEGER NOT NULL,
    started_at INTEGER NOT NULL,
    beat_at INTEGER NOT NULL
);

CREATE TABLE IF NOT EXISTS notification_log (
    id INTEGER PRIMARY KEY,
    title TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'failed', 'rate_limited')),
    os_id TEXT,
    error TEXT
);

CREATE INDEX IF NOT EXISTS notification_log_by_time ON notification_log (created_at);
