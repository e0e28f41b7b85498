//! Table tests of `decide`: security baselines, session allowances, job authorizations, rules;
//! the case builder and expected decisions they share.

mod baselines;
mod rules;
mod serialise;

use hearth_policy::{
    canonical_tool, decide, mcp_tool_facts, Authority, Decision, PolicyInput, Rule,
    SecurityProfile, ToolFacts, ToolProfile,
};
use std::collections::HashSet;
use std::path::Path;

fn facts(name: &str) -> ToolFacts {
    match canonical_tool(name) {
        Some(tool) => tool.facts(),
        None => panic!("{name} is not in the catalogue"),
    }
}

fn names(list: &[&str]) -> HashSet<String> {
    list.iter().map(|s| s.to_string()).collect()
}

struct Case<'a> {
    tool: ToolFacts,
    profile: ToolProfile,
    security: SecurityProfile,
    rules: &'a [Rule],
    workspace: Option<&'a str>,
    session: HashSet<String>,
    job: Option<HashSet<String>>,
}

impl<'a> Case<'a> {
    fn new(tool: &str, security: SecurityProfile) -> Self {
        let tool = if tool.starts_with("mcp__") {
            mcp_tool_facts(tool)
        } else {
            facts(tool)
        };
        Case {
            tool,
            profile: ToolProfile::Full,
            security,
            rules: &[],
            workspace: Some("/home/u/ws"),
            session: HashSet::new(),
            job: None,
        }
    }

    fn decide(&self) -> Said {
        Said::from(decide(&PolicyInput {
            tool: &self.tool,
            tool_profile: self.profile,
            security: self.security,
            rules: self.rules,
            workspace: self.workspace.map(Path::new),
            session_allowances: &self.session,
            job_authorization: self.job.as_ref(),
        }))
    }
}

/// A decision with its reason as the English text the model and the CLI read.
#[derive(Debug, PartialEq)]
enum Said {
    Allow(Authority),
    Ask(String),
    Deny(String, Authority),
}

impl From<Decision> for Said {
    fn from(decision: Decision) -> Said {
        match decision {
            Decision::Allow { by } => Said::Allow(by),
            Decision::Ask { reason } => Said::Ask(reason.to_string()),
            Decision::Deny { reason, by } => Said::Deny(reason.to_string(), by),
        }
    }
}

fn ask(reason: &str) -> Said {
    Said::Ask(reason.to_string())
}

fn deny(reason: &str) -> Said {
    Said::Deny(reason.to_string(), Authority::Policy)
}

fn rule_deny(index: usize, reason: &str) -> Said {
    Said::Deny(reason.to_string(), Authority::Rule { index })
}

fn allow(by: Authority) -> Said {
    Said::Allow(by)
}
