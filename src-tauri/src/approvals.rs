//! Approvals, questions and forms in the window: a pending request waits for its card's answer
//! (the approval card's decision, the question card's text, the form card's answer, checked
//! against its form); closing the window (or dropping the request) answers nothing, which
//! denies an approval and leaves a question or form unanswered.

use std::collections::HashMap;
use std::sync::Mutex;

use hearth_engine::{ApprovalRequest, Approver, FormRequest, QuestionRequest};
use hearth_protocol::{AppError, ApprovalDecision, Form, FormAnswer};
use hearth_tools::{check_form, FormProblem};
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
    filled: Waiting<FormAnswer>,
    /// The forms waiting in `filled`, to check their answers against.
    forms: Mutex<HashMap<String, Form>>,
}

/// Takes a form off [`DesktopApprover::forms`] when its wait ends.
struct FormShown<'a> {
    forms: &'a Mutex<HashMap<String, Form>>,
    request_id: &'a str,
}

impl Drop for FormShown<'_> {
    fn drop(&mut self) {
        if let Ok(mut forms) = self.forms.lock() {
            forms.remove(self.request_id);
        }
    }
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

    /// Delivers the form card's answer once it fits its form (the defaults of fields left out
    /// filled in); the card stays open on an error.
    pub fn answer_form(&self, request_id: &str, answer: FormAnswer) -> Result<(), AppError> {
        let form = self
            .forms
            .lock()
            .ok()
            .and_then(|forms| forms.get(request_id).cloned())
            .ok_or(AppError::QuestionGone)?;
        let answer = match answer {
            FormAnswer::Accept { content } => FormAnswer::Accept {
                content: check_form(&form, content).map_err(|problem| match problem {
                    FormProblem::Missing(field) => AppError::FormFieldMissing { field },
                    FormProblem::Invalid { field, .. } | FormProblem::Unknown(field) => {
                        AppError::FormFieldInvalid { field }
                    }
                })?,
            },
            other => other,
        };
        if self.filled.resolve(request_id, answer) {
            Ok(())
        } else {
            Err(AppError::QuestionGone)
        }
    }

    /// Denies every approval and drops every question and form waiting (the window was closed).
    pub fn deny_all(&self) {
        self.decisions.drop_all();
        self.answers.drop_all();
        self.filled.drop_all();
    }

    #[cfg(test)]
    pub fn waiting(&self) -> usize {
        self.decisions.len() + self.answers.len() + self.filled.len()
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

    fn fills_forms(&self) -> bool {
        true
    }

    async fn fill(&self, request: &FormRequest) -> Option<FormAnswer> {
        self.forms
            .lock()
            .ok()?
            .insert(request.request_id.clone(), request.form.clone());
        let _shown = FormShown {
            forms: &self.forms,
            request_id: &request.request_id,
        };
        self.filled.wait(&request.request_id).await
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

    #[tokio::test]
    async fn a_form_answer_is_checked_against_its_form_before_it_is_delivered() {
        use hearth_protocol::{FieldKind, FormField};
        use serde_json::json;

        let approver = Arc::new(DesktopApprover::default());
        let waiter = approver.clone();
        let request = FormRequest {
            request_id: "f1".into(),
            session_id: "desktop:1".into(),
            form: Form {
                source: "everything".into(),
                message: "Who are you?".into(),
                fields: vec![
                    FormField {
                        name: "name".into(),
                        label: "Name".into(),
                        description: None,
                        kind: FieldKind::text(),
                        required: true,
                        default: None,
                    },
                    FormField {
                        name: "age".into(),
                        label: "Age".into(),
                        description: None,
                        kind: FieldKind::Number {
                            integer: true,
                            minimum: Some(0.0),
                            maximum: None,
                        },
                        required: false,
                        default: Some(json!(42)),
                    },
                ],
            },
        };
        let task = tokio::spawn(async move { waiter.fill(&request).await });
        while approver.waiting() == 0 {
            tokio::task::yield_now().await;
        }
        let accept = |content: serde_json::Value| FormAnswer::Accept {
            content: content.as_object().unwrap().clone(),
        };
        assert_eq!(
            approver.answer_form("f1", accept(json!({"age": 3}))),
            Err(AppError::FormFieldMissing {
                field: "Name".into()
            })
        );
        assert_eq!(
            approver.answer_form("f1", accept(json!({"name": "Ada", "age": -1}))),
            Err(AppError::FormFieldInvalid {
                field: "Age".into()
            })
        );
        assert_eq!(
            approver.waiting(),
            1,
            "the form still waits after a refused answer"
        );
        approver
            .answer_form("f1", accept(json!({"name": "Ada"})))
            .unwrap();
        assert_eq!(
            task.await.unwrap(),
            Some(accept(json!({"name": "Ada", "age": 42})))
        );
        assert_eq!(
            approver.answer_form("f1", FormAnswer::Decline),
            Err(AppError::QuestionGone),
            "answered only once"
        );
        assert_eq!(approver.waiting(), 0);
    }
}
