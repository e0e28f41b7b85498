//! Tasks with a lifecycle: a row per task holding its status, result or error, and how many
//! times it was tried.

use rusqlite::{params, Connection, Row as SqlRow};
use serde::{Deserialize, Serialize};

use super::{parse_status, Row};
use crate::{Result, Store};

/// Where a task stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TaskStatus {
    Pending,
    Running,
    Completed,
    Failed,
    Cancelled,
}

impl TaskStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Pending => "pending",
            Self::Running => "running",
            Self::Completed => "completed",
            Self::Failed => "failed",
            Self::Cancelled => "cancelled",
        }
    }
}

/// A stored task.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PlanTask {
    pub id: i64,
    /// The session that created it.
    pub session_id: String,
    pub title: String,
    pub description: Option<String>,
    /// Higher comes first.
    pub priority: i64,
    pub status: TaskStatus,
    pub result: Option<String>,
    pub error: Option<String>,
    pub workflow_id: Option<i64>,
    /// How many times it was started.
    pub attempts: u32,
    /// Unix milliseconds.
    pub created_at: i64,
    pub updated_at: i64,
}

/// A task to create (it starts `pending`).
#[derive(Debug, Clone)]
pub struct NewPlanTask {
    pub session_id: String,
    pub title: String,
    pub description: Option<String>,
    pub priority: i64,
    pub workflow_id: Option<i64>,
}

const COLUMNS: &str = "id, session_id, title, description, priority, status, result, error, \
                       workflow_id, attempts, created_at, updated_at";

fn from_row(row: &SqlRow<'_>) -> rusqlite::Result<PlanTask> {
    Ok(PlanTask {
        id: row.get("id")?,
        session_id: row.get("session_id")?,
        title: row.get("title")?,
        description: row.get("description")?,
        priority: row.get("priority")?,
        status: parse_status(row.get("status")?)?,
        result: row.get("result")?,
        error: row.get("error")?,
        workflow_id: row.get("workflow_id")?,
        attempts: row.get("attempts")?,
        created_at: row.get("created_at")?,
        updated_at: row.get("updated_at")?,
    })
}

impl Row for PlanTask {
    const TABLE: &'static str = "plan_tasks";
    const COLUMNS: &'static str = COLUMNS;
    const WHAT: &'static str = "task";

    fn from_row(row: &SqlRow<'_>) -> rusqlite::Result<PlanTask> {
        from_row(row)
    }

    fn save(&self, conn: &Connection, now: i64) -> Result<()> {
        conn.prepare_cached(
            "UPDATE plan_tasks SET title = ?2, description = ?3, priority = ?4, status = ?5, \
             result = ?6, error = ?7, workflow_id = ?8, attempts = ?9, updated_at = ?10 \
             WHERE id = ?1",
        )?
        .execute(params![
            self.id,
            self.title,
            self.description,
            self.priority,
            self.status.as_str(),
            self.result,
            self.error,
            self.workflow_id,
            self.attempts,
            now
        ])?;
        Ok(())
    }
}

impl Store {
    /// Stores a new `pending` task.
    pub fn insert_plan_task(&self, task: &NewPlanTask) -> Result<PlanTask> {
        let conn = self.conn();
        let now = self.now_ms();
        conn.prepare_cached(
            "INSERT INTO plan_tasks (session_id, title, description, priority, status, \
             workflow_id, attempts, created_at, updated_at) \
             VALUES (?1, ?2, ?3, ?4, 'pending', ?5, 0, ?6, ?6)",
        )?
        .execute(params![
            task.session_id,
            task.title,
            task.description,
            task.priority,
            task.workflow_id,
            now
        ])?;
        let id = conn.last_insert_rowid();
        PlanTask::load(&conn, id)?.ok_or_else(|| crate::StoreError::not_found("task", id))
    }

    pub fn plan_task(&self, id: i64) -> Result<Option<PlanTask>> {
        PlanTask::load(&self.conn(), id)
    }

    /// Tasks (of one status, or all), highest priority first, then oldest first; at most
    /// [`MAX_PLAN_ROWS`](super::MAX_PLAN_ROWS).
    pub fn list_plan_tasks(&self, status: Option<TaskStatus>) -> Result<Vec<PlanTask>> {
        PlanTask::list(
            &self.conn(),
            status.map(TaskStatus::as_str),
            "priority DESC, id",
        )
    }

    /// Applies `change` to task `id` in one transaction (see the module's rules).
    pub fn change_plan_task<E: From<crate::StoreError>>(
        &self,
        id: i64,
        change: impl FnOnce(PlanTask) -> Result<PlanTask, E>,
    ) -> Result<PlanTask, E> {
        self.change_row(id, change)
    }
}
