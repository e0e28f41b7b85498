//! The approval gate: asks a front end for a decision on high-risk calls and fails closed
//! (timeout, closed window or a dropped request all mean deny). The same front end answers the
//! questions the model asks (`clarify`) when a person is there to answer them, and the forms an
//! MCP server asks for when that front end shows a form card.

use std::time::Duration;

use hearth_protocol::{ApprovalDecision, AuditReason, Form, FormAnswer, ToolCall};

/// What the user is asked to approve.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApprovalRequest {
    pub request_id: String,
    pub session_id: String,
    pub call: ToolCall,
    pub reason: AuditReason,
}

/// A question the model asks the user (`clarify`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QuestionRequest {
    pub request_id: String,
    pub session_id: String,
    pub question: String,
    pub options: Vec<String>,
}

/// A form a call asks the user to fill in (an MCP server's elicitation).
#[derive(Debug, Clone, PartialEq)]
pub struct FormRequest {
    pub request_id: String,
    pub session_id: String,
    pub form: Form,
}

/// A front end that can ask the user. `None` means nobody could answer (treated as deny).
#[async_trait::async_trait]
pub trait Approver: Send + Sync {
    async fn decide(&self, request: &ApprovalRequest) -> Option<ApprovalDecision>;

    /// Whether a person can answer questions here (a window, a terminal). Default: no.
    fn answers_questions(&self) -> bool {
        false
    }

    /// The user's answer to `question`; `None` when nobody could answer.
    async fn answer(&self, _question: &QuestionRequest) -> Option<String> {
        None
    }

    /// Whether the front end shows a form as one card ([`Approver::fill`]); without one a form
    /// is asked as a question per field. Default: no.
    fn fills_forms(&self) -> bool {
        false
    }

    /// The user's answer to `form`; `None` when nobody could answer.
    async fn fill(&self, _form: &FormRequest) -> Option<FormAnswer> {
        None
    }

    /// Who answers, as the audit log records it: `user` for a person at the window or the
    /// terminal, the flag for an answer given on the command line.
    fn actor(&self) -> &'static str {
        "user"
    }

    /// Why nobody answered when [`Approver::decide`] gives no answer (the model reads it).
    fn unanswered(&self) -> &'static str {
        "no answer (window closed or no terminal)"
    }
}

/// An approver with a fixed answer (headless runs and tests).
#[derive(Debug, Clone, Copy)]
pub struct FixedApprover(pub ApprovalDecision);

#[async_trait::async_trait]
impl Approver for FixedApprover {
    async fn decide(&self, _request: &ApprovalRequest) -> Option<ApprovalDecision> {
        Some(self.0)
    }

    fn actor(&self) -> &'static str {
        "fixed answer"
    }
}

/// Asks `approver`, denying when it gives no answer within `timeout`. Returns the answer and
/// who gave it (the approver's actor, `timeout`, or why nobody answered).
pub async fn ask_with_timeout(
    approver: &dyn Approver,
    request: &ApprovalRequest,
    timeout: Duration,
) -> (ApprovalDecision, &'static str) {
    match tokio::time::timeout(timeout, approver.decide(request)).await {
        Ok(Some(decision)) => (decision, approver.actor()),
        Ok(None) => (ApprovalDecision::Deny, approver.unanswered()),
        Err(_) => (ApprovalDecision::Deny, "timeout"),
    }
}
