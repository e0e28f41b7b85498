-- Hearth store, schema version 1: sessions, messages (+ two FTS5 indexes kept in sync by
-- triggers) and the tool-approval audit log.

CREATE TABLE sessions (
    id           TEXT PRIMARY KEY NOT NULL,
    title        TEXT NOT NULL,
    model        TEXT,
    workspace    TEXT,
    tool_profile TEXT NOT NULL,
    pinned       INTEGER NOT NULL DEFAULT 0 CHECK (pinned IN (0, 1)),
    created_at   INTEGER NOT NULL,
    -- Last conversation activity (messages, touches), in unix milliseconds.
    updated_at   INTEGER NOT NULL
) STRICT;

CREATE INDEX sessions_by_activity ON sessions (pinned DESC, updated_at DESC);

CREATE TABLE messages (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id      TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    role            TEXT NOT NULL CHECK (role IN ('system', 'user', 'assistant', 'tool')),
    kind            TEXT NOT NULL CHECK (kind IN ('normal', 'summary')),
    -- JSON array of ContentPart.
    content         TEXT NOT NULL CHECK (json_valid(content)),
    -- JSON array of ToolCall.
    tool_calls      TEXT NOT NULL CHECK (json_valid(tool_calls)),
    -- JSON ToolResult, for tool messages.
    tool_result     TEXT CHECK (tool_result IS NULL OR json_valid(tool_result)),
    status          TEXT NOT NULL
                    CHECK (status IN ('complete', 'streaming', 'interrupted', 'failed')),
    model           TEXT,
    -- JSON Usage.
    usage           TEXT CHECK (usage IS NULL OR json_valid(usage)),
    error           TEXT,
    summary_through INTEGER,
    -- The searchable text: content text, tool call names and arguments, tool result content.
    text            TEXT NOT NULL,
    -- `text` with U+200B between a CJK character and its neighbours, so the unicode61 word
    -- index sees every ideograph as a token and a CJK query becomes an exact phrase.
    words           TEXT NOT NULL,
    created_at      INTEGER NOT NULL,
    updated_at      INTEGER NOT NULL
) STRICT;

CREATE INDEX messages_by_session ON messages (session_id, id);
CREATE INDEX messages_streaming ON messages (status) WHERE status = 'streaming';
CREATE INDEX messages_summaries ON messages (session_id, id) WHERE kind = 'summary';

-- Whole words (English and other spaced scripts) and CJK characters.
CREATE VIRTUAL TABLE messages_fts USING fts5 (
    words,
    content = 'messages',
    content_rowid = 'id',
    tokenize = 'unicode61 remove_diacritics 2'
);

-- Substrings of three characters or more.
CREATE VIRTUAL TABLE messages_trigram USING fts5 (
    text,
    content = 'messages',
    content_rowid = 'id',
    tokenize = 'trigram'
);

CREATE TRIGGER messages_index_insert AFTER INSERT ON messages BEGIN
    INSERT INTO messages_fts (rowid, words) VALUES (new.id, new.words);
    INSERT INTO messages_trigram (rowid, text) VALUES (new.id, new.text);
END;

CREATE TRIGGER messages_index_delete AFTER DELETE ON messages BEGIN
    INSERT INTO messages_fts (messages_fts, rowid, words) VALUES ('delete', old.id, old.words);
    INSERT INTO messages_trigram (messages_trigram, rowid, text) VALUES ('delete', old.id, old.text);
END;

CREATE TRIGGER messages_index_update_words AFTER UPDATE OF words ON messages BEGIN
    INSERT INTO messages_fts (messages_fts, rowid, words) VALUES ('delete', old.id, old.words);
    INSERT INTO messages_fts (rowid, words) VALUES (new.id, new.words);
END;

CREATE TRIGGER messages_index_update_text AFTER UPDATE OF text ON messages BEGIN
    INSERT INTO messages_trigram (messages_trigram, rowid, text) VALUES ('delete', old.id, old.text);
    INSERT INTO messages_trigram (rowid, text) VALUES (new.id, new.text);
END;

-- Every tool-approval decision. Kept when its session is deleted.
CREATE TABLE audit_log (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id TEXT,
    tool       TEXT NOT NULL,
    -- The call's arguments as the model wrote them (JSON text, possibly malformed).
    arguments  TEXT NOT NULL,
    decision   TEXT NOT NULL CHECK (decision IN ('allow', 'deny', 'ask')),
    reason     TEXT,
    actor      TEXT NOT NULL,
    created_at INTEGER NOT NULL
) STRICT;
