-- Settled messages reach the search indexes in batches instead of inside the commit that settles
-- them. Every FTS5 commit writes a new segment into each of the two indexes and now and then
-- merges segments, which made indexing the largest part of an agent turn's store work. A message
-- that settles is queued here; a background thread indexes the queue once writes pause, and a
-- search first indexes whatever is still queued, so it always sees every settled message.
--
-- A message is in the indexes exactly when it is not streaming and not in this queue.
CREATE TABLE messages_unindexed (
    id INTEGER PRIMARY KEY
);

DROP TRIGGER messages_index_insert;
DROP TRIGGER messages_index_delete;
DROP TRIGGER messages_index_update;

CREATE TRIGGER messages_index_insert AFTER INSERT ON messages
WHEN new.status != 'streaming' BEGIN
    INSERT INTO messages_unindexed (id) VALUES (new.id);
END;

CREATE TRIGGER messages_index_delete AFTER DELETE ON messages
WHEN old.status != 'streaming' BEGIN
    INSERT INTO messages_fts (messages_fts, rowid, words)
        SELECT 'delete', old.id, old.words
        WHERE NOT EXISTS (SELECT 1 FROM messages_unindexed WHERE id = old.id);
    INSERT INTO messages_trigram (messages_trigram, rowid, text)
        SELECT 'delete', old.id, old.text
        WHERE NOT EXISTS (SELECT 1 FROM messages_unindexed WHERE id = old.id);
    DELETE FROM messages_unindexed WHERE id = old.id;
END;

-- One trigger, so its steps run in this order (SQLite gives no order between triggers): an
-- indexed old version leaves the indexes, then a settled new version joins the queue, or a row
-- streaming again leaves it. It acts when a settled row's text changes or a row starts or stops
-- streaming.
CREATE TRIGGER messages_index_update AFTER UPDATE OF words, text, status ON messages
WHEN (old.status != 'streaming' OR new.status != 'streaming')
    AND ((old.status = 'streaming') != (new.status = 'streaming')
        OR new.words IS NOT old.words OR new.text IS NOT old.text) BEGIN
    INSERT INTO messages_fts (messages_fts, rowid, words)
        SELECT 'delete', old.id, old.words
        WHERE old.status != 'streaming'
            AND NOT EXISTS (SELECT 1 FROM messages_unindexed WHERE id = old.id);
    INSERT INTO messages_trigram (messages_trigram, rowid, text)
        SELECT 'delete', old.id, old.text
        WHERE old.status != 'streaming'
            AND NOT EXISTS (SELECT 1 FROM messages_unindexed WHERE id = old.id);
    INSERT OR IGNORE INTO messages_unindexed (id)
        SELECT new.id WHERE new.status != 'streaming';
    DELETE FROM messages_unindexed WHERE id = new.id AND new.status = 'streaming';
END;
