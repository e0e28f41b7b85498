//! What the user is shown about a server: its state, tool count, negotiated protocol version,
//! restarts and the last lines of its log.

use serde::Serialize;
use std::path::PathBuf;

/// The state of one server.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum State {
    /// Switched off in the settings.
    Disabled,
    /// Being started (or restarted).
    Starting,
    Ready,
    /// Not running; `reason` says why. It is restarted with backoff (unless its settings are
    /// bad) and stays failed, with the last reason, until a restart is ready.
    Failed {
        reason: String,
    },
    /// An HTTP server that wants an OAuth sign-in (none stored, or its tokens were refused
    /// and could not be refreshed): not retried until the user signs in.
    NeedsSignIn,
    /// Shut down with Hearth.
    Stopped,
}

impl State {
    /// Starting: neither ready nor failed yet.
    pub fn is_settled(&self) -> bool {
        !matches!(self, State::Starting)
    }
}

/// One server's status.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ServerStatus {
    pub name: String,
    #[serde(flatten)]
    pub state: State,
    /// Tools it offers to the model (after the allow/deny lists and per-tool Never).
    pub tools: usize,
    /// The protocol version agreed with the server.
    pub protocol_version: Option<String>,
    /// Times it was restarted after exiting or dropping its connection.
    pub restarts: u32,
    /// `stdio` or `http`.
    pub transport: &'static str,
    pub log_path: PathBuf,
    /// The last lines of its stderr (stdio servers) and Hearth's notes about it.
    pub log_tail: Vec<String>,
}
