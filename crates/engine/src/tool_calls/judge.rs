//! Judging a call before it runs: policy's decision, the user's answer when asked, and the
//! audit entry of every decision with who made it.

use hearth_policy::{Decision, PolicyInput, SecurityProfile, ToolFacts};
use hearth_protocol::{AllowedFor, AuditReason, PolicyReason, ToolCall};
use hearth_store::{AuditDecision, AuditEntry};
use hearth_tools::{ErrorKind, PreparedCall, ToolError};

use super::{ask, CallScope, EventSink, ToolRunner};
use crate::EngineError;

/// The audit log's actor of a call run without asking because its chat runs sandboxed commands
/// without asking.
pub(super) const SANDBOXED_IN_CHAT: &str = "chat (sandboxed commands without asking)";

/// A call that policy let through, ready to run, or the error the model gets instead.
pub(super) enum Verdict {
    /// Runs, in the sandbox the user widened for it when they did.
    Run(PreparedCall, Option<ask::Widened>),
    Refuse(ToolError),
}

impl ToolRunner {
    /// Decides whether a call may run, asking the user when policy says so; audits the outcome
    /// with who decided. A call its tool says is always asked is never let through by an earlier
    /// "allow for this session", an allow rule or a job authorization, and the user sees the
    /// tool's own confirmation text.
    pub(super) async fn judge(
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
        let prepared = match self.registry.prepare(&call.name, &call.arguments).await {
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

    pub(super) async fn audit(
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
