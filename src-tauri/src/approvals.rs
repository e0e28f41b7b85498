//! Approvals in the window: a pending request waits for the approval card's answer; closing the
//! window (or dropping the request) denies it.

use std::collections::HashMap;
use std::sync::Mutex;

use hearth_engine::{ApprovalRequest, Approver};
use hearth_protocol::ApprovalDecision;
use tokio::sync::oneshot;

/// Requests waiting for the user, by request id.
#[derive(Default)]
pub struct DesktopApprover {
    pending: Mutex<HashMap<String, oneshot::Sender<ApprovalDecision>>>,
}

/// Removes a request from the pending map when its wait ends for any reason (answer, timeout).
struct Pending<'a> {
    approver: &'a DesktopApprover,
    request_id: &'a str,
}

impl Drop for Pending<'_> {
    fn drop(&mut self) {
        if let Ok(mut pending) = self.approver.pending.lock() {
            pending.remove(self.request_id);
        }
    }
}

impl DesktopApprover {
    /// Delivers the user's answer; false when no such request is waiting.
    pub fn resolve(&self, request_id: &str, decision: ApprovalDecision) -> bool {
        let sender = self
            .pending
            .lock()
            .ok()
            .and_then(|mut p| p.remove(request_id));
        sender.is_some_and(|s| s.send(decision).is_ok())
    }

    /// Denies everything waiting (the window was closed).
    pub fn deny_all(&self) {
        if let Ok(mut pending) = self.pending.lock() {
            pending.clear();
        }
    }

    #[cfg(test)]
    pub fn waiting(&self) -> usize {
        self.pending.lock().map(|p| p.len()).unwrap_or(0)
    }
}

#[async_trait::async_trait]
impl Approver for DesktopApprover {
    async fn decide(&self, request: &ApprovalRequest) -> Option<ApprovalDecision> {
        let (sender, receiver) = oneshot::channel();
        self.pending
            .lock()
            .ok()?
            .insert(request.request_id.clone(), sender);
        let _pending = Pending {
            approver: self,
            request_id: &request.request_id,
        };
        receiver.await.ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hearth_protocol::ToolCall;
    use std::sync::Arc;

    fn request(id: &str) -> ApprovalRequest {
        ApprovalRequest {
            request_id: id.into(),
            session_id: "desktop:1".into(),
            call: ToolCall {
                id: "c".into(),
                name: "exec".into(),
                arguments: "{}".into(),
                signature: None,
            },
            reason: "high-risk".into(),
        }
    }

    #[tokio::test]
    async fn an_answer_reaches_the_waiting_request() {
        let approver = Arc::new(DesktopApprover::default());
        let waiter = approver.clone();
        let task = tokio::spawn(async move { waiter.decide(&request("r1")).await });
        while approver.waiting() == 0 {
            tokio::task::yield_now().await;
        }
        assert!(approver.resolve("r1", ApprovalDecision::AllowSession));
        assert_eq!(task.await.unwrap(), Some(ApprovalDecision::AllowSession));
        assert!(
            !approver.resolve("r1", ApprovalDecision::AllowOnce),
            "answered only once"
        );
    }

    #[tokio::test]
    async fn closing_the_window_denies_and_timeouts_clean_up() {
        let approver = Arc::new(DesktopApprover::default());
        let waiter = approver.clone();
        let task = tokio::spawn(async move { waiter.decide(&request("r2")).await });
        while approver.waiting() == 0 {
            tokio::task::yield_now().await;
        }
        approver.deny_all();
        assert_eq!(task.await.unwrap(), None);

        let (decision, why) = hearth_engine::ask_with_timeout(
            approver.as_ref(),
            &request("r3"),
            std::time::Duration::from_millis(20),
        )
        .await;
        assert_eq!((decision, why), (ApprovalDecision::Deny, "timeout"));
        assert_eq!(approver.waiting(), 0);
    }
}
