//! A sub-agent's side of the tool runner: the parent's registry, policy, rules and grants, with
//! only the tools the child was given offered, a call to any other refused, and approvals asked
//! through the child's approver.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};

use hearth_protocol::ToolCall;
use hearth_tools::{ErrorKind, ToolError};

use super::{ToolRunner, Verdict};
use crate::approval::Approver;

impl ToolRunner {
    /// A runner for a child agent: the same tools, policy, rules, job and skill grants, but only
    /// the tools named in `only` (never more than this runner offers), its own "allow for this
    /// session" memory, and `approver` asking for it.
    pub fn for_child(&self, only: HashSet<String>, approver: Arc<dyn Approver>) -> ToolRunner {
        let mut specs = self.specs.clone();
        specs.retain(|name| only.contains(name));
        ToolRunner {
            registry: Arc::clone(&self.registry),
            specs,
            approver,
            db: self.db.clone(),
            security: self.security,
            rules: self.rules.clone(),
            approval_timeout: self.approval_timeout,
            question_timeout: self.question_timeout,
            data_dir: self.data_dir.clone(),
            sandbox: self.sandbox.clone(),
            grants: self.grants.clone(),
            chats: Arc::clone(&self.chats),
            job_grant: self.job_grant.clone(),
            skill_grant: self.skill_grant.clone(),
            only: Some(Arc::new(only)),
            allowances: Mutex::new(HashMap::new()),
            job_refusals: Mutex::new(Vec::new()),
        }
    }

    /// The facts of the tool the model calls `name`, as the registry has them.
    pub fn facts(&self, name: &str) -> Option<hearth_policy::ToolFacts> {
        self.registry.facts(name)
    }

    /// In a child's runner, the refusal of a call to a tool it was not given.
    pub(super) fn outside_child(&self, call: &ToolCall) -> Option<Verdict> {
        let only = self.only.as_ref()?;
        if only.contains(&call.name) {
            return None;
        }
        let mut given: Vec<&str> = only.iter().map(String::as_str).collect();
        given.sort_unstable();
        Some(Verdict::Refuse(ToolError::new(
            ErrorKind::NotFound,
            format!(
                "no tool named `{}` is available to this sub-agent; its tools: {}",
                call.name,
                if given.is_empty() {
                    "none".to_string()
                } else {
                    given.join(", ")
                }
            ),
        )))
    }
}
