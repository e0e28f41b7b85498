-- Which process runs a turn in a session, so that the app and hearth-cli never run two turns
-- in one session at once. A row whose owner process has ended is stale and may be taken over.
CREATE TABLE running_turns (
    session_id TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    started_at INTEGER NOT NULL
);
