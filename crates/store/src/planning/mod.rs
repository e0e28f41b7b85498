//! Planning rows: each session's checklist, tasks and workflows. The store keeps them and applies
//! a caller's change inside one transaction; what a change may do (transitions, the DAG) is
//! decided by the caller's pure rules.

mod tasks;
mod todo;
mod workflows;

use rusqlite::{Connection, OptionalExtension, TransactionBehavior};

use crate::{Result, Store, StoreError};

pub use tasks::{NewPlanTask, PlanTask, TaskStatus};
pub use workflows::{NewWorkflow, Workflow, WorkflowStatus, WorkflowStep};

/// Most rows a list returns.
pub const MAX_PLAN_ROWS: usize = 200;

/// A stored row that a change reads and writes back whole.
trait Row: Sized {
    const WHAT: &'static str;
    const TABLE: &'static str;
    const COLUMNS: &'static str;

    fn from_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<Self>;

    /// Writes the changed row back, stamping `updated_at`.
    fn save(&self, conn: &Connection, now: i64) -> Result<()>;

    fn load(conn: &Connection, id: i64) -> Result<Option<Self>> {
        let sql = format!(
            "SELECT {} FROM {} WHERE id = ?1",
            Self::COLUMNS,
            Self::TABLE
        );
        Ok(conn
            .prepare_cached(&sql)?
            .query_row([id], Self::from_row)
            .optional()?)
    }

    /// The rows with `status` (or all) in `order`, at most [`MAX_PLAN_ROWS`].
    fn list(conn: &Connection, status: Option<&str>, order: &str) -> Result<Vec<Self>> {
        let sql = format!(
            "SELECT {} FROM {} WHERE ?1 IS NULL OR status = ?1 ORDER BY {order} LIMIT {MAX_PLAN_ROWS}",
            Self::COLUMNS,
            Self::TABLE
        );
        let mut stmt = conn.prepare_cached(&sql)?;
        let rows = stmt
            .query_map([status], Self::from_row)?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        Ok(rows)
    }
}

impl Store {
    /// Reads row `id`, lets `change` turn it into its new state and stores that, all in one
    /// immediate transaction; `NotFound` when there is no such row. Nothing is written when
    /// `change` fails.
    fn change_row<T: Row, E: From<StoreError>>(
        &self,
        id: i64,
        change: impl FnOnce(T) -> Result<T, E>,
    ) -> Result<T, E> {
        let mut conn = self.conn();
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(StoreError::from)?;
        let current = T::load(&tx, id)?.ok_or_else(|| StoreError::not_found(T::WHAT, id))?;
        let changed = change(current)?;
        changed.save(&tx, self.now_ms())?;
        tx.commit().map_err(StoreError::from)?;
        let reread = T::load(&conn, id)?;
        Ok(reread.ok_or_else(|| StoreError::not_found(T::WHAT, id))?)
    }
}

/// Parses a status stored as its snake_case name.
fn parse_status<T: serde::de::DeserializeOwned>(text: String) -> rusqlite::Result<T> {
    serde_json::from_value(serde_json::Value::String(text)).map_err(|e| {
        rusqlite::Error::FromSqlConversionFailure(0, rusqlite::types::Type::Text, Box::new(e))
    })
}

#[cfg(test)]
#[path = "tests.rs"]
mod tests;
