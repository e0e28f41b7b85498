-- A job bound to a skill: its runs are skill runs (the skill's instructions, dialect and
-- declared permissions). NULL for ordinary jobs.
ALTER TABLE jobs ADD COLUMN skill TEXT;
