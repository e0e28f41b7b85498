//! Runs tool calls exactly as the agent does: prepares each through the registry (its arguments
//! checked once, the tool saying what the call does), asks policy about it, awaits approval when
//! told to, runs it (read-only calls concurrently), and audits every decision with who made it.

mod ask;
mod chat_sandbox;
mod conversation;
mod skill;
mod subagent;

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use hearth_llm::ToolSpec;
use hearth_policy::{
    Decision, PolicyInput, Rule, SecurityProfile, SkillGrant, ToolFacts, ToolProfile,
};
use hearth_protocol::{
    AllowedFor, AuditReason, EngineEvent, Language, PolicyReason, ToolCall, ToolResult,
};
use hearth_store::{AuditDecision, AuditEntry, Db};
use hearth_tools::{
    call_views, result_views, Conversation, ErrorKind, PreparedCall, Registry, ToolContext,
    ToolError,
};
use tokio_util::sync::CancellationToken;

use crate::approval::Approver;
use crate::engine::EventSink;
use crate::jobs::JobGrant;
use crate::EngineError;
pub use chat_sandbox::ChatSandboxes;
use conversation::TurnConversation;

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

/// What each profile exposes, as the model sees it: built once, shared by every request.
#[derive(Clone)]
struct ProfileSpecs {
    minimal: Arc<[ToolSpec]>,
    messaging: Arc<[ToolSpec]>,
    coding: Arc<[ToolSpec]>,
    full: Arc<[ToolSpec]>,
}

impl ProfileSpecs {
    fn build(registry: &Registry) -> ProfileSpecs {
        let exposed = |profile| -> Arc<[ToolSpec]> {
            registry
                .specs(profile)
                .into_iter()
                .map(|s| ToolSpec {
                    name: s.name,
                    description: s.description,
                    parameters: s.parameters,
                })
                .collect()
        };
        ProfileSpecs {
            minimal: exposed(ToolProfile::Minimal),
            messaging: exposed(ToolProfile::Messaging),
            coding: exposed(ToolProfile::Coding),
            full: exposed(ToolProfile::Full),
        }
    }

    /// Keeps only the tools `keep` accepts (by the name the model calls).
    fn retain(&mut self, keep: impl Fn(&str) -> bool) {
        let only = |specs: &Arc<[ToolSpec]>| -> Arc<[ToolSpec]> {
            specs.iter().filter(|s| keep(&s.name)).cloned().collect()
        };
        *self = ProfileSpecs {
            minimal: only(&self.minimal),
            messaging: only(&self.messaging),
            coding: only(&self.coding),
            full: only(&self.full),
        };
    }

    fn of(&self, profile: ToolProfile) -> &Arc<[ToolSpec]> {
        match profile {
            ToolProfile::Minimal => &self.minimal,
            ToolProfile::Messaging => &self.messaging,
            ToolProfile::Coding => &self.coding,
            ToolProfile::Full => &self.full,
        }
    }
}

/// The audit log's actor of a call run without asking because its chat runs sandboxed commands
/// without asking.
const SANDBOXED_IN_CHAT: &str = "chat (sandboxed commands without asking)";

/// Where and for whom calls run.
pub struct CallScope<'a> {
    pub session_id: &'a str,
    pub workspace: &'a Path,
    pub profile: ToolProfile,
    /// The language the user reads (questions Hearth words itself are asked in it).
    pub language: Language,
}

/// A call that policy let through, ready to run, or the error the model gets instead.
enum Verdict {
    /// Runs, in the sandbox the user widened for it when they did.
    Run(PreparedCall, Option<ask::Widened>),
    Refuse(ToolError),
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

    /// Judges every call (in order, asking the user when needed), then runs the permitted ones:
    /// concurrently when all of them are read-only, else one after another. Results come back in
    /// call order.
    pub async fn run_calls(
        &self,
        scope: &CallScope<'_>,
        message_id: i64,
        calls: &[ToolCall],
        sink: &EventSink,
        cancel: &CancellationToken,
    ) -> Result<Vec<ToolResult>, EngineError> {
        let mut verdicts = Vec::with_capacity(calls.len());
        for call in calls {
            sink(EngineEvent::ToolCallStarted {
                message_id,
                call: call.clone(),
                views: call_views(self.canonical(&call.name).as_deref(), &call.arguments),
            });
            verdicts.push(self.judge(scope, call, sink).await?);
        }
        let (events, mut shown) = tokio::sync::mpsc::unbounded_channel();
        // Nobody attends a run under `daemon`: nothing to show, nobody to ask.
        let conversation = (self.security != SecurityProfile::Daemon).then(|| {
            Arc::new(TurnConversation {
                session_id: scope.session_id.to_string(),
                events,
                approver: self.approver.clone(),
                timeout: self.question_timeout,
                language: scope.language,
            }) as Arc<dyn Conversation>
        });
        let ctx = ToolContext {
            workspace: scope.workspace.to_path_buf(),
            data_dir: self.data_dir.clone(),
            session_id: scope.session_id.to_string(),
            cancel: cancel.child_token(),
            images: Default::default(),
            conversation,
            sandbox: self.sandbox.clone(),
        };
        let work = self.run_judged(calls, verdicts, &ctx);
        tokio::pin!(work);
        let results = loop {
            tokio::select! {
                results = &mut work => break results,
                Some(event) = shown.recv() => sink(event),
            }
        };
        while let Ok(event) = shown.try_recv() {
            sink(event);
        }
        Ok(results)
    }

    /// Runs the judged calls: concurrently when all of them are read-only, else one after
    /// another; results in call order.
    async fn run_judged(
        &self,
        calls: &[ToolCall],
        verdicts: Vec<Verdict>,
        ctx: &ToolContext,
    ) -> Vec<ToolResult> {
        let read_only = verdicts
            .iter()
            .all(|verdict| matches!(verdict, Verdict::Run(prepared, _) if !prepared.facts.mutates));
        if read_only && calls.len() > 1 {
            return futures::future::join_all(
                calls
                    .iter()
                    .zip(verdicts)
                    .map(|(call, verdict)| self.settle(call, verdict, ctx)),
            )
            .await;
        }
        let mut results = Vec::with_capacity(calls.len());
        for (call, verdict) in calls.iter().zip(verdicts) {
            results.push(self.settle(call, verdict, ctx).await);
        }
        results
    }

    /// Runs a permitted call, or reports the refusal.
    async fn settle(&self, call: &ToolCall, verdict: Verdict, ctx: &ToolContext) -> ToolResult {
        let (prepared, widened) = match verdict {
            Verdict::Run(prepared, widened) => (prepared, widened),
            Verdict::Refuse(error) => return error_result(call, &error, 0),
        };
        let started = Instant::now();
        let mut ctx = ctx.for_call();
        ctx.sandbox = self.call_sandbox(&ctx.session_id, call, &prepared.facts);
        if let Some(widened) = widened {
            widened.apply(&mut ctx.sandbox);
        }
        let outcome = self.registry.run(prepared, &ctx).await;
        let duration_ms = started.elapsed().as_millis() as u64;
        match outcome {
            Ok(value) => ToolResult {
                call_id: call.id.clone(),
                name: call.name.clone(),
                content: value.to_string(),
                is_error: false,
                duration_ms,
                images: ctx.images.take(),
                views: Vec::new(),
            },
            Err(error) => error_result(call, &error, duration_ms),
        }
    }

    /// Decides whether a call may run, asking the user when policy says so; audits the outcome
    /// with who decided. A call its tool says is always asked is never let through by an earlier
    /// "allow for this session", an allow rule or a job authorization, and the user sees the
    /// tool's own confirmation text.
    async fn judge(
        &self,
        scope: &CallScope<'_>,
        call: &ToolCall,
        sink: &EventSink,
    ) -> Result<Verdict, EngineError> {
        if let Some(refused) = self.outside_child(call) {
            return Ok(refused);
        }
        if let Some(refused) = self.outside_skill(scope, call).await? {
            return Ok(refused);
        }
        let prepared = match self.registry.prepare(&call.name, &call.arguments) {
            Ok(prepared) => prepared,
            Err(error) => return self.refuse_unprepared(scope, call, error).await,
        };
        let decision = self.decide(scope, &prepared.facts, prepared.always_ask);
        if let Decision::Ask { reason } = &decision {
            if self
                .runs_without_asking(scope.session_id, call, &prepared.facts, prepared.always_ask)
                .await
            {
                let reason = AuditReason {
                    allowed: Some(AllowedFor::SandboxedInChat),
                    ..AuditReason::new(reason.clone())
                };
                self.audit(
                    scope,
                    call,
                    AuditDecision::Allow,
                    Some(reason),
                    SANDBOXED_IN_CHAT.into(),
                )
                .await?;
                return Ok(Verdict::Run(prepared, None));
            }
        }
        let (verdict, decided, reason, actor) = match decision {
            Decision::Allow { by } => (
                Verdict::Run(prepared, None),
                AuditDecision::Allow,
                None,
                by.to_string(),
            ),
            Decision::Deny { reason, by } => {
                let reason = self.explain_denial(&prepared.facts, reason);
                (
                    Verdict::Refuse(ToolError::new(ErrorKind::NotPermitted, reason.to_string())),
                    AuditDecision::Deny,
                    Some(AuditReason::new(reason)),
                    by.to_string(),
                )
            }
            Decision::Ask { reason } => {
                let reason = AuditReason {
                    confirmation: prepared.confirmation.clone(),
                    ..AuditReason::new(reason)
                };
                let answer = self
                    .ask(
                        scope,
                        call,
                        &prepared.facts,
                        reason,
                        !prepared.always_ask,
                        sink,
                    )
                    .await;
                let verdict = match answer.refusal {
                    None => Verdict::Run(prepared, answer.widened),
                    Some(error) => Verdict::Refuse(error),
                };
                (verdict, answer.decided, Some(answer.reason), answer.actor)
            }
        };
        self.audit(scope, call, decided, reason, actor).await?;
        Ok(verdict)
    }

    /// A call the registry could not prepare (unknown tool, bad arguments) never runs and
    /// nobody is asked about it; the model reads why. When policy would refuse the tool anyway,
    /// the refusal wins and is audited.
    async fn refuse_unprepared(
        &self,
        scope: &CallScope<'_>,
        call: &ToolCall,
        error: ToolError,
    ) -> Result<Verdict, EngineError> {
        let Some(facts) = self.registry.facts(&call.name) else {
            return Ok(Verdict::Refuse(error));
        };
        match self.decide(scope, &facts, false) {
            Decision::Deny { reason, by } => {
                let reason = self.explain_denial(&facts, reason);
                let text = reason.to_string();
                self.audit(
                    scope,
                    call,
                    AuditDecision::Deny,
                    Some(AuditReason::new(reason)),
                    by.to_string(),
                )
                .await?;
                Ok(Verdict::Refuse(ToolError::new(
                    ErrorKind::NotPermitted,
                    text,
                )))
            }
            Decision::Allow { .. } | Decision::Ask { .. } => Ok(Verdict::Refuse(error)),
        }
    }

    /// Policy's decision on a call with `facts` in `scope`.
    fn decide(&self, scope: &CallScope<'_>, facts: &ToolFacts, always_ask: bool) -> Decision {
        let allowed = self.session_allowances(scope.session_id);
        let input = PolicyInput {
            tool: facts,
            tool_profile: scope.profile,
            security: self.security,
            rules: &self.rules,
            workspace: Some(scope.workspace),
            session_allowances: &allowed,
            job_authorization: self.job_grant.as_ref().and_then(|g| g.tools.as_ref()),
        };
        if always_ask {
            hearth_policy::decide_always_ask(&input)
        } else {
            hearth_policy::decide(&input)
        }
    }

    async fn audit(
        &self,
        scope: &CallScope<'_>,
        call: &ToolCall,
        decision: AuditDecision,
        reason: Option<AuditReason>,
        actor: String,
    ) -> Result<(), EngineError> {
        let entry = AuditEntry {
            session_id: Some(scope.session_id.to_string()),
            tool: call.name.clone(),
            arguments: call.arguments.clone(),
            decision,
            reason: reason.as_ref().map(ToString::to_string),
            reason_code: reason,
            actor,
        };
        self.db
            .write(move |store| store.record_audit(&entry))
            .await?;
        Ok(())
    }

    /// A denial under a job run says what the job's authorization lacks, and is remembered
    /// for the run's report.
    fn explain_denial(&self, facts: &ToolFacts, reason: PolicyReason) -> PolicyReason {
        let Some(grant) = &self.job_grant else {
            return reason;
        };
        if self.security != SecurityProfile::Daemon
            || !facts.is_high_risk()
            || grant.covers(&facts.name)
        {
            return reason;
        }
        if let Ok(mut refusals) = self.job_refusals.lock() {
            refusals.push(facts.name.clone());
        }
        match reason {
            PolicyReason::NoJobAuthorization { tool, security, .. } => {
                PolicyReason::NoJobAuthorization {
                    tool,
                    security,
                    job: Some(grant.refusal_note()),
                }
            }
            other => other,
        }
    }
}

fn error_result(call: &ToolCall, error: &ToolError, duration_ms: u64) -> ToolResult {
    ToolResult {
        call_id: call.id.clone(),
        name: call.name.clone(),
        content: error.to_json().to_string(),
        is_error: true,
        duration_ms,
        images: Vec::new(),
        views: Vec::new(),
    }
}

#[cfg(test)]
#[path = "runner_tests.rs"]
mod tests;
