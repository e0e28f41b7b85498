-- The typed error (`AppError` as JSON: code and params) next to the English text of a failed
-- reply or job run, so each viewer reads it in their own language. Old rows keep only the text.
ALTER TABLE messages ADD COLUMN error_code TEXT;
ALTER TABLE job_runs ADD COLUMN error_code TEXT;
