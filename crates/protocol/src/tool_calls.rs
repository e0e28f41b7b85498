//! A tool call the model asked for and the outcome of running it.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::{ContentPart, ToolView};

/// A tool call the model asked for. `arguments` is the raw JSON text the model produced.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct ToolCall {
    pub id: String,
    pub name: String,
    pub arguments: String,
    /// Opaque state the provider attached to the call (Gemini's thought signature), handed back
    /// with the call in later requests; the provider refuses the history without it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signature: Option<String>,
}

/// The outcome of one tool call, as stored and as shown to the model. `content` is JSON text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct ToolResult {
    pub call_id: String,
    pub name: String,
    pub content: String,
    pub is_error: bool,
    pub duration_ms: u64,
    /// Images (and audio clips) the tool attached, named by the file they were saved to: sent to
    /// the model as image (audio) parts where it takes them, images shown on the tool card.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub images: Vec<ContentPart>,
    /// What the tool card shows, in order, built by `hearth-tools` when the result is delivered
    /// to a window (never stored: rows are viewed when they are loaded).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub views: Vec<ToolView>,
}
