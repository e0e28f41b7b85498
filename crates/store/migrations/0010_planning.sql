-- Planning: each session's checklist (`todo`, its items as JSON, a revision per change), tasks
-- with a lifecycle (`task`) and workflows whose steps form a DAG (`workflow`, steps as JSON).
-- A checklist may belong to a session that is not stored (`hearth-cli tools call`'s): no foreign
-- key, but it goes with its session.
CREATE TABLE todo_lists (
    session_id TEXT PRIMARY KEY,
    revision INTEGER NOT NULL,
    next_id INTEGER NOT NULL,
    items TEXT NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE TRIGGER todo_lists_follow_sessions AFTER DELETE ON sessions BEGIN
    DELETE FROM todo_lists WHERE session_id = OLD.id;
END;

CREATE TABLE plan_tasks (
    id INTEGER PRIMARY KEY,
    session_id TEXT NOT NULL,
    title TEXT NOT NULL,
    description TEXT,
    priority INTEGER NOT NULL,
    status TEXT NOT NULL,
    result TEXT,
    error TEXT,
    workflow_id INTEGER,
    attempts INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE INDEX plan_tasks_by_status ON plan_tasks (status, priority DESC, id);

CREATE TABLE plan_workflows (
    id INTEGER PRIMARY KEY,
    session_id TEXT NOT NULL,
    name TEXT NOT NULL,
    description TEXT,
    status TEXT NOT NULL,
    steps TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE INDEX plan_workflows_by_status ON plan_workflows (status, id);
