//! Sub-agent runs as the store keeps them and the UI shows them: status (set by the runtime,
//! never by the child), mode, what the child produced, and its live progress.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::Usage;

/// How a sub-agent run ended, or that it still runs. `interrupted`: the process running it
/// ended (crash, `kill -9`) before it did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[ts(export)]
#[serde(rename_all = "snake_case")]
pub enum SubAgentStatus {
    Running,
    Completed,
    Failed,
    Timeout,
    Cancelled,
    Interrupted,
}

impl SubAgentStatus {
    pub const ALL: [SubAgentStatus; 6] = [
        Self::Running,
        Self::Completed,
        Self::Failed,
        Self::Timeout,
        Self::Cancelled,
        Self::Interrupted,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Running => "running",
            Self::Completed => "completed",
            Self::Failed => "failed",
            Self::Timeout => "timeout",
            Self::Cancelled => "cancelled",
            Self::Interrupted => "interrupted",
        }
    }

    pub fn parse(s: &str) -> Option<SubAgentStatus> {
        Self::ALL.into_iter().find(|status| status.as_str() == s)
    }
}

/// How the parent waits for a sub-agent: `inline` and `parallel` within the tool call,
/// `background` not at all (its result arrives in the parent chat).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[ts(export)]
#[serde(rename_all = "snake_case")]
pub enum SubAgentMode {
    Inline,
    Parallel,
    Background,
}

impl SubAgentMode {
    pub const ALL: [SubAgentMode; 3] = [Self::Inline, Self::Parallel, Self::Background];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Inline => "inline",
            Self::Parallel => "parallel",
            Self::Background => "background",
        }
    }

    pub fn parse(s: &str) -> Option<SubAgentMode> {
        Self::ALL.into_iter().find(|mode| mode.as_str() == s)
    }
}

/// One sub-agent run: its own session `task:<id>`, linked to the parent's.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct SubAgentRun {
    pub id: String,
    pub parent_session_id: String,
    /// The child's session (`task:<id>`): its transcript.
    pub session_id: String,
    pub goal: String,
    pub mode: SubAgentMode,
    /// The `[[agents]]` persona it ran as.
    pub agent: Option<String>,
    pub model: String,
    /// The tools it was given (by the names its dialect calls them).
    pub tools: Vec<String>,
    pub max_iterations: u32,
    pub timeout_secs: u64,
    pub status: SubAgentStatus,
    /// Its answer, or what it produced before it stopped.
    pub result: String,
    pub error: Option<String>,
    pub iterations: u32,
    pub usage: Usage,
    pub created_at: i64,
    pub finished_at: Option<i64>,
}

/// A sub-agent's live progress, as its card shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct SubAgentProgress {
    pub run_id: String,
    pub parent_session_id: String,
    pub session_id: String,
    pub goal: String,
    pub mode: SubAgentMode,
    pub status: SubAgentStatus,
    /// Model responses so far.
    pub iterations: u32,
    /// The tool it is running now.
    pub current_tool: Option<String>,
    pub elapsed_ms: u64,
    pub usage: Usage,
}
