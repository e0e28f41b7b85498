//! Planning tools: `todo` (the session's checklist), `task` (tasks with a lifecycle), `workflow`
//! (steps in a DAG, tracked, never executed) and `clarify` (a question for the user). The rules
//! are pure ([`lifecycle`], [`dag`], [`checklist`]); the store keeps the rows and applies each
//! change in one transaction.

mod checklist;
mod clarify;
mod dag;
mod lifecycle;
mod task;
mod todo;
mod workflow;

use hearth_store::{Db, StoreError};

use crate::dialect::Dialect;
use crate::error::{ErrorKind, ToolError};
use crate::registry::{Registry, RegistryError};

/// Registers `todo` and `clarify` (Hearth, Echo) and `task` and `workflow` (Hearth, Echo) over
/// `db`.
pub fn register_planning(registry: &mut Registry, db: impl Into<Db>) -> Result<(), RegistryError> {
    use Dialect::{Echo, Hearth};
    let db = db.into();
    registry.register_for(&[Hearth, Echo], todo::Todo(db.clone()))?;
    registry.register_for(&[Hearth, Echo], task::Task(db.clone()))?;
    registry.register_for(&[Hearth, Echo], workflow::Workflow(db))?;
    registry.register_for(&[Hearth, Echo], clarify::Clarify)?;
    Ok(())
}

/// A store failure inside a planning change: `not_found` for a missing row, else `internal`.
impl From<StoreError> for ToolError {
    fn from(error: StoreError) -> ToolError {
        match error {
            StoreError::NotFound { .. } => ToolError::new(ErrorKind::NotFound, error.to_string()),
            other => ToolError::internal(other.to_string()),
        }
    }
}

/// `None` for a missing or blank argument an action needs becomes `invalid_arguments`.
fn required<'a>(value: Option<&'a str>, field: &str, action: &str) -> Result<&'a str, ToolError> {
    value
        .map(str::trim)
        .filter(|v| !v.is_empty())
        .ok_or_else(|| ToolError::invalid(field, format!("`{field}` is required for {action}")))
}

/// A row id the model passes as text ("12").
fn row_id(value: Option<&str>, field: &str, action: &str) -> Result<i64, ToolError> {
    let text = required(value, field, action)?;
    text.trim_start_matches('#').parse().map_err(|_| {
        ToolError::invalid(
            field,
            format!("`{field}` \"{text}\" is not an id: ids are numbers such as \"3\""),
        )
    })
}

/// A trimmed optional text, `None` when blank.
fn text(value: Option<String>) -> Option<String> {
    value
        .map(|v| v.trim().to_string())
        .filter(|v| !v.is_empty())
}
