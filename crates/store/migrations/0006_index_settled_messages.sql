-- A reply enters the search indexes when it stops streaming, not before. A streaming row is
-- rewritten at every flush, and re-indexing its whole growing text each time (twice: words and
-- trigrams) was the largest cost of a turn. A row is indexed exactly when its status is not
-- 'streaming'; rows streaming now leave the indexes here.

INSERT INTO messages_fts (messages_fts, rowid, words)
    SELECT 'delete', id, words FROM messages WHERE status = 'streaming';
INSERT INTO messages_trigram (messages_trigram, rowid, text)
    SELECT 'delete', id, text FROM messages WHERE status = 'streaming';

DROP TRIGGER messages_index_insert;
DROP TRIGGER messages_index_delete;
DROP TRIGGER messages_index_update_words;
DROP TRIGGER messages_index_update_text;

CREATE TRIGGER messages_index_insert AFTER INSERT ON messages
WHEN new.status != 'streaming' BEGIN
    INSERT INTO messages_fts (rowid, words) VALUES (new.id, new.words);
    INSERT INTO messages_trigram (rowid, text) VALUES (new.id, new.text);
END;

CREATE TRIGGER messages_index_delete AFTER DELETE ON messages
WHEN old.status != 'streaming' BEGIN
    INSERT INTO messages_fts (messages_fts, rowid, words) VALUES ('delete', old.id, old.words);
    INSERT INTO messages_trigram (messages_trigram, rowid, text) VALUES ('delete', old.id, old.text);
END;

-- One trigger, so the old entry always leaves before the new one enters (SQLite gives no order
-- between triggers). It acts when an indexed row's text changes or a row starts or stops
-- streaming.
CREATE TRIGGER messages_index_update AFTER UPDATE OF words, text, status ON messages
WHEN (old.status != 'streaming' OR new.status != 'streaming')
    AND ((old.status = 'streaming') != (new.status = 'streaming')
        OR new.words IS NOT old.words OR new.text IS NOT old.text) BEGIN
    INSERT INTO messages_fts (messages_fts, rowid, words)
        SELECT 'delete', old.id, old.words WHERE old.status != 'streaming';
    INSERT INTO messages_trigram (messages_trigram, rowid, text)
        SELECT 'delete', old.id, old.text WHERE old.status != 'streaming';
    INSERT INTO messages_fts (rowid, words)
        SELECT new.id, new.words WHERE new.status != 'streaming';
    INSERT INTO messages_trigram (rowid, text)
        SELECT new.id, new.text WHERE new.status != 'streaming';
END;
