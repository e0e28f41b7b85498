//! User rules: allow/deny a tool by name or by capability, optionally only in one workspace.

use crate::capability::Capability;
use crate::catalogue::ToolFacts;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::{Path, PathBuf};

/// What a rule does: the enumerated setting `effect` of `[[rules]]`.
pub use hearth_protocol::RuleEffect as Effect;

/// What a rule matches. Serialised as `{"tool": "exec"}` or `{"capability": "fs.write"}`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Matcher {
    /// A canonical tool name; a trailing `*` matches by prefix (`mcp__github__*`).
    #[serde(rename = "tool")]
    ToolName(String),
    /// Any tool carrying the tag. Tools without tags are never matched by capability.
    Capability(Capability),
}

/// One user rule, e.g. `{"effect": "deny", "capability": "network.outbound", "workspace": "/w"}`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Rule {
    pub effect: Effect,
    #[serde(flatten)]
    pub matcher: Matcher,
    /// When set, the rule applies only in this workspace (and folders below it). Paths are
    /// compared component-wise as given: callers pass canonical paths.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub workspace: Option<PathBuf>,
}

impl Matcher {
    pub fn matches(&self, tool: &ToolFacts) -> bool {
        match self {
            Matcher::ToolName(pattern) => match pattern.strip_suffix('*') {
                Some(prefix) => tool.name.starts_with(prefix),
                None => tool.name == *pattern,
            },
            Matcher::Capability(capability) => tool.has(*capability),
        }
    }
}

impl Rule {
    pub fn allow(matcher: Matcher) -> Self {
        Self {
            effect: Effect::Allow,
            matcher,
            workspace: None,
        }
    }

    pub fn deny(matcher: Matcher) -> Self {
        Self {
            effect: Effect::Deny,
            matcher,
            workspace: None,
        }
    }

    /// Restricts the rule to one workspace.
    pub fn in_workspace(mut self, workspace: impl Into<PathBuf>) -> Self {
        self.workspace = Some(workspace.into());
        self
    }

    /// Whether the rule is in force for a call made in `workspace` (a scoped rule never is
    /// for a call without one).
    pub fn applies_in(&self, workspace: Option<&Path>) -> bool {
        match (&self.workspace, workspace) {
            (None, _) => true,
            (Some(scope), Some(workspace)) => workspace.starts_with(scope),
            (Some(_), None) => false,
        }
    }

    /// Whether the rule is in force in `workspace` and matches `tool`.
    pub fn covers(&self, tool: &ToolFacts, workspace: Option<&Path>) -> bool {
        self.applies_in(workspace) && self.matcher.matches(tool)
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let effect = match self.effect {
            Effect::Allow => "allow",
            Effect::Deny => "deny",
        };
        match &self.matcher {
            Matcher::ToolName(name) => write!(f, "{effect} tool {name}")?,
            Matcher::Capability(capability) => write!(f, "{effect} capability {capability}")?,
        }
        if let Some(workspace) = &self.workspace {
            write!(f, " in {}", workspace.display())?;
        }
        Ok(())
    }
}
