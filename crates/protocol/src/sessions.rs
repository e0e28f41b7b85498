//! A stored conversation.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// A stored conversation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct Session {
    /// `<channel>:<id>`, e.g. `desktop:<uuid>` or `cli:<uuid>`.
    pub id: String,
    pub title: String,
    #[serde(default)]
    pub model: Option<String>,
    #[serde(default)]
    pub workspace: Option<String>,
    pub tool_profile: String,
    pub pinned: bool,
    pub message_count: i64,
    pub created_at: i64,
    pub updated_at: i64,
}
