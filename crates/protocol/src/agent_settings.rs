//! Sub-agent settings: the `[[agents]]` personas (name, description, system prompt, model, tool
//! profile) and the `[subagents]` bounds (children running per parent, children per turn,
//! nesting depth, wall-clock timeout).

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::choices::ToolProfile;

/// The most a configured nesting depth may be.
pub const MAX_SUBAGENT_DEPTH: u32 = 3;

/// A persona a sub-agent can run as (`agents_route`, `[[agents]]` in `config.toml`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
#[serde(deny_unknown_fields)]
pub struct AgentPersona {
    /// What `agents_route` calls it by; unique.
    pub name: String,
    #[serde(default)]
    pub description: String,
    /// Given to the child as its instructions.
    #[serde(default)]
    pub system_prompt: String,
    /// `<provider id>:<model>` or a model of the default provider; empty: the parent's model.
    #[serde(default)]
    pub model: String,
    /// The tools it may use (never more than the parent has); none: the parent's profile.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_profile: Option<ToolProfile>,
}

/// Bounds on sub-agents (`[subagents]` in `config.toml`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
#[serde(default, deny_unknown_fields)]
pub struct SubAgentSettings {
    /// Children of one parent session running at once.
    #[serde(deserialize_with = "at_least_one")]
    pub max_running: u32,
    /// Children one parent turn may start.
    #[serde(deserialize_with = "at_least_one")]
    pub max_per_turn: u32,
    /// How deep children may nest: 1 means children cannot start children (at most 3).
    #[serde(deserialize_with = "depth")]
    pub max_depth: u32,
    /// Wall-clock limit of a child that does not set its own, in seconds.
    pub timeout_secs: u64,
}

impl Default for SubAgentSettings {
    fn default() -> Self {
        SubAgentSettings {
            max_running: 3,
            max_per_turn: 12,
            max_depth: 1,
            timeout_secs: 600,
        }
    }
}

fn at_least_one<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<u32, D::Error> {
    match u32::deserialize(deserializer)? {
        0 => Err(serde::de::Error::custom("must be at least 1")),
        n => Ok(n),
    }
}

fn depth<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<u32, D::Error> {
    match u32::deserialize(deserializer)? {
        n @ 1..=MAX_SUBAGENT_DEPTH => Ok(n),
        n => Err(serde::de::Error::custom(format!(
            "{n} is out of range: sub-agents nest 1 to {MAX_SUBAGENT_DEPTH} deep"
        ))),
    }
}
