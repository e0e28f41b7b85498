//! The conversation a batch of calls runs in: events a tool shows go to the turn's sink, and a
//! question (or a form, where the front end has a form card) goes to the approver's front end,
//! waiting at most the runner's question timeout.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use hearth_protocol::{EngineEvent, Language};
use hearth_tools::{ask_fields, Conversation, Form, FormReply, Question, Reply};
use tokio::sync::mpsc::UnboundedSender;

use crate::approval::{Approver, FormRequest, QuestionRequest};

/// One batch's conversation; its events are forwarded to the sink while the batch runs.
pub(super) struct TurnConversation {
    pub session_id: String,
    pub events: UnboundedSender<EngineEvent>,
    pub approver: Arc<dyn Approver>,
    pub timeout: Duration,
    pub language: Language,
}

/// How a wait for the front end ended.
enum Waited<T> {
    Answered(T),
    /// The front end dropped the request (the window closed).
    Dropped,
    TimedOut,
}

impl TurnConversation {
    /// Shows `asked` (a question or a form with `request_id`), waits for `answer` at most the
    /// timeout, and closes it in the front end however the wait ends (the turn may be stopped).
    async fn wait<T>(
        &self,
        request_id: &str,
        asked: EngineEvent,
        answer: impl Future<Output = Option<T>>,
    ) -> Waited<T> {
        self.show(asked);
        let mut closing = Closing {
            events: &self.events,
            request_id,
            answered: false,
        };
        let waited = match tokio::time::timeout(self.timeout, answer).await {
            Ok(Some(answer)) => Waited::Answered(answer),
            Ok(None) => Waited::Dropped,
            Err(_) => Waited::TimedOut,
        };
        closing.answered = matches!(waited, Waited::Answered(_));
        waited
    }
}

#[async_trait::async_trait]
impl Conversation for TurnConversation {
    fn language(&self) -> Language {
        self.language
    }

    fn show(&self, event: EngineEvent) {
        let _ = self.events.send(event);
    }

    async fn ask(&self, question: Question) -> Reply {
        if !self.approver.answers_questions() {
            return Reply::Unavailable;
        }
        let request = QuestionRequest {
            request_id: uuid::Uuid::new_v4().to_string(),
            session_id: self.session_id.clone(),
            question: question.question,
            options: question.options,
        };
        let asked = EngineEvent::QuestionAsked {
            request_id: request.request_id.clone(),
            session_id: request.session_id.clone(),
            question: request.question.clone(),
            options: request.options.clone(),
        };
        match self
            .wait(&request.request_id, asked, self.approver.answer(&request))
            .await
        {
            Waited::Answered(answer) => Reply::Answered(answer),
            Waited::Dropped => Reply::Unavailable,
            Waited::TimedOut => Reply::NoAnswer,
        }
    }

    async fn fill(&self, form: Form) -> FormReply {
        if !self.approver.fills_forms() {
            return ask_fields(self, self.language, &form).await;
        }
        let request = FormRequest {
            request_id: uuid::Uuid::new_v4().to_string(),
            session_id: self.session_id.clone(),
            form,
        };
        let asked = EngineEvent::FormRequested {
            request_id: request.request_id.clone(),
            session_id: request.session_id.clone(),
            form: request.form.clone(),
        };
        match self
            .wait(&request.request_id, asked, self.approver.fill(&request))
            .await
        {
            Waited::Answered(answer) => answer.into(),
            Waited::Dropped => FormReply::Unavailable,
            Waited::TimedOut => FormReply::Cancelled,
        }
    }
}

/// Sends `question_closed` when dropped.
struct Closing<'a> {
    events: &'a UnboundedSender<EngineEvent>,
    request_id: &'a str,
    answered: bool,
}

impl Drop for Closing<'_> {
    fn drop(&mut self) {
        let _ = self.events.send(EngineEvent::QuestionClosed {
            request_id: self.request_id.to_string(),
            answered: self.answered,
        });
    }
}

#[cfg(test)]
#[path = "conversation_tests.rs"]
mod tests;
