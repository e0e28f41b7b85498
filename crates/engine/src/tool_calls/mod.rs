//! Runs tool calls exactly as the agent does: asks policy about each, awaits approval when told
//! to, dispatches through the registry (read-only calls concurrently), audits every decision.

mod ask;

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use hearth_llm::ToolSpec;
use hearth_policy::{Decision, PolicyInput, Rule, SecurityProfile, ToolFacts, ToolProfile};
use hearth_protocol::{EngineEvent, ToolCall, ToolResult};
use hearth_store::{AuditDecision, AuditEntry, Store};
use hearth_tools::{ErrorKind, Registry, ToolContext, ToolError};
use tokio_util::sync::CancellationToken;

use crate::approval::Approver;
use crate::confirm::is_job_authorization;
use crate::engine::EventSink;
use crate::jobs::JobGrant;
use crate::EngineError;

/// Everything needed to judge and run tool calls; shared by the turn loop and `tools call`.
pub struct ToolRunner {
    registry: Arc<Registry>,
    specs: ProfileSpecs,
    pub approver: Arc<dyn Approver>,
    pub store: Arc<Store>,
    pub security: SecurityProfile,
    pub rules: Vec<Rule>,
    pub approval_timeout: Duration,
    pub data_dir: PathBuf,
    /// Under `daemon`: the authorization of the job whose run this runner serves.
    pub job_grant: Option<JobGrant>,
    /// Tools the user allowed "for this session", per session.
    allowances: Mutex<HashMap<String, HashSet<String>>>,
    /// High-risk tools refused for want of a job authorization, in call order.
    job_refusals: Mutex<Vec<String>>,
}

/// What each profile exposes, as the model sees it: built once, shared by every request.
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

    fn of(&self, profile: ToolProfile) -> &Arc<[ToolSpec]> {
        match profile {
            ToolProfile::Minimal => &self.minimal,
            ToolProfile::Messaging => &self.messaging,
            ToolProfile::Coding => &self.coding,
            ToolProfile::Full => &self.full,
        }
    }
}

/// Where and for whom calls run.
pub struct CallScope<'a> {
    pub session_id: &'a str,
    pub workspace: &'a Path,
    pub profile: ToolProfile,
}

/// A call that policy let through, or the error the model gets instead.
enum Verdict {
    Run,
    Refuse(ToolError),
}

impl ToolRunner {
    pub fn new(
        registry: Arc<Registry>,
        approver: Arc<dyn Approver>,
        store: Arc<Store>,
        security: SecurityProfile,
        data_dir: PathBuf,
    ) -> ToolRunner {
        ToolRunner {
            specs: ProfileSpecs::build(&registry),
            registry,
            approver,
            store,
            security,
            rules: Vec::new(),
            approval_timeout: Duration::from_secs(300),
            data_dir,
            job_grant: None,
            allowances: Mutex::new(HashMap::new()),
            job_refusals: Mutex::new(Vec::new()),
        }
    }

    /// Enforces the user's `rules` (see [`crate::enforced_rules`]).
    pub fn with_rules(mut self, rules: Vec<Rule>) -> ToolRunner {
        self.rules = rules;
        self
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
            });
            verdicts.push(self.judge(scope, call, sink).await?);
        }
        let ctx = ToolContext {
            workspace: scope.workspace.to_path_buf(),
            data_dir: self.data_dir.clone(),
            session_id: scope.session_id.to_string(),
            cancel: cancel.child_token(),
        };
        let read_only = calls.iter().zip(&verdicts).all(|(call, verdict)| {
            matches!(verdict, Verdict::Run)
                && self.registry.facts(&call.name).is_some_and(|f| !f.mutates)
        });
        if read_only && calls.len() > 1 {
            return Ok(futures::future::join_all(
                calls.iter().map(|call| self.execute(call, &ctx)),
            )
            .await);
        }
        let mut results = Vec::with_capacity(calls.len());
        for (call, verdict) in calls.iter().zip(verdicts) {
            results.push(match verdict {
                Verdict::Run => self.execute(call, &ctx).await,
                Verdict::Refuse(error) => error_result(call, &error, 0),
            });
        }
        Ok(results)
    }

    async fn execute(&self, call: &ToolCall, ctx: &ToolContext) -> ToolResult {
        let started = Instant::now();
        let outcome = self
            .registry
            .dispatch(&call.name, &call.arguments, ctx)
            .await;
        let duration_ms = started.elapsed().as_millis() as u64;
        match outcome {
            Ok(value) => ToolResult {
                call_id: call.id.clone(),
                name: call.name.clone(),
                content: value.to_string(),
                is_error: false,
                duration_ms,
            },
            Err(error) => error_result(call, &error, duration_ms),
        }
    }

    /// Decides whether a call may run, asking the user when policy says so; audits the outcome.
    /// `cronjob authorize` is always asked (never satisfied by an earlier "allow for this
    /// session" or an allow rule) and shows what the authorization binds.
    async fn judge(
        &self,
        scope: &CallScope<'_>,
        call: &ToolCall,
        sink: &EventSink,
    ) -> Result<Verdict, EngineError> {
        let Some(facts) = self.registry.facts(&call.name) else {
            // Unknown tools are refused by the registry with the list of known ones.
            return Ok(Verdict::Run);
        };
        let allowed = self.session_allowances(scope.session_id);
        let input = PolicyInput {
            tool: &facts,
            tool_profile: scope.profile,
            security: self.security,
            rules: &self.rules,
            workspace: Some(scope.workspace),
            session_allowances: &allowed,
            job_authorization: self.job_grant.as_ref().and_then(|g| g.tools.as_ref()),
        };
        let authorization = is_job_authorization(&facts.name, &call.arguments);
        let decision = if authorization {
            hearth_policy::decide_always_ask(&input)
        } else {
            hearth_policy::decide(&input)
        };
        let (verdict, decided, reason, actor) = match decision {
            Decision::Allow => (Verdict::Run, AuditDecision::Allow, None, "policy"),
            Decision::Deny { reason } => {
                let reason = self.explain_denial(&facts, reason);
                (
                    Verdict::Refuse(ToolError::new(ErrorKind::NotPermitted, reason.clone())),
                    AuditDecision::Deny,
                    Some(reason),
                    "policy",
                )
            }
            Decision::Ask { reason } => {
                let reason = if authorization {
                    crate::confirm::authorization_prompt(&self.store, &call.arguments, &reason)
                } else {
                    reason
                };
                self.ask(scope, call, &facts.name, reason, !authorization, sink)
                    .await
            }
        };
        self.store.record_audit(&AuditEntry {
            session_id: Some(scope.session_id.to_string()),
            tool: call.name.clone(),
            arguments: call.arguments.clone(),
            decision: decided,
            reason,
            actor: actor.to_string(),
        })?;
        Ok(verdict)
    }

    /// A denial under a job run says that the job needs (re-)approval, and is remembered for
    /// the run's report.
    fn explain_denial(&self, facts: &ToolFacts, reason: String) -> String {
        match &self.job_grant {
            Some(grant)
                if self.security == SecurityProfile::Daemon
                    && facts.is_high_risk()
                    && !grant.covers(&facts.name) =>
            {
                if let Ok(mut refusals) = self.job_refusals.lock() {
                    refusals.push(facts.name.clone());
                }
                format!("{reason}: {}", grant.refusal_note())
            }
            _ => reason,
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
    }
}
