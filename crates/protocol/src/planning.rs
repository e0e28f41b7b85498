//! The session's checklist (`todo`) and the questions the model asks the user (`clarify`), as
//! the UI shows them.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Where one checklist item stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[ts(export)]
#[serde(rename_all = "snake_case")]
pub enum TodoStatus {
    Pending,
    InProgress,
    Done,
}

/// One item of a session's checklist. Its id is unique within the list and never reused.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct TodoItem {
    pub id: String,
    pub title: String,
    pub status: TodoStatus,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub notes: Option<String>,
}

/// A session's checklist. `revision` grows by one with every change, deletions included.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct TodoList {
    pub session_id: String,
    pub revision: u32,
    pub items: Vec<TodoItem>,
    /// The next item's number.
    pub next_id: u32,
    /// Unix milliseconds of the last change.
    pub updated_at: i64,
}

impl TodoList {
    /// Whether any item is not done (the desktop pins the list above the composer then).
    pub fn has_open_items(&self) -> bool {
        self.items
            .iter()
            .any(|item| item.status != TodoStatus::Done)
    }
}
