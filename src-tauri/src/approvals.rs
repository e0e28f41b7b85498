//! Approvals and questions in the window: a pending request waits for its card's answer (the
//! approval card's decision, the question card's text); closing the window (or dropping the
//! request) answers nothing, which denies an approval and leaves a question unanswered.

use std::collections::HashMap;
use std::sync::Mutex;

use hearth_engine::{ApprovalRequest, Approver, QuestionRequest};
use hearth_protocol::ApprovalDecision;
use tokio::sync::oneshot;

/// Requests waiting for an answer of type `T`, by request id.
struct Waiting<T> {
    pending: Mutex<HashMap<String, oneshot::Sender<T>>>,
}

impl<T> Default for Waiting<T> {
    fn default() -> Self {
        Waiting {
            pending: Mutex::new(HashMap::new()),
        }
    }
}

/// Removes a request from its map when its wait ends for any reason (answer, timeout, stop).
struct Pending<'a, T> {
    waiting: &'a Waiting<T>,
    request_id: &'a str,
}

impl<T> Drop for Pending<'_, T> {
    fn drop(&mut self) {
        if let Ok(mut pending) = self.waiting.pending.lock() {
            pending.remove(self.request_id);
        }
    }
}

impl<T> Waiting<T> {
    /// Waits for the answer to `request_id`; `None` when it is dropped unanswered.
    async fn wait(&self, request_id: &str) -> Option<T> {
        let (sender, receiver) = oneshot::channel();
        self.pending
            .lock()
            .ok()?
            .insert(request_id.to_string(), sender);
        let _pending = Pending {
            waiting: self,
            request_id,
        };
        receiver.await.ok()
    }

    /// Delivers an answer; false when no such request is waiting.
    fn resolve(&self, request_id: &str, answer: T) -> bool {
        let sender = self
            .pending
            .lock()
            .ok()
            .and_then(|mut p| p.remove(request_id));
        sender.is_some_and(|s| s.send(answer).is_ok())
    }

    fn drop_all(&self) {
        if let Ok(mut pending) = self.pending.lock() {
            pending.clear();
        }
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.pending.lock().map(|p| p.len()).unwrap_or(0)
    }
}

/// The window's approvals and questions.
#[derive(Default)]
pub struct DesktopApprover {
    decisions: Waiting<ApprovalDecision>,
    answers: Waiting<String>,
}

impl DesktopApprover {
    /// Delivers the user's decision; false when no such request is waiting.
    pub fn resolve(&self, request_id: &str, decision: ApprovalDecision) -> bool {
        self.decisions.resolve(request_id, decision)
    }

    /// Delivers the user's answer to a question; false when no such question is waiting.
    pub fn answer_question(&self, request_id: &str, answer: String) -> bool {
        self.answers.resolve(request_id, answer)
    }

    /// Denies every approval and drops every question waiting (the window was closed).
    pub fn deny_all(&self) {
        self.decisions.drop_all();
        self.answers.drop_all();
    }

    #[cfg(test)]
    pub fn waiting(&self) -> usize {
        self.decisions.len() + self.answers.len()
    }
}

#[async_trait::async_trait]
impl Approver for DesktopApprover {
    async fn decide(&self, request: &ApprovalRequest) -> Option<ApprovalDecision> {
        self.decisions.wait(&request.request_id).await
    }

    fn answers_questions(&self) -> bool {
        true
    }

    async fn answer(&self, question: &QuestionRequest) -> Option<String> {
        self.answers.wait(&question.request_id).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hearth_protocol::{AuditReason, PolicyReason, SecurityProfile, ToolCall};
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
            reason: AuditReason::new(PolicyReason::NeedsApproval {
                tool: "exec".into(),
                security: SecurityProfile::PersonalCli,
                every_time: false,
            }),
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

    #[tokio::test]
    async fn a_question_gets_the_typed_answer_once() {
        let approver = Arc::new(DesktopApprover::default());
        let waiter = approver.clone();
        let question = QuestionRequest {
            request_id: "q1".into(),
            session_id: "desktop:1".into(),
            question: "Which colour?".into(),
            options: vec!["red".into(), "blue".into()],
        };
        let task = tokio::spawn(async move { waiter.answer(&question).await });
        while approver.waiting() == 0 {
            tokio::task::yield_now().await;
        }
        assert!(
            !approver.resolve("q1", ApprovalDecision::AllowOnce),
            "not an approval"
        );
        assert!(approver.answer_question("q1", "green".into()));
        assert_eq!(task.await.unwrap().as_deref(), Some("green"));
        assert!(!approver.answer_question("q1", "again".into()));
        assert_eq!(approver.waiting(), 0);
    }
}
