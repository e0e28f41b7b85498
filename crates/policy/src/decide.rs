//! The decision function: profile exposure, user deny rules, the security baseline, allow rules.

use crate::capability::Capability;
use crate::catalogue::ToolFacts;
use crate::profile::{exposed, SecurityProfile, ToolProfile};
use crate::rules::{Effect, Rule};
use hearth_protocol::PolicyReason;
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::fmt;
use std::path::Path;

/// The outcome for one tool call. Every reason names the profile or rule that decided, and an
/// allow or deny says who did (for the audit log).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "decision", rename_all = "snake_case")]
pub enum Decision {
    Allow {
        by: Authority,
    },
    /// Wait for the user (allow once / allow for this session / deny). Fails closed.
    Ask {
        reason: PolicyReason,
    },
    Deny {
        reason: PolicyReason,
        by: Authority,
    },
}

/// What settled a call without asking anyone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Authority {
    /// The tool profile and the security profile's baseline.
    Policy,
    /// The user rule at this 1-based position in the configuration.
    Rule { index: usize },
    /// The job authorization a scheduled run carries.
    JobAuthorization,
    /// The user's earlier "allow for this session".
    SessionAllowance,
}

impl fmt::Display for Authority {
    /// The audit log's actor: `policy`, `rule 2`, `job authorization`, `user (this session)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Policy => f.write_str("policy"),
            Self::Rule { index } => write!(f, "rule {index}"),
            Self::JobAuthorization => f.write_str("job authorization"),
            Self::SessionAllowance => f.write_str("user (this session)"),
        }
    }
}

/// Everything one decision depends on. All tool names are canonical names.
#[derive(Debug, Clone, Copy)]
pub struct PolicyInput<'a> {
    pub tool: &'a ToolFacts,
    pub tool_profile: ToolProfile,
    pub security: SecurityProfile,
    /// User rules, in configuration order (reasons cite them 1-based).
    pub rules: &'a [Rule],
    /// The workspace the call runs in; rules scoped to a workspace apply only there (and
    /// never when the call has no workspace).
    pub workspace: Option<&'a Path>,
    /// Tools the user allowed "for this session" in an earlier approval.
    pub session_allowances: &'a HashSet<String>,
    /// Under `daemon`: the tools a valid job authorization names (`None`: no authorization);
    /// `mcp__<server>__*` covers every tool of that MCP server.
    pub job_authorization: Option<&'a HashSet<String>>,
}

/// Decides one call:
/// 1. a tool the tool profile does not expose is denied;
/// 2. a matching user deny rule denies (deny always wins);
/// 3. the security profile's baseline: `public_gateway` denies high-risk tools and anything
///    tagged `fs.write`, `process.exec` or `mcp.read` (the user's MCP servers' resources); `daemon` denies high-risk tools not covered by the job
///    authorization; `personal_cli` asks for high-risk tools unless the session already allowed
///    the tool;
/// 4. a matching user allow rule turns an Ask into Allow (it never overrides a Deny).
pub fn decide(input: &PolicyInput<'_>) -> Decision {
    let tool = input.tool;
    let name = tool.name.as_str();
    if !exposed(input.tool_profile, name) {
        return Decision::Deny {
            reason: PolicyReason::NotExposed {
                tool: name.to_string(),
                profile: input.tool_profile,
            },
            by: Authority::Policy,
        };
    }
    if let Some((index, rule)) = first_rule(input, Effect::Deny) {
        return Decision::Deny {
            reason: PolicyReason::RuleRefuses {
                tool: name.to_string(),
                index,
                rule: rule.to_string(),
            },
            by: Authority::Rule { index },
        };
    }
    let security = input.security;
    let high_risk = tool.is_high_risk();
    let baseline = match security {
        SecurityProfile::PublicGateway => {
            if high_risk {
                Decision::Deny {
                    reason: PolicyReason::HighRiskRefused {
                        tool: name.to_string(),
                        security,
                    },
                    by: Authority::Policy,
                }
            } else if let Some(tag) = [
                Capability::FsWrite,
                Capability::ProcessExec,
                Capability::McpRead,
            ]
            .into_iter()
            .find(|tag| tool.has(*tag))
            {
                Decision::Deny {
                    reason: PolicyReason::TaggedRefused {
                        tool: name.to_string(),
                        security,
                        tag,
                    },
                    by: Authority::Policy,
                }
            } else {
                POLICY_ALLOWS
            }
        }
        SecurityProfile::Daemon if high_risk => {
            if input
                .job_authorization
                .is_some_and(|set| crate::authorization_covers(set, name))
            {
                Decision::Allow {
                    by: Authority::JobAuthorization,
                }
            } else {
                Decision::Deny {
                    reason: PolicyReason::NoJobAuthorization {
                        tool: name.to_string(),
                        security,
                        job: None,
                    },
                    by: Authority::Policy,
                }
            }
        }
        SecurityProfile::PersonalCli if high_risk => {
            if input.session_allowances.contains(name) {
                Decision::Allow {
                    by: Authority::SessionAllowance,
                }
            } else {
                Decision::Ask {
                    reason: PolicyReason::NeedsApproval {
                        tool: name.to_string(),
                        security,
                        every_time: false,
                    },
                }
            }
        }
        SecurityProfile::Daemon | SecurityProfile::PersonalCli => POLICY_ALLOWS,
    };
    match (baseline, first_rule(input, Effect::Allow)) {
        (Decision::Ask { .. }, Some((index, _))) => Decision::Allow {
            by: Authority::Rule { index },
        },
        (other, _) => other,
    }
}

/// Allowed by the baseline.
const POLICY_ALLOWS: Decision = Decision::Allow {
    by: Authority::Policy,
};

/// Decides a call that its tool says must always be confirmed by the user (a job
/// authorization, for one):
/// everything that would deny it still denies (profile exposure, deny rules, the security
/// baseline), but nothing lets it through unasked — neither an earlier "allow for this
/// session", nor an allow rule, nor a job authorization.
pub fn decide_always_ask(input: &PolicyInput<'_>) -> Decision {
    let nothing_allowed = HashSet::new();
    let strict = PolicyInput {
        session_allowances: &nothing_allowed,
        job_authorization: None,
        ..*input
    };
    match decide(&strict) {
        Decision::Allow { .. } => Decision::Ask {
            reason: PolicyReason::AlwaysConfirm {
                tool: input.tool.name.clone(),
            },
        },
        Decision::Ask {
            reason: PolicyReason::NeedsApproval { tool, security, .. },
        } => Decision::Ask {
            reason: PolicyReason::NeedsApproval {
                tool,
                security,
                every_time: true,
            },
        },
        other => other,
    }
}

/// The first rule with `effect` that is in force and matches, with its 1-based position.
fn first_rule<'a>(input: &PolicyInput<'a>, effect: Effect) -> Option<(usize, &'a Rule)> {
    input
        .rules
        .iter()
        .enumerate()
        .find(|(_, rule)| rule.effect == effect && rule.covers(input.tool, input.workspace))
        .map(|(index, rule)| (index + 1, rule))
}
