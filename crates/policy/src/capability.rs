//! Capability tags: what kind of effect a tool has, as matched by policy rules (the tags each
//! tool carries are listed in `docs/tools.md`).

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// A name that is not one of the known capability tags, tool profiles or security profiles.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown {what} `{value}` (expected one of: {expected})")]
pub struct ParseError {
    pub what: &'static str,
    pub value: String,
    pub expected: String,
}

impl ParseError {
    pub(crate) fn new(what: &'static str, value: &str, expected: &[&str]) -> Self {
        Self {
            what,
            value: value.to_string(),
            expected: expected.join(", "),
        }
    }
}

macro_rules! capabilities {
    ($($variant:ident => $tag:literal,)+) => {
        /// A capability tag carried by a tool. Serialised as its dotted tag, e.g. `fs.read`.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        pub enum Capability {
            $(#[serde(rename = $tag)] $variant,)+
        }

        impl Capability {
            /// Every capability tag, in declaration order.
            pub const ALL: &'static [Capability] = &[$(Capability::$variant,)+];

            /// The dotted tag, e.g. `fs.write`.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(Capability::$variant => $tag,)+
                }
            }
        }

        impl FromStr for Capability {
            type Err = ParseError;

            fn from_str(s: &str) -> Result<Self, Self::Err> {
                match s {
                    $($tag => Ok(Capability::$variant),)+
                    _ => Err(ParseError::new("capability", s, &[$($tag,)+])),
                }
            }
        }
    };
}

capabilities! {
    FsRead => "fs.read",
    FsWrite => "fs.write",
    ProcessExec => "process.exec",
    ProcessManage => "process.manage",
    CodeExec => "code.exec",
    NetworkOutbound => "network.outbound",
    MessageSend => "message.send",
    MessageAsk => "message.ask",
    Notification => "notification",
    MemoryRead => "memory.read",
    MemoryWrite => "memory.write",
    SessionRead => "session.read",
    KnowledgeRead => "knowledge.read",
    KnowledgeWrite => "knowledge.write",
    ArtifactRead => "artifact.read",
    ArtifactWrite => "artifact.write",
    MediaGenerate => "media.generate",
    MediaRead => "media.read",
    BrowserControl => "browser.control",
    TaskWrite => "task.write",
    WorkflowWrite => "workflow.write",
    SchedulerWrite => "scheduler.write",
    AgentRead => "agent.read",
    AgentDispatch => "agent.dispatch",
    SkillRead => "skill.read",
    SkillWrite => "skill.write",
    SkillInstall => "skill.install",
    McpCall => "mcp.call",
}

impl fmt::Display for Capability {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
