-- The process streaming a message, as `pid:start-time`, so start-up recovery interrupts only
-- replies whose process is gone (the app and `hearth-cli daemon` may stream at the same time).
ALTER TABLE messages ADD COLUMN owner TEXT;
