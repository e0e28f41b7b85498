-- Inbound channel messages (Telegram long polling): the next update each channel asks for, and
-- every update received, stored before the offset moves past it, so a restart neither loses an
-- update nor answers one twice.
CREATE TABLE channel_offsets (
    channel    TEXT PRIMARY KEY,
    next_seq   INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);

CREATE TABLE channel_inbox (
    channel     TEXT NOT NULL,
    seq         INTEGER NOT NULL,
    chat_id     TEXT NOT NULL,
    sender      TEXT,
    text        TEXT NOT NULL,
    -- received | running | replying | answered | refused | unknown
    status      TEXT NOT NULL,
    note        TEXT,
    received_at INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL,
    PRIMARY KEY (channel, seq)
);

CREATE INDEX channel_inbox_status ON channel_inbox (channel, status, seq);
