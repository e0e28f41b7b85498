//! What the settings page and the composer's `/mcp` show about the MCP servers: each server's
//! state, the reason it failed, the last lines of its log, and its tools.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// The state of one MCP server.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
#[serde(rename_all = "snake_case")]
pub enum McpServerState {
    Disabled,
    Starting,
    Ready,
    Failed,
    /// A URL server waiting for the user to sign in (OAuth).
    NeedsSignIn,
    Stopped,
}

/// One configured server as it runs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct McpServerView {
    pub name: String,
    pub state: McpServerState,
    /// Why it failed (shown with `log_tail`).
    pub reason: Option<String>,
    /// `stdio` or `http`.
    pub transport: String,
    /// The protocol version agreed with the server.
    pub protocol_version: Option<String>,
    pub restarts: u32,
    pub log_path: String,
    /// The last lines of its stderr and Hearth's notes about it, oldest first.
    pub log_tail: Vec<String>,
    /// Every tool of the server while it is ready, offered or not.
    pub tools: Vec<McpToolView>,
}

/// One tool of a server.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct McpToolView {
    /// The server's own name for it (the key of its Always / Ask / Never setting).
    pub tool: String,
    /// The name the model calls (`mcp__<server>__<tool>`); none when it is not offered.
    pub qualified: Option<String>,
    pub description: String,
    /// Annotated `readOnlyHint: true` by the server.
    pub read_only: bool,
    /// Runs without asking under `personal_cli` (Always, or trusted read-only).
    pub unasked: bool,
}
