//! The decision function: profile exposure, user deny rules, the security baseline, allow rules.

use crate::capability::Capability;
use crate::catalogue::ToolFacts;
use crate::profile::{exposed, SecurityProfile, ToolProfile};
use crate::rules::{Effect, Rule};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::path::Path;

/// The outcome for one tool call. Every reason names the profile or rule that decided.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "decision", rename_all = "snake_case")]
pub enum Decision {
    Allow,
    /// Wait for the user (allow once / allow for this session / deny). Fails closed.
    Ask {
        reason: String,
    },
    Deny {
        reason: String,
    },
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
    /// Under `daemon`: the tools a valid job authorization covers (`None`: no authorization).
    pub job_authorization: Option<&'a HashSet<String>>,
}

/// Decides one call (SPEC §4):
/// 1. a tool the tool profile does not expose is denied;
/// 2. a matching user deny rule denies (deny always wins);
/// 3. the security profile's baseline: `public_gateway` denies high-risk tools and anything
///    tagged `fs.write` or `process.exec`; `daemon` denies high-risk tools not covered by the job
///    authorization; `personal_cli` asks for high-risk tools unless the session already allowed
///    the tool;
/// 4. a matching user allow rule turns an Ask into Allow (it never overrides a Deny).
pub fn decide(input: &PolicyInput<'_>) -> Decision {
    let tool = input.tool;
    let name = tool.name.as_str();
    if !exposed(input.tool_profile, name) {
        return Decision::Deny {
            reason: format!("tool profile {} does not expose {name}", input.tool_profile),
        };
    }
    if let Some((index, rule)) = first_rule(input, Effect::Deny) {
        return Decision::Deny {
            reason: format!("user rule #{index} ({rule}) refuses {name}"),
        };
    }
    let security = input.security;
    let high_risk = tool.is_high_risk();
    let baseline = match security {
        SecurityProfile::PublicGateway => {
            if high_risk {
                Decision::Deny {
                    reason: format!("security profile {security} refuses high-risk tool {name}"),
                }
            } else if let Some(tag) = [Capability::FsWrite, Capability::ProcessExec]
                .into_iter()
                .find(|tag| tool.has(*tag))
            {
                Decision::Deny {
                    reason: format!("security profile {security} refuses {name} (tagged {tag})"),
                }
            } else {
                Decision::Allow
            }
        }
        SecurityProfile::Daemon if high_risk => {
            if input
                .job_authorization
                .is_some_and(|set| set.contains(name))
            {
                Decision::Allow
            } else {
                Decision::Deny {
                    reason: format!(
                        "security profile {security} refuses high-risk tool {name} without a job \
                         authorization covering it"
                    ),
                }
            }
        }
        SecurityProfile::PersonalCli if high_risk && !input.session_allowances.contains(name) => {
            Decision::Ask {
                reason: format!(
                    "security profile {security}: {name} is high-risk and needs your approval"
                ),
            }
        }
        SecurityProfile::Daemon | SecurityProfile::PersonalCli => Decision::Allow,
    };
    match baseline {
        Decision::Ask { .. } if first_rule(input, Effect::Allow).is_some() => Decision::Allow,
        other => other,
    }
}

/// Decides a call that must always be confirmed by the user, such as `cronjob authorize`:
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
        Decision::Allow => Decision::Ask {
            reason: format!(
                "{} always needs your confirmation; it is never allowed for a whole session or \
                 by a rule",
                input.tool.name
            ),
        },
        Decision::Ask { reason } => Decision::Ask {
            reason: format!("{reason}; this action is asked every time"),
        },
        deny => deny,
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
