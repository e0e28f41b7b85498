//! The turn's conversation with a front end that has a form card, one that only answers
//! questions, and one that never answers.

#![allow(clippy::unwrap_used)]

use std::sync::Mutex;

use hearth_protocol::{ApprovalDecision, FieldKind, FormAnswer, FormField};
use serde_json::json;
use tokio::sync::mpsc::{unbounded_channel, UnboundedReceiver};

use super::*;
use crate::approval::ApprovalRequest;

/// A front end: a form card when `forms`, else questions only; `answer` is what it gives
/// (`None`: it never answers).
struct Front {
    forms: bool,
    answer: Option<FormAnswer>,
    filled: Mutex<Vec<FormRequest>>,
    asked: Mutex<Vec<QuestionRequest>>,
}

#[async_trait::async_trait]
impl Approver for Front {
    async fn decide(&self, _: &ApprovalRequest) -> Option<ApprovalDecision> {
        None
    }

    fn answers_questions(&self) -> bool {
        true
    }

    async fn answer(&self, question: &QuestionRequest) -> Option<String> {
        self.asked.lock().unwrap().push(question.clone());
        Some(question.options.first().cloned().unwrap_or("Ada".into()))
    }

    fn fills_forms(&self) -> bool {
        self.forms
    }

    async fn fill(&self, form: &FormRequest) -> Option<FormAnswer> {
        self.filled.lock().unwrap().push(form.clone());
        match &self.answer {
            Some(answer) => Some(answer.clone()),
            None => std::future::pending().await,
        }
    }
}

fn front(forms: bool, answer: Option<FormAnswer>) -> Arc<Front> {
    Arc::new(Front {
        forms,
        answer,
        filled: Mutex::new(Vec::new()),
        asked: Mutex::new(Vec::new()),
    })
}

fn conversation(front: Arc<Front>) -> (TurnConversation, UnboundedReceiver<EngineEvent>) {
    let (events, received) = unbounded_channel();
    let conversation = TurnConversation {
        session_id: "desktop:7".into(),
        events,
        approver: front,
        timeout: Duration::from_millis(200),
        language: Language::En,
    };
    (conversation, received)
}

fn form() -> Form {
    Form {
        source: "everything".into(),
        message: "Who are you?".into(),
        fields: vec![FormField {
            name: "name".into(),
            label: "Name".into(),
            description: None,
            kind: FieldKind::text(),
            required: true,
            default: None,
        }],
    }
}

fn drained(mut received: UnboundedReceiver<EngineEvent>) -> Vec<EngineEvent> {
    let mut events = Vec::new();
    while let Ok(event) = received.try_recv() {
        events.push(event);
    }
    events
}

#[tokio::test]
async fn a_form_card_gets_the_whole_form_and_its_answer_is_the_reply() {
    let content = json!({"name": "Ada"}).as_object().unwrap().clone();
    let front = front(
        true,
        Some(FormAnswer::Accept {
            content: content.clone(),
        }),
    );
    let (conversation, received) = conversation(front.clone());
    assert_eq!(
        conversation.fill(form()).await,
        FormReply::Accepted(content)
    );
    let filled = front.filled.lock().unwrap().clone();
    assert_eq!(filled.len(), 1);
    assert_eq!(filled[0].form, form());
    assert!(front.asked.lock().unwrap().is_empty(), "no question asked");
    let events = drained(received);
    assert_eq!(
        events,
        [
            EngineEvent::FormRequested {
                request_id: filled[0].request_id.clone(),
                session_id: "desktop:7".into(),
                form: form(),
            },
            EngineEvent::QuestionClosed {
                request_id: filled[0].request_id.clone(),
                answered: true,
            },
        ]
    );

    let declining = front_answering(FormAnswer::Decline).await;
    assert_eq!(declining, FormReply::Declined);
    assert_eq!(
        front_answering(FormAnswer::Cancel).await,
        FormReply::Cancelled
    );
}

async fn front_answering(answer: FormAnswer) -> FormReply {
    conversation(front(true, Some(answer))).0.fill(form()).await
}

#[tokio::test]
async fn without_a_form_card_the_form_is_asked_as_questions() {
    let front = front(false, None);
    let (conversation, received) = conversation(front.clone());
    // The front end picks the first option ("Answer"), and types "Ada" where there is none.
    let reply = conversation.fill(form()).await;
    assert!(front.filled.lock().unwrap().is_empty());
    let asked = front.asked.lock().unwrap().clone();
    assert!(
        asked[0]
            .question
            .contains("`everything` asks: Who are you?"),
        "{asked:?}"
    );
    assert_eq!(
        reply,
        FormReply::Accepted(json!({"name": "Ada"}).as_object().unwrap().clone())
    );
    assert!(drained(received)
        .iter()
        .all(|e| !matches!(e, EngineEvent::FormRequested { .. })));
}

#[tokio::test]
async fn an_unanswered_form_is_cancelled_and_closed_in_the_front_end() {
    let (conversation, received) = conversation(front(true, None));
    assert_eq!(conversation.fill(form()).await, FormReply::Cancelled);
    let events = drained(received);
    assert!(
        matches!(
            events.last(),
            Some(EngineEvent::QuestionClosed {
                answered: false,
                ..
            })
        ),
        "{events:?}"
    );
}
