//! Workflows: a row per workflow with its status and its steps (a DAG) as JSON.

use rusqlite::{params, Connection, Row as SqlRow};
use serde::{Deserialize, Serialize};

use super::{parse_status, Row};
use crate::{Result, Store, StoreError};

/// Where a workflow stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WorkflowStatus {
    Created,
    Running,
    Paused,
    Completed,
    Cancelled,
}

impl WorkflowStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Created => "created",
            Self::Running => "running",
            Self::Paused => "paused",
            Self::Completed => "completed",
            Self::Cancelled => "cancelled",
        }
    }
}

/// One step: done once advanced past.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WorkflowStep {
    pub id: String,
    pub title: String,
    #[serde(default)]
    pub depends_on: Vec<String>,
    /// Unix milliseconds when it was marked done.
    #[serde(default)]
    pub done_at: Option<i64>,
}

/// A stored workflow.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Workflow {
    pub id: i64,
    pub session_id: String,
    pub name: String,
    pub description: Option<String>,
    pub status: WorkflowStatus,
    pub steps: Vec<WorkflowStep>,
    pub created_at: i64,
    pub updated_at: i64,
}

/// A workflow to create (it starts `created`); its steps were checked by the caller.
#[derive(Debug, Clone)]
pub struct NewWorkflow {
    pub session_id: String,
    pub name: String,
    pub description: Option<String>,
    pub steps: Vec<WorkflowStep>,
}

const COLUMNS: &str = "id, session_id, name, description, status, steps, created_at, updated_at";

fn from_row(row: &SqlRow<'_>) -> rusqlite::Result<Workflow> {
    let steps: String = row.get("steps")?;
    Ok(Workflow {
        id: row.get("id")?,
        session_id: row.get("session_id")?,
        name: row.get("name")?,
        description: row.get("description")?,
        status: parse_status(row.get("status")?)?,
        steps: serde_json::from_str(&steps).map_err(|e| {
            rusqlite::Error::FromSqlConversionFailure(5, rusqlite::types::Type::Text, Box::new(e))
        })?,
        created_at: row.get("created_at")?,
        updated_at: row.get("updated_at")?,
    })
}

impl Row for Workflow {
    const TABLE: &'static str = "plan_workflows";
    const COLUMNS: &'static str = COLUMNS;
    const WHAT: &'static str = "workflow";

    fn from_row(row: &SqlRow<'_>) -> rusqlite::Result<Workflow> {
        from_row(row)
    }

    fn save(&self, conn: &Connection, now: i64) -> Result<()> {
        conn.prepare_cached(
            "UPDATE plan_workflows SET name = ?2, description = ?3, status = ?4, steps = ?5, \
             updated_at = ?6 WHERE id = ?1",
        )?
        .execute(params![
            self.id,
            self.name,
            self.description,
            self.status.as_str(),
            serde_json::to_string(&self.steps)?,
            now
        ])?;
        Ok(())
    }
}

impl Store {
    /// Stores a new workflow in status `created`.
    pub fn insert_workflow(&self, workflow: &NewWorkflow) -> Result<Workflow> {
        let conn = self.conn();
        conn.prepare_cached(
            "INSERT INTO plan_workflows (session_id, name, description, status, steps, \
             created_at, updated_at) VALUES (?1, ?2, ?3, 'created', ?4, ?5, ?5)",
        )?
        .execute(params![
            workflow.session_id,
            workflow.name,
            workflow.description,
            serde_json::to_string(&workflow.steps)?,
            self.now_ms()
        ])?;
        let id = conn.last_insert_rowid();
        Workflow::load(&conn, id)?.ok_or_else(|| StoreError::not_found("workflow", id))
    }

    pub fn workflow(&self, id: i64) -> Result<Option<Workflow>> {
        Workflow::load(&self.conn(), id)
    }

    /// Workflows (of one status, or all), newest first; at most [`MAX_PLAN_ROWS`](super::MAX_PLAN_ROWS).
    pub fn list_workflows(&self, status: Option<WorkflowStatus>) -> Result<Vec<Workflow>> {
        Workflow::list(&self.conn(), status.map(WorkflowStatus::as_str), "id DESC")
    }

    /// Applies `change` to workflow `id` in one transaction (see the module's rules).
    pub fn change_workflow<E: From<StoreError>>(
        &self,
        id: i64,
        change: impl FnOnce(Workflow) -> Result<Workflow, E>,
    ) -> Result<Workflow, E> {
        self.change_row(id, change)
    }
}
