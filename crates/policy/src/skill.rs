//! What a skill run may use: a skill's declaration (CeeCore `permissions` in `manifest.json`,
//! or `allowed-tools` in `SKILL.md`) as data, and the pure decision whether it lets a tool
//! through. It only narrows: whatever it permits still goes through the session's profiles.

use crate::capability::Capability;
use crate::catalogue::ToolFacts;
use hearth_protocol::PolicyReason;
use serde::{Deserialize, Serialize};
use std::fmt;

/// A CeeCore manifest permission, and the capabilities it grants.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SkillPermission {
    Http,
    Cron,
    Notification,
    File,
}

impl SkillPermission {
    pub const ALL: [SkillPermission; 4] = [Self::Http, Self::Cron, Self::Notification, Self::File];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Http => "http",
            Self::Cron => "cron",
            Self::Notification => "notification",
            Self::File => "file",
        }
    }

    /// Parses a permission as written in `manifest.json` (exact, lower case).
    pub fn parse(name: &str) -> Option<SkillPermission> {
        Self::ALL.into_iter().find(|p| p.as_str() == name)
    }

    /// The capabilities this permission grants.
    pub fn capabilities(self) -> &'static [Capability] {
        match self {
            Self::Http => &[Capability::NetworkOutbound],
            Self::Cron => &[Capability::SchedulerWrite],
            Self::Notification => &[Capability::Notification],
            Self::File => &[Capability::FsRead, Capability::FsWrite],
        }
    }

    /// The permission granting `capability`, if one does.
    fn granting(capability: Capability) -> Option<SkillPermission> {
        Self::ALL
            .into_iter()
            .find(|p| p.capabilities().contains(&capability))
    }
}

impl fmt::Display for SkillPermission {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Capabilities no manifest permission grants and that a permission-declaring skill therefore
/// never gets: running programs, driving a browser, MCP servers, changing or installing skills.
const NEVER_GRANTED: [Capability; 8] = [
    Capability::ProcessExec,
    Capability::ProcessManage,
    Capability::CodeExec,
    Capability::BrowserControl,
    Capability::McpCall,
    Capability::McpRead,
    Capability::SkillWrite,
    Capability::SkillInstall,
];

/// What a skill declares it may use.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Declaration {
    /// Nothing declared: the session's ordinary policy applies.
    None,
    /// CeeCore `permissions`; tools needing none of the gated capabilities stay available.
    Permissions(Vec<SkillPermission>),
    /// `allowed-tools`: the tools the run may use, by canonical or dialect name. An entry
    /// `Name(pattern)` names the tool `Name`.
    AllowedTools(Vec<String>),
}

/// A skill run's grant: the skill, the file its declaration is in, and the declaration.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SkillGrant {
    pub skill: String,
    /// `manifest.json` or `SKILL.md`.
    pub file: String,
    pub declaration: Declaration,
    /// The skill's own `tools.json` tools that run one of its scripts: within the declaration
    /// (the skill declared them; they run confined like `skill_run`).
    #[serde(default)]
    pub own_scripts: Vec<String>,
}

/// Why a skill run may not use a tool; its text names the skill and its declaration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkillRefusal {
    pub reason: Box<PolicyReason>,
}

impl SkillGrant {
    /// Whether a call of the tool with `facts`, called `called` by the model, is within the
    /// declaration. Tools that only read skills (`skills_list`, `skill_view`) and the skill's
    /// own script tools always are.
    pub fn permits(&self, facts: &ToolFacts, called: &str) -> Result<(), SkillRefusal> {
        if facts
            .capabilities
            .iter()
            .all(|c| *c == Capability::SkillRead)
            && !facts.capabilities.is_empty()
        {
            return Ok(());
        }
        if facts.name == "skill_run" && self.own_scripts.iter().any(|t| t == called) {
            return Ok(());
        }
        match &self.declaration {
            Declaration::None => Ok(()),
            Declaration::Permissions(granted) => self.within_permissions(granted, facts, called),
            Declaration::AllowedTools(tools) => self.within_allowed(tools, facts, called),
        }
    }

    fn within_permissions(
        &self,
        granted: &[SkillPermission],
        facts: &ToolFacts,
        called: &str,
    ) -> Result<(), SkillRefusal> {
        let declared: Vec<String> = granted.iter().map(|p| p.as_str().to_string()).collect();
        for capability in &facts.capabilities {
            if NEVER_GRANTED.contains(capability) {
                return Err(SkillRefusal {
                    reason: Box::new(PolicyReason::SkillNeverGranted {
                        skill: self.skill.clone(),
                        tool: called.to_string(),
                        capability: *capability,
                        file: self.file.clone(),
                        declared,
                    }),
                });
            }
            if let Some(needed) = SkillPermission::granting(*capability) {
                if !granted.contains(&needed) {
                    return Err(SkillRefusal {
                        reason: Box::new(PolicyReason::SkillNeedsPermission {
                            skill: self.skill.clone(),
                            tool: called.to_string(),
                            permission: needed.as_str().to_string(),
                            capability: *capability,
                            file: self.file.clone(),
                            declared,
                        }),
                    });
                }
            }
        }
        Ok(())
    }

    fn within_allowed(
        &self,
        tools: &[String],
        facts: &ToolFacts,
        called: &str,
    ) -> Result<(), SkillRefusal> {
        let listed = tools.iter().any(|entry| {
            let name = entry.split('(').next().unwrap_or(entry).trim();
            name.eq_ignore_ascii_case(&facts.name) || name.eq_ignore_ascii_case(called)
        });
        if listed {
            Ok(())
        } else {
            Err(SkillRefusal {
                reason: Box::new(PolicyReason::SkillNotAllowed {
                    skill: self.skill.clone(),
                    tool: called.to_string(),
                    file: self.file.clone(),
                    allowed: tools.to_vec(),
                }),
            })
        }
    }
}
