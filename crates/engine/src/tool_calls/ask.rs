//! Asking the user about a call, the tools a session allowed "for this session", and the
//! sandbox choices an answer makes for the call or its chat.

use std::collections::HashSet;

use hearth_policy::{Capability, ToolFacts};
use hearth_protocol::{AllowedFor, ApprovalDecision, AuditReason, EngineEvent, ToolCall};
use hearth_store::AuditDecision;
use hearth_tools::{proposed_view, ErrorKind, ToolError};

use super::{CallScope, ToolRunner};
use crate::approval::{ask_with_timeout, ApprovalRequest};
use crate::engine::EventSink;

/// What the user (or whoever answered for them) said about a call.
pub(super) struct Answer {
    /// Why the call may not run; `None` when it may.
    pub refusal: Option<ToolError>,
    pub decided: AuditDecision,
    /// The reason the audit log keeps.
    pub reason: AuditReason,
    /// Who answered: `user`, a CLI flag, `timeout`…
    pub actor: String,
    /// How the user widened the sandbox for this one call.
    pub widened: Option<Widened>,
}

/// A sandbox widened for one call by the user's answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Widened {
    Network,
    Unsandboxed,
}

impl Widened {
    /// `sandbox` with this widening.
    pub(super) fn apply(self, sandbox: &mut hearth_sandbox::Settings) {
        match self {
            Widened::Network => sandbox.network = true,
            Widened::Unsandboxed => sandbox.mode = hearth_sandbox::Mode::Off,
        }
    }
}

impl ToolRunner {
    /// Asks the user about a call of the tool with `facts`, showing what an edit would change;
    /// "allow for this session" is remembered only when `rememberable`.
    pub(super) async fn ask(
        &self,
        scope: &CallScope<'_>,
        call: &ToolCall,
        facts: &ToolFacts,
        reason: AuditReason,
        rememberable: bool,
        sink: &EventSink,
    ) -> Answer {
        let request = ApprovalRequest {
            request_id: uuid::Uuid::new_v4().to_string(),
            session_id: scope.session_id.to_string(),
            call: call.clone(),
            reason: reason.clone(),
        };
        sink(EngineEvent::ApprovalRequested {
            request_id: request.request_id.clone(),
            session_id: scope.session_id.to_string(),
            call: call.clone(),
            reason: reason.to_string(),
            reason_code: Box::new(reason.clone()),
            agent: None,
            view: proposed_view(&facts.name, &call.arguments),
            starts_programs: facts.has(Capability::ProcessExec),
        });
        let (answer, actor) =
            ask_with_timeout(self.approver.as_ref(), &request, self.approval_timeout).await;
        sink(EngineEvent::ApprovalResolved {
            request_id: request.request_id.clone(),
            decision: answer,
        });
        let actor = actor.to_string();
        match answer {
            ApprovalDecision::AllowSession if rememberable => {
                self.allow_for_session(scope.session_id, &facts.name);
                Answer {
                    refusal: None,
                    decided: AuditDecision::Allow,
                    reason: AuditReason {
                        allowed: Some(AllowedFor::Session),
                        ..reason
                    },
                    actor,
                    widened: None,
                }
            }
            ApprovalDecision::AllowOnce
            | ApprovalDecision::AllowSession
            | ApprovalDecision::AllowWithNetwork
            | ApprovalDecision::AllowUnsandboxed
            | ApprovalDecision::AllowSandboxedInChat
            | ApprovalDecision::AllowUnsandboxedInChat => Answer {
                refusal: None,
                decided: AuditDecision::Allow,
                reason: AuditReason {
                    allowed: Some(AllowedFor::Once),
                    ..reason
                },
                actor,
                widened: match answer {
                    ApprovalDecision::AllowWithNetwork => Some(Widened::Network),
                    ApprovalDecision::AllowUnsandboxed => Some(Widened::Unsandboxed),
                    ApprovalDecision::AllowSandboxedInChat => {
                        self.chats.update(scope.session_id, |chat| {
                            chat.sandboxed_without_asking = true;
                        });
                        None
                    }
                    ApprovalDecision::AllowUnsandboxedInChat => {
                        self.chats
                            .update(scope.session_id, |chat| chat.unsandboxed = true);
                        Some(Widened::Unsandboxed)
                    }
                    _ => None,
                },
            },
            ApprovalDecision::Deny => Answer {
                refusal: Some(ToolError::new(
                    ErrorKind::DeniedByUser,
                    format!("the user did not approve this call ({actor})"),
                )),
                decided: AuditDecision::Deny,
                reason,
                actor,
                widened: None,
            },
        }
    }

    pub(super) fn session_allowances(&self, session_id: &str) -> HashSet<String> {
        self.allowances
            .lock()
            .map(|a| a.get(session_id).cloned().unwrap_or_default())
            .unwrap_or_default()
    }

    fn allow_for_session(&self, session_id: &str, tool: &str) {
        if let Ok(mut allowances) = self.allowances.lock() {
            allowances
                .entry(session_id.to_string())
                .or_default()
                .insert(tool.to_string());
        }
    }
}
