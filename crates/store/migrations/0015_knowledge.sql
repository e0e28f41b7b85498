-- The knowledge base: files of the user's knowledge folders and their chunks, with a word
-- index (CJK as character pairs, see the messages table) and a trigram index for BM25 search.

CREATE TABLE knowledge_files (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    -- The knowledge folder the file is in, and its absolute path.
    folder     TEXT NOT NULL,
    path       TEXT NOT NULL UNIQUE,
    size       INTEGER NOT NULL,
    -- Modification time in unix milliseconds, and the SHA-256 of the content (hex).
    mtime      INTEGER NOT NULL,
    sha256     TEXT NOT NULL,
    chunks     INTEGER NOT NULL,
    -- Why the file could not be read (it then has no chunks); NULL when it was indexed.
    error      TEXT,
    indexed_at INTEGER NOT NULL
) STRICT;

CREATE INDEX knowledge_files_by_folder ON knowledge_files (folder);

CREATE TABLE knowledge_chunks (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    file_id    INTEGER NOT NULL REFERENCES knowledge_files (id) ON DELETE CASCADE,
    -- `page`, `slide`, `sheet` or `line`, and the range [first, last] the chunk covers.
    unit       TEXT NOT NULL CHECK (unit IN ('page', 'slide', 'sheet', 'line')),
    first      INTEGER NOT NULL,
    last       INTEGER NOT NULL CHECK (last >= first),
    -- The sheet's name, for sheets.
    label      TEXT,
    text       TEXT NOT NULL,
    words      TEXT NOT NULL
) STRICT;

CREATE INDEX knowledge_chunks_by_file ON knowledge_chunks (file_id);

CREATE VIRTUAL TABLE knowledge_chunks_fts USING fts5 (
    words,
    content = 'knowledge_chunks',
    content_rowid = 'id',
    tokenize = 'unicode61 remove_diacritics 2'
);

CREATE VIRTUAL TABLE knowledge_chunks_trigram USING fts5 (
    text,
    content = 'knowledge_chunks',
    content_rowid = 'id',
    tokenize = 'trigram'
);

CREATE TRIGGER knowledge_chunks_index_insert AFTER INSERT ON knowledge_chunks BEGIN
    INSERT INTO knowledge_chunks_fts (rowid, words) VALUES (new.id, new.words);
    INSERT INTO knowledge_chunks_trigram (rowid, text) VALUES (new.id, new.text);
END;

CREATE TRIGGER knowledge_chunks_index_delete AFTER DELETE ON knowledge_chunks BEGIN
    INSERT INTO knowledge_chunks_fts (knowledge_chunks_fts, rowid, words)
        VALUES ('delete', old.id, old.words);
    INSERT INTO knowledge_chunks_trigram (knowledge_chunks_trigram, rowid, text)
        VALUES ('delete', old.id, old.text);
END;
