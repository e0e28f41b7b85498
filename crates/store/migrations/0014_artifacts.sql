-- Artifacts: long deliverables a model writes in numbered chunks into a per-session namespace
-- (`<data dir>/artifacts/`). The rows are the ledger; the bytes live in the artifact's file.

CREATE TABLE artifacts (
    -- Opaque (`art_` + 32 hex digits); the only handle the model gets.
    id           TEXT PRIMARY KEY,
    session_id   TEXT NOT NULL,
    filename     TEXT NOT NULL CHECK (length(filename) BETWEEN 1 AND 200),
    title        TEXT NOT NULL,
    state        TEXT NOT NULL CHECK (state IN ('open', 'final')),
    -- Bytes written so far (the offset the next chunk starts at) and chunks appended.
    bytes        INTEGER NOT NULL CHECK (bytes >= 0),
    chunks       INTEGER NOT NULL CHECK (chunks >= 0),
    created_at   INTEGER NOT NULL,
    finalized_at INTEGER,
    CHECK ((state = 'final') = (finalized_at IS NOT NULL))
) STRICT;

CREATE INDEX artifacts_by_session ON artifacts (session_id, created_at);

-- One appended chunk: where it starts and a hash of its content, so a retry of the same
-- sequence and content is recognised and other content at a used sequence refused.
CREATE TABLE artifact_chunks (
    artifact_id TEXT NOT NULL REFERENCES artifacts (id) ON DELETE CASCADE,
    sequence    INTEGER NOT NULL CHECK (sequence >= 0),
    start       INTEGER NOT NULL CHECK (start >= 0),
    bytes       INTEGER NOT NULL CHECK (bytes >= 0),
    sha256      TEXT NOT NULL,
    PRIMARY KEY (artifact_id, sequence)
) STRICT, WITHOUT ROWID;
