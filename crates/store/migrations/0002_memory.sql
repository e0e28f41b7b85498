-- Hearth store, schema version 2: long-term memories (+ word and trigram FTS5 indexes kept in
-- sync by triggers), contradictions between memories, and session summaries (+ indexes) for
-- timeline recall.

CREATE TABLE memories (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    -- Optional unique name; `add` with an existing key overwrites that memory.
    key        TEXT UNIQUE CHECK (key IS NULL OR length(key) BETWEEN 1 AND 200),
    content    TEXT NOT NULL CHECK (length(content) BETWEEN 1 AND 10000),
    -- JSON array of lower-case tag strings.
    tags       TEXT NOT NULL CHECK (json_valid(tags) AND json_type(tags) = 'array'),
    importance REAL NOT NULL CHECK (importance BETWEEN 0.0 AND 1.0),
    pinned     INTEGER NOT NULL CHECK (pinned IN (0, 1)),
    source     TEXT NOT NULL CHECK (source IN ('user_stated', 'model_inferred')),
    target     TEXT NOT NULL CHECK (target IN ('user', 'environment')),
    category   TEXT NOT NULL CHECK (length(category) BETWEEN 1 AND 64),
    -- `pending`: a model-inferred memory held back because it contradicts a user-stated one
    -- (the `memory_b` of an open contradiction with `held_back`); it stays out of searches and
    -- the system prompt until that is resolved.
    state      TEXT NOT NULL CHECK (state IN ('active', 'pending')),
    -- The searchable text: content, key and tags, one per line.
    text       TEXT NOT NULL,
    -- `text` with U+200B around CJK characters (see the messages table).
    words      TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    -- When the content was last written, in unix milliseconds.
    updated_at INTEGER NOT NULL
) STRICT;

CREATE INDEX memories_by_rank ON memories (state, pinned DESC, updated_at DESC);

CREATE VIRTUAL TABLE memories_fts USING fts5 (
    words,
    content = 'memories',
    content_rowid = 'id',
    tokenize = 'unicode61 remove_diacritics 2'
);

CREATE VIRTUAL TABLE memories_trigram USING fts5 (
    text,
    content = 'memories',
    content_rowid = 'id',
    tokenize = 'trigram'
);

CREATE TRIGGER memories_index_insert AFTER INSERT ON memories BEGIN
    INSERT INTO memories_fts (rowid, words) VALUES (new.id, new.words);
    INSERT INTO memories_trigram (rowid, text) VALUES (new.id, new.text);
END;

CREATE TRIGGER memories_index_delete AFTER DELETE ON memories BEGIN
    INSERT INTO memories_fts (memories_fts, rowid, words) VALUES ('delete', old.id, old.words);
    INSERT INTO memories_trigram (memories_trigram, rowid, text) VALUES ('delete', old.id, old.text);
END;

CREATE TRIGGER memories_index_update AFTER UPDATE OF words, text ON memories BEGIN
    INSERT INTO memories_fts (memories_fts, rowid, words) VALUES ('delete', old.id, old.words);
    INSERT INTO memories_fts (rowid, words) VALUES (new.id, new.words);
    INSERT INTO memories_trigram (memories_trigram, rowid, text) VALUES ('delete', old.id, old.text);
    INSERT INTO memories_trigram (rowid, text) VALUES (new.id, new.text);
END;

-- Two memories that disagree. The loser of a resolution is deleted, so the sides are plain ids
-- with a snapshot of their content, not foreign keys.
CREATE TABLE memory_contradictions (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    -- The memory that was there first, and the newcomer.
    memory_a    INTEGER NOT NULL,
    memory_b    INTEGER NOT NULL,
    content_a   TEXT NOT NULL,
    content_b   TEXT NOT NULL,
    reason      TEXT NOT NULL,
    -- 1 when memory_b was held back (`pending`) because memory_a outranks it.
    held_back   INTEGER NOT NULL CHECK (held_back IN (0, 1)),
    status      TEXT NOT NULL CHECK (status IN ('open', 'resolved')),
    winner_id   INTEGER,
    created_at  INTEGER NOT NULL,
    resolved_at INTEGER,
    CHECK ((status = 'open') = (winner_id IS NULL AND resolved_at IS NULL)),
    CHECK (winner_id IS NULL OR winner_id IN (memory_a, memory_b))
) STRICT;

CREATE INDEX memory_contradictions_by_status ON memory_contradictions (status, id);
CREATE INDEX memory_contradictions_open_a ON memory_contradictions (memory_a) WHERE status = 'open';
CREATE INDEX memory_contradictions_open_b ON memory_contradictions (memory_b) WHERE status = 'open';

-- Compressed summaries of past conversation, written when a session is compacted or goes idle.
CREATE TABLE session_summaries (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id      TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    summary         TEXT NOT NULL CHECK (length(summary) >= 1),
    -- The first and last message the summary covers.
    from_message_id INTEGER NOT NULL,
    to_message_id   INTEGER NOT NULL CHECK (to_message_id >= from_message_id),
    words           TEXT NOT NULL,
    created_at      INTEGER NOT NULL
) STRICT;

CREATE INDEX session_summaries_by_session ON session_summaries (session_id, id);

CREATE VIRTUAL TABLE session_summaries_fts USING fts5 (
    words,
    content = 'session_summaries',
    content_rowid = 'id',
    tokenize = 'unicode61 remove_diacritics 2'
);

CREATE VIRTUAL TABLE session_summaries_trigram USING fts5 (
    summary,
    content = 'session_summaries',
    content_rowid = 'id',
    tokenize = 'trigram'
);

CREATE TRIGGER session_summaries_index_insert AFTER INSERT ON session_summaries BEGIN
    INSERT INTO session_summaries_fts (rowid, words) VALUES (new.id, new.words);
    INSERT INTO session_summaries_trigram (rowid, summary) VALUES (new.id, new.summary);
END;

CREATE TRIGGER session_summaries_index_delete AFTER DELETE ON session_summaries BEGIN
    INSERT INTO session_summaries_fts (session_summaries_fts, rowid, words)
        VALUES ('delete', old.id, old.words);
    INSERT INTO session_summaries_trigram (session_summaries_trigram, rowid, summary)
        VALUES ('delete', old.id, old.summary);
END;
