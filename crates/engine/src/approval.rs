//! The approval gate: asks a front end for a decision on high-risk calls and fails closed
//! (timeout, closed window or a dropped request all mean deny).

use std::time::Duration;

use hearth_protocol::{ApprovalDecision, ToolCall};

/// What the user is asked to approve.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApprovalRequest {
    pub request_id: String,
    pub session_id: String,
    pub call: ToolCall,
    pub reason: String,
}

/// A front end that can ask the user. `None` means nobody could answer (treated as deny).
#[async_trait::async_trait]
pub trait Approver: Send + Sync {
    async fn decide(&self, request: &ApprovalRequest) -> Option<ApprovalDecision>;
}

/// An approver with a fixed answer (the CLI's `--approve` / `--deny`, headless runs).
#[derive(Debug, Clone, Copy)]
pub struct FixedApprover(pub ApprovalDecision);

#[async_trait::async_trait]
impl Approver for FixedApprover {
    async fn decide(&self, _request: &ApprovalRequest) -> Option<ApprovalDecision> {
        Some(self.0)
    }
}

/// Asks `approver`, denying when it gives no answer within `timeout`.
pub async fn ask_with_timeout(
    approver: &dyn Approver,
    request: &ApprovalRequest,
    timeout: Duration,
) -> (ApprovalDecision, &'static str) {
    match tokio::time::timeout(timeout, approver.decide(request)).await {
        Ok(Some(decision)) => (decision, "user"),
        Ok(None) => (
            ApprovalDecision::Deny,
            "no answer (window closed or no terminal)",
        ),
        Err(_) => (ApprovalDecision::Deny, "timeout"),
    }
}
