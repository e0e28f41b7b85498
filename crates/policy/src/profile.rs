//! Tool profiles (which tools the model sees, from each catalogue entry's smallest profile) and
//! security profiles (the run shape).

use crate::capability::ParseError;
use crate::catalogue::canonical_tool;
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

    /// The smallest profile that exposes the canonical tool `name`, as its catalogue entry
    /// says. Anything not in the catalogue (every `mcp__*` tool, unknown names) is `full` only.
    pub fn smallest_exposing(name: &str) -> ToolProfile {
        canonical_tool(name).map_or(Self::Full, |tool| tool.profile)
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
