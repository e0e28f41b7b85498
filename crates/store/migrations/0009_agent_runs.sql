-- Sub-agent runs: one row per child agent, written before the child starts and ended with the
-- status the runtime saw (never the child's own words). A row left `running` by a process that
-- has ended becomes `interrupted` at the next start.
CREATE TABLE agent_runs (
    -- Also the child session's id after `task:`.
    id                TEXT PRIMARY KEY NOT NULL,
    parent_session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    session_id        TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    goal              TEXT NOT NULL,
    mode              TEXT NOT NULL CHECK (mode IN ('inline', 'parallel', 'background')),
    -- The persona (`[[agents]]` name) the child runs as, if any.
    agent             TEXT,
    model             TEXT NOT NULL,
    -- JSON array of the tool names the child was given.
    tools             TEXT NOT NULL CHECK (json_valid(tools)),
    max_iterations    INTEGER NOT NULL,
    timeout_secs      INTEGER NOT NULL,
    status            TEXT NOT NULL CHECK (status IN
                      ('running', 'completed', 'failed', 'timeout', 'cancelled', 'interrupted')),
    -- What the child produced (its answer, or its partial output when it did not finish).
    result            TEXT NOT NULL DEFAULT '',
    error             TEXT,
    iterations        INTEGER NOT NULL DEFAULT 0,
    input_tokens      INTEGER NOT NULL DEFAULT 0,
    output_tokens     INTEGER NOT NULL DEFAULT 0,
    -- The process running the child (`pid:start-time`).
    owner             TEXT NOT NULL,
    -- Set by another process (`hearth-cli tasks cancel`); the owner cancels the child.
    cancel_requested  INTEGER NOT NULL DEFAULT 0 CHECK (cancel_requested IN (0, 1)),
    created_at        INTEGER NOT NULL,
    finished_at       INTEGER
) STRICT;

CREATE INDEX agent_runs_by_parent ON agent_runs (parent_session_id, created_at);
CREATE INDEX agent_runs_running ON agent_runs (status) WHERE status = 'running';
