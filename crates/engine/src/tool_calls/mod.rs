//! Runs tool calls exactly as the agent does: prepares each through the registry (its arguments
//! checked once, the tool saying what the call does), asks policy about it, awaits approval when
//! told to, runs it (read-only calls concurrently), and audits every decision with who made it.

mod ask;
mod chat_sandbox;
mod conversation;
mod judge;
mod run;
mod skill;
mod specs;
mod subagent;

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use hearth_llm::ToolSpec;
use hearth_policy::{Rule, SecurityProfile, SkillGrant, ToolProfile};
use hearth_protocol::{Language, ToolCall, ToolResult};
use hearth_store::Db;
use hearth_tools::{result_views, Registry};

use crate::approval::Approver;
use crate::engine::EventSink;
use crate::jobs::JobGrant;
pub use chat_sandbox::ChatSandboxes;
use judge::Verdict;
#[cfg(test)]
use judge::SANDBOXED_IN_CHAT;
use specs::ProfileSpecs;

/// Everything needed to judge and run tool calls; shared by the turn loop and `tools call`.
pub struct ToolRunner {
    registry: Arc<Registry>,
    specs: ProfileSpecs,
    pub approver: Arc<dyn Approver>,
    pub db: Db,
    pub security: SecurityProfile,
    pub rules: Vec<Rule>,
    pub approval_timeout: Duration,
    /// How long a question the model asks (`clarify`) waits for the user.
    pub question_timeout: Duration,
    pub data_dir: PathBuf,
    /// The OS sandbox of the programs tools start (`[security]`).
    pub sandbox: hearth_sandbox::Settings,
    /// Rules widening the sandbox of some commands or skills (`[[security.grants]]`).
    pub grants: Vec<hearth_protocol::SandboxGrant>,
    /// What each chat chose about its commands' sandbox.
    chats: Arc<ChatSandboxes>,
    /// Under `daemon`: the authorization of the job whose run this runner serves.
    pub job_grant: Option<JobGrant>,
    /// In a skill run: what the skill declares it may use (see [`ToolRunner::with_skill_grant`]).
    skill_grant: Option<SkillGrant>,
    /// In a sub-agent's runner: the only tools it may call (see [`ToolRunner::for_child`]).
    only: Option<Arc<HashSet<String>>>,
    /// Tools the user allowed "for this session", per session.
    allowances: Mutex<HashMap<String, HashSet<String>>>,
    /// High-risk tools refused for want of a job authorization, in call order.
    job_refusals: Mutex<Vec<String>>,
}

/// Where and for whom calls run.
pub struct CallScope<'a> {
    pub session_id: &'a str,
    pub workspace: &'a Path,
    pub profile: ToolProfile,
    /// The language the user reads (questions Hearth words itself are asked in it).
    pub language: Language,
}

impl ToolRunner {
    pub fn new(
        registry: Arc<Registry>,
        approver: Arc<dyn Approver>,
        db: impl Into<Db>,
        security: SecurityProfile,
        data_dir: PathBuf,
    ) -> ToolRunner {
        ToolRunner {
            specs: ProfileSpecs::build(&registry),
            registry,
            approver,
            db: db.into(),
            security,
            rules: Vec::new(),
            approval_timeout: Duration::from_secs(300),
            question_timeout: Duration::from_secs(600),
            data_dir,
            sandbox: hearth_sandbox::Settings::default(),
            grants: Vec::new(),
            chats: Arc::default(),
            job_grant: None,
            skill_grant: None,
            only: None,
            allowances: Mutex::new(HashMap::new()),
            job_refusals: Mutex::new(Vec::new()),
        }
    }

    /// Enforces the user's `rules` (see [`crate::enforced_rules`]).
    pub fn with_rules(mut self, rules: Vec<Rule>) -> ToolRunner {
        self.rules = rules;
        self
    }

    /// Runs the programs tools start in the sandbox `settings` describe.
    pub fn with_sandbox(mut self, settings: hearth_sandbox::Settings) -> ToolRunner {
        self.sandbox = settings;
        self
    }

    /// Widens the sandbox of the commands and skills `grants` name.
    pub fn with_grants(mut self, grants: Vec<hearth_protocol::SandboxGrant>) -> ToolRunner {
        self.grants = grants;
        self
    }

    /// Keeps the chats' sandbox choices in `chats` (shared with the runners built before and
    /// after this one).
    pub fn with_chat_sandboxes(mut self, chats: Arc<ChatSandboxes>) -> ToolRunner {
        self.chats = chats;
        self
    }

    /// What the chat `session_id` chose about its commands' sandbox.
    pub fn chat_sandbox(&self, session_id: &str) -> hearth_protocol::ChatSandbox {
        self.chats.get(session_id)
    }

    /// Records what the chat `session_id` chose (e.g. turning "without asking" off).
    pub fn set_chat_sandbox(&self, session_id: &str, choice: hearth_protocol::ChatSandbox) {
        self.chats.set(session_id, choice);
    }

    /// Serves one job run: high-risk tools only as far as `grant` covers them.
    pub fn with_job_grant(mut self, grant: JobGrant) -> ToolRunner {
        self.job_grant = Some(grant);
        self
    }

    /// High-risk tools refused so far because the job's authorization did not cover them.
    pub fn job_refusals(&self) -> Vec<String> {
        self.job_refusals
            .lock()
            .map(|r| r.clone())
            .unwrap_or_default()
    }

    /// The tools `profile` exposes, as the model sees them.
    pub fn specs(&self, profile: ToolProfile) -> Arc<[ToolSpec]> {
        Arc::clone(self.specs.of(profile))
    }

    /// The canonical tool the model's name `name` stands for in this runner's registry.
    fn canonical(&self, name: &str) -> Option<String> {
        self.registry.facts(name).map(|facts| facts.name)
    }

    /// `result` with the views its tool card shows, built with the call it answers among
    /// `calls` and its canonical tool in this runner's registry.
    pub fn viewed(&self, calls: &[ToolCall], mut result: ToolResult) -> ToolResult {
        let canonical = self.canonical(&result.name);
        let arguments = calls
            .iter()
            .find(|call| call.id == result.call_id)
            .map_or("", |call| call.arguments.as_str());
        result.views = result_views(canonical.as_deref(), arguments, &result);
        result
    }
}

#[cfg(test)]
#[path = "runner_tests.rs"]
mod tests;
