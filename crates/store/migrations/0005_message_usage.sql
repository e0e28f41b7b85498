-- The token usage of a session's replies, so the chat window's page of newest messages can sum
-- the usage of everything older without reading every message row.
CREATE INDEX messages_usage ON messages (session_id, id, usage) WHERE usage IS NOT NULL;
