//! Why policy asked about or refused a tool call, as data: the audit log and the approval card
//! word it in the viewer's language (`ui/src/lib/policyReason.ts`); `Display` is the English
//! the model, the CLI and older audit rows read.

use serde::{Deserialize, Serialize};
use std::fmt;
use ts_rs::TS;

use crate::{Capability, Confirmation, SecurityProfile, ToolProfile};

/// One reason policy gives. Serialized as `{"code": "not_exposed", "params": {…}}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
#[serde(tag = "code", content = "params", rename_all = "snake_case")]
pub enum PolicyReason {
    /// The session's tool profile does not offer the tool.
    NotExposed { tool: String, profile: ToolProfile },
    /// A user deny rule (1-based position, as written) matched.
    RuleRefuses {
        tool: String,
        index: usize,
        rule: String,
    },
    /// `public_gateway` refuses every high-risk tool.
    HighRiskRefused {
        tool: String,
        security: SecurityProfile,
    },
    /// `public_gateway` refuses tools carrying this tag.
    TaggedRefused {
        tool: String,
        security: SecurityProfile,
        tag: Capability,
    },
    /// `daemon` refuses high-risk tools its job authorization does not cover; `job` says what
    /// the job's authorization lacks, when the call came from a job run.
    NoJobAuthorization {
        tool: String,
        security: SecurityProfile,
        job: Option<JobGrantNote>,
    },
    /// `personal_cli` asks before a high-risk tool runs.
    NeedsApproval {
        tool: String,
        security: SecurityProfile,
        /// The tool is confirmed every time (never for a whole session or by a rule).
        every_time: bool,
    },
    /// The tool is always confirmed by the user, even where policy would allow it.
    AlwaysConfirm { tool: String },
    /// A skill run's tool needs a capability no manifest permission grants.
    SkillNeverGranted {
        skill: String,
        tool: String,
        capability: Capability,
        file: String,
        declared: Vec<String>,
    },
    /// A skill run's tool needs a manifest permission the skill does not declare.
    SkillNeedsPermission {
        skill: String,
        tool: String,
        permission: String,
        capability: Capability,
        file: String,
        declared: Vec<String>,
    },
    /// A skill run's tool is not in its `allowed-tools`.
    SkillNotAllowed {
        skill: String,
        tool: String,
        file: String,
        allowed: Vec<String>,
    },
}

/// What a job's authorization lacks for a refused high-risk call.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct JobGrantNote {
    pub job: String,
    pub state: JobGrantState,
}

/// Where a job's authorization stands, from a refused call's point of view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
#[serde(rename_all = "snake_case")]
pub enum JobGrantState {
    /// The user never authorized the job.
    NotAuthorized,
    /// The job changed since the user authorized it.
    NeedsReapproval,
    /// Authorized, but not for this tool.
    NotCovering,
}

/// What the audit log keeps as a decision's reason: policy's reason, the tool's own
/// confirmation text the user was shown, and how the user allowed the call.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct AuditReason {
    pub reason: PolicyReason,
    /// What the tool asked the user to confirm (a job authorization's question).
    pub confirmation: Option<Confirmation>,
    pub allowed: Option<AllowedFor>,
}

/// How far the user's approval reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
#[serde(rename_all = "snake_case")]
pub enum AllowedFor {
    Once,
    Session,
    /// Without asking: the chat runs sandboxed commands without asking and the call stayed in
    /// the sandbox.
    SandboxedInChat,
}

impl AuditReason {
    pub fn new(reason: PolicyReason) -> AuditReason {
        AuditReason {
            reason,
            confirmation: None,
            allowed: None,
        }
    }
}

impl fmt::Display for PolicyReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NotExposed { tool, profile } => {
                write!(f, "tool profile {profile} does not expose {tool}")
            }
            Self::RuleRefuses { tool, index, rule } => {
                write!(f, "user rule #{index} ({rule}) refuses {tool}")
            }
            Self::HighRiskRefused { tool, security } => {
                write!(
                    f,
                    "security profile {security} refuses high-risk tool {tool}"
                )
            }
            Self::TaggedRefused {
                tool,
                security,
                tag,
            } => write!(
                f,
                "security profile {security} refuses {tool} (tagged {tag})"
            ),
            Self::NoJobAuthorization {
                tool,
                security,
                job,
            } => {
                write!(
                    f,
                    "security profile {security} refuses high-risk tool {tool} without a job \
                     authorization covering it"
                )?;
                match job {
                    Some(note) => write!(f, ": {note}"),
                    None => Ok(()),
                }
            }
            Self::NeedsApproval {
                tool,
                security,
                every_time,
            } => {
                write!(
                    f,
                    "security profile {security}: {tool} is high-risk and needs your approval"
                )?;
                if *every_time {
                    f.write_str("; this action is asked every time")?;
                }
                Ok(())
            }
            Self::AlwaysConfirm { tool } => write!(
                f,
                "{tool} always needs your confirmation; it is never allowed for a whole session \
                 or by a rule"
            ),
            Self::SkillNeverGranted {
                skill,
                tool,
                capability,
                file,
                declared,
            } => write!(
                f,
                "skill `{skill}` may not use this tool: `{tool}` needs {capability}, which no \
                 manifest permission grants ({file} declares {})",
                permissions(declared)
            ),
            Self::SkillNeedsPermission {
                skill,
                tool,
                permission,
                capability,
                file,
                declared,
            } => write!(
                f,
                "skill `{skill}` may not use this tool: `{tool}` needs the `{permission}` \
                 permission ({capability}), and {file} declares {}",
                permissions(declared)
            ),
            Self::SkillNotAllowed {
                skill,
                tool,
                file,
                allowed,
            } => write!(
                f,
                "skill `{skill}` may not use this tool: `{tool}` is not in the allowed-tools of \
                 its {file} ({})",
                allowed.join(" ")
            ),
        }
    }
}

/// A manifest's declared permissions as the English reason names them.
fn permissions(declared: &[String]) -> String {
    if declared.is_empty() {
        "no permissions".to_string()
    } else {
        format!("permissions [{}]", declared.join(", "))
    }
}

impl fmt::Display for JobGrantNote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = &self.job;
        match self.state {
            JobGrantState::NeedsReapproval => write!(
                f,
                "job \"{name}\" needs re-approval: it changed since the user authorized it, so \
                 its unattended runs cannot use high-risk tools until the user approves it again \
                 (cronjob authorize, or Re-approve on the Jobs page)"
            ),
            JobGrantState::NotAuthorized => write!(
                f,
                "job \"{name}\" needs re-approval: the user has not authorized it, so its \
                 unattended runs cannot use high-risk tools (cronjob authorize, or Approve on \
                 the Jobs page)"
            ),
            JobGrantState::NotCovering => write!(
                f,
                "job \"{name}\" is authorized, but not for this tool; it needs re-approval \
                 covering it"
            ),
        }
    }
}

impl fmt::Display for AuditReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.allowed {
            Some(AllowedFor::Once) => f.write_str("allowed once: ")?,
            Some(AllowedFor::Session) => f.write_str("allowed for this session: ")?,
            Some(AllowedFor::SandboxedInChat) => {
                f.write_str("run in the sandbox without asking (chosen for this chat): ")?
            }
            None => {}
        }
        match &self.confirmation {
            Some(text) => write!(f, "{text} ({})", self.reason),
            None => write!(f, "{}", self.reason),
        }
    }
}
