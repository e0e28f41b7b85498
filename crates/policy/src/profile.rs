//! Tool profiles (which tools the model sees) and security profiles (the run shape), SPEC §4.

use crate::capability::ParseError;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// Which tools are exposed to the model. Cumulative: `minimal` ⊂ `messaging` ⊂ `coding` ⊂ `full`
/// (the derived order follows that chain).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ToolProfile {
    Minimal,
    Messaging,
    Coding,
    Full,
}

/// The run shape's security baseline.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SecurityProfile {
    /// A person at the window: high-risk calls need approval.
    PersonalCli,
    /// Tray / scheduled runs, nobody watching: high-risk calls need a job authorization.
    Daemon,
    /// Messages from outside channels: high-risk, `fs.write` and `process.exec` are refused.
    PublicGateway,
}

/// Tools in `minimal` (Echo's list plus Hearth's additions).
const MINIMAL: &[&str] = &[
    "agents_list",
    "agents_route",
    "artifact_append",
    "artifact_create",
    "artifact_deliver",
    "artifact_finalize",
    "artifact_validate",
    "clarify",
    "knowledge_search",
    "list_dir",
    "message",
    "notify",
    "read_file",
    "read_spill",
    "search_files",
    "session_search",
    "skill_view",
    "skills_list",
    "todo",
    "chat_manager",
    "timeline_recall",
    "calculator",
    "get_device_info",
];

/// Tools `messaging` adds to `minimal`.
const MESSAGING: &[&str] = &[
    "image_generate",
    "memory",
    "text_to_speech",
    "vision_analyze",
    "send_notification",
    "send_message",
];

/// Tools `coding` adds to `messaging`.
const CODING: &[&str] = &[
    "edit_file",
    "knowledge_index",
    "patch",
    "task",
    "workflow",
    "write_file",
    "cronjob",
];

impl ToolProfile {
    pub const ALL: [ToolProfile; 4] = [Self::Minimal, Self::Messaging, Self::Coding, Self::Full];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Minimal => "minimal",
            Self::Messaging => "messaging",
            Self::Coding => "coding",
            Self::Full => "full",
        }
    }

    /// Parses a profile name (`minimal`, `messaging`, `coding`, `full`); see also `FromStr`,
    /// whose error lists the choices.
    pub fn parse(name: &str) -> Option<ToolProfile> {
        name.parse().ok()
    }

    /// The smallest profile that exposes the canonical tool `name`. Anything not listed for a
    /// smaller profile (including every `mcp__*` tool and unknown names) is `full` only.
    pub fn smallest_exposing(name: &str) -> ToolProfile {
        if MINIMAL.contains(&name) {
            Self::Minimal
        } else if MESSAGING.contains(&name) {
            Self::Messaging
        } else if CODING.contains(&name) {
            Self::Coding
        } else {
            Self::Full
        }
    }
}

/// Whether `profile` exposes the canonical tool `tool_name` to the model.
pub fn exposed(profile: ToolProfile, tool_name: &str) -> bool {
    profile >= ToolProfile::smallest_exposing(tool_name)
}

impl SecurityProfile {
    pub const ALL: [SecurityProfile; 3] = [Self::PersonalCli, Self::Daemon, Self::PublicGateway];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::PersonalCli => "personal_cli",
            Self::Daemon => "daemon",
            Self::PublicGateway => "public_gateway",
        }
    }

    /// Parses a profile name (`personal_cli`, `daemon`, `public_gateway`).
    pub fn parse(name: &str) -> Option<SecurityProfile> {
        name.parse().ok()
    }
}

impl FromStr for ToolProfile {
    type Err = ParseError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|p| p.as_str() == s)
            .ok_or_else(|| ParseError::new("tool profile", s, &Self::ALL.map(Self::as_str)))
    }
}

impl FromStr for SecurityProfile {
    type Err = ParseError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|p| p.as_str() == s)
            .ok_or_else(|| ParseError::new("security profile", s, &Self::ALL.map(Self::as_str)))
    }
}

impl fmt::Display for ToolProfile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Display for SecurityProfile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
