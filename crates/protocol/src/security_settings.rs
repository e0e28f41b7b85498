//! `[security]` in `config.toml`: the OS sandbox the programs the agent starts run in (commands,
//! code, skill scripts), whether they reach the network, the extra folders they may write and
//! the extra paths they may not read.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// How much of the computer a command may change.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
#[ts(export)]
#[serde(rename_all = "kebab-case")]
pub enum SandboxMode {
    /// Writes only in the workspace, the session's temp folder and `writable_roots`; the home's
    /// secrets and Hearth's data unreadable.
    #[default]
    WorkspaceWrite,
    /// No writes at all; the same reads.
    ReadOnly,
    /// No sandbox: commands run with all of the user's rights (the only way to run them where
    /// the system has no sandbox).
    Off,
}

/// The sandbox of the programs the agent starts.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
#[ts(export)]
#[serde(default, deny_unknown_fields)]
pub struct SecuritySettings {
    pub sandbox: SandboxMode,
    /// Whether commands reach the network (MCP servers always do).
    pub network: bool,
    /// Folders commands may write besides the workspace (absolute paths).
    pub writable_roots: Vec<String>,
    /// Paths commands may not even read, besides the home's secrets and Hearth's data (absolute).
    pub denied_paths: Vec<String>,
    /// More for some commands or skills: the network, or more folders to write
    /// (`[[security.grants]]`).
    pub grants: Vec<SandboxGrant>,
}

/// A rule widening the sandbox of the commands matching `command` (a pattern where `*` stands
/// for any text, e.g. `npm *`) or of the scripts of the skill `skill`: exactly one of the two.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
#[ts(export)]
#[serde(default, deny_unknown_fields)]
pub struct SandboxGrant {
    pub command: Option<String>,
    pub skill: Option<String>,
    /// Whether the matching programs reach the network.
    pub network: bool,
    /// Folders the matching programs may write besides the workspace (absolute paths).
    pub writable_roots: Vec<String>,
}

/// What a chat chose about the sandbox of its commands (off until the user chooses on an
/// approval card; forgotten when Hearth ends).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct ChatSandbox {
    /// Calls that run inside the sandbox with the network off run without asking.
    pub sandboxed_without_asking: bool,
    /// Allowed calls run outside the sandbox (where the system has none).
    pub unsandboxed: bool,
}

/// What Settings → Security shows about this system's sandbox.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct SandboxStatus {
    /// What a command with the network off gets here: `landlock+netns`, `landlock+seccomp`, or
    /// `none` when the system has no sandbox.
    pub isolation: String,
    /// Why there is no (or a partial) sandbox.
    pub reason: Option<String>,
}
