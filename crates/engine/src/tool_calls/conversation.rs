//! The conversation a batch of calls runs in: events a tool shows go to the turn's sink, and a
//! question goes to the approver's front end, waiting at most the runner's question timeout.

use std::sync::Arc;
use std::time::Duration;

use hearth_protocol::{EngineEvent, Language};
use hearth_tools::{Conversation, Question, Reply};
use tokio::sync::mpsc::UnboundedSender;

use crate::approval::{Approver, QuestionRequest};

/// One batch's conversation; its events are forwarded to the sink while the batch runs.
pub(super) struct TurnConversation {
    pub session_id: String,
    pub events: UnboundedSender<EngineEvent>,
    pub approver: Arc<dyn Approver>,
    pub timeout: Duration,
    pub language: Language,
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
        self.show(EngineEvent::QuestionAsked {
            request_id: request.request_id.clone(),
            session_id: request.session_id.clone(),
            question: request.question.clone(),
            options: request.options.clone(),
        });
        // Closes the question in the front end however the wait ends (the turn may be stopped).
        let _closing = Closing {
            events: &self.events,
            request_id: &request.request_id,
            answered: false,
        };
        let reply = match tokio::time::timeout(self.timeout, self.approver.answer(&request)).await {
            Ok(Some(answer)) => Reply::Answered(answer),
            Ok(None) => Reply::Unavailable,
            Err(_) => Reply::NoAnswer,
        };
        let mut closing = _closing;
        closing.answered = matches!(reply, Reply::Answered(_));
        reply
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
