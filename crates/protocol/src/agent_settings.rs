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
    pub max_running: u32,
    /// Children one parent turn may start.
    pub max_per_turn: u32,
    /// How deep children may nest: 1 means children cannot start children (at most 3).
    pub max_depth: u32,
    /// Wall-clock limit of a child that does not set its own, in seconds.
    #[serde(deserialize_with = "crate::bounds::subagent_secs")]
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

impl SubAgentSettings {
    /// Why these bounds cannot be used (a cap of 0, a depth past [`MAX_SUBAGENT_DEPTH`]), naming
    /// the key; checked when `config.toml` is loaded.
    pub fn problem(&self) -> Option<String> {
        if self.max_running == 0 {
            return Some("subagents.max_running: must be at least 1".into());
        }
        if self.max_per_turn == 0 {
            return Some("subagents.max_per_turn: must be at least 1".into());
        }
        if !(1..=MAX_SUBAGENT_DEPTH).contains(&self.max_depth) {
            return Some(format!(
                "subagents.max_depth: {} is out of range: sub-agents nest 1 to \
                 {MAX_SUBAGENT_DEPTH} deep",
                self.max_depth
            ));
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_out_of_range_are_named() {
        assert_eq!(SubAgentSettings::default().problem(), None);
        let deep = SubAgentSettings {
            max_depth: 4,
            ..SubAgentSettings::default()
        };
        assert!(deep
            .problem()
            .unwrap()
            .starts_with("subagents.max_depth: 4 is out of range"));
        let none = SubAgentSettings {
            max_running: 0,
            ..SubAgentSettings::default()
        };
        assert_eq!(
            none.problem().unwrap(),
            "subagents.max_running: must be at least 1"
        );
    }
}
