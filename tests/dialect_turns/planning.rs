//! `todo` and `clarify` in agent turns: the checklist's changes reach the front end as events,
//! a question is shown, answered and its answer reaches the model; unanswered it times out,
//! stopped it closes, and under `daemon` (or with nobody to ask) it is `unavailable`.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use hearth_engine::{ApprovalRequest, Approver, QuestionRequest};
use hearth_policy::SecurityProfile;
use hearth_protocol::{ApprovalDecision, ContentPart, EngineEvent, TurnEnd};
use hearth_tools::Dialect;
use serde_json::json;
use tokio_util::sync::CancellationToken;

use crate::dialect_turns::rig::{Front, Rig};

/// How the test's user answers a question.
enum Answer {
    Text(&'static str),
    Never,
    /// Presses stop while the question is shown.
    Stop(CancellationToken),
}

/// A front end with a person who answers questions as told.
struct Person {
    answer: Answer,
    asked: Mutex<Vec<QuestionRequest>>,
}

#[async_trait::async_trait]
impl Approver for Person {
    async fn decide(&self, _request: &ApprovalRequest) -> Option<ApprovalDecision> {
        Some(ApprovalDecision::AllowOnce)
    }

    fn answers_questions(&self) -> bool {
        true
    }

    async fn answer(&self, question: &QuestionRequest) -> Option<String> {
        self.asked.lock().unwrap().push(question.clone());
        match &self.answer {
            Answer::Text(text) => Some(text.to_string()),
            Answer::Never => std::future::pending().await,
            Answer::Stop(cancel) => {
                cancel.cancel();
                std::future::pending().await
            }
        }
    }
}

fn person(answer: Answer) -> Arc<Person> {
    Arc::new(Person {
        answer,
        asked: Mutex::new(Vec::new()),
    })
}

async fn rig(home: &std::path::Path, person: &Arc<Person>, front: Front) -> Rig {
    let front = Front {
        approver: person.clone(),
        ..front
    };
    Rig::open(home, Dialect::Hearth, 9, front).await
}

fn question() -> serde_json::Value {
    json!({"question": "Which format?", "options": ["PDF", "Word"]})
}

#[tokio::test]
async fn a_turn_plans_with_todo_and_gets_the_users_answer_to_clarify() {
    let home = tempfile::tempdir().unwrap();
    let person = person(Answer::Text("Word"));
    let rig = rig(home.path(), &person, Front::default()).await;
    let events = rig
        .send(&[
            (
                "todo",
                json!({"action": "create", "items": ["Ask the format", "Write"]}),
            ),
            ("clarify", question()),
            ("todo", json!({"action": "complete", "task_id": "1"})),
        ])
        .await;

    let results = rig.results();
    assert_eq!(
        results[1],
        (
            "clarify".into(),
            json!({"answer": "Word", "option_index": 1}),
            false
        )
    );
    assert_eq!(results[2].1["open"], 1);
    let asked = person.asked.lock().unwrap().clone();
    assert_eq!(asked.len(), 1);
    assert_eq!(
        (asked[0].question.as_str(), asked[0].session_id.as_str()),
        ("Which format?", rig.session.as_str())
    );

    let revisions: Vec<u32> = events
        .iter()
        .filter_map(|e| match e {
            EngineEvent::TodoChanged { list } => Some(list.revision),
            _ => None,
        })
        .collect();
    assert_eq!(revisions, [1, 2]);
    let shown = events.iter().position(|e| {
        matches!(e, EngineEvent::QuestionAsked { request_id, options, .. }
            if *request_id == asked[0].request_id && *options == ["PDF", "Word"])
    });
    let closed = events.iter().position(|e| {
        matches!(e, EngineEvent::QuestionClosed { request_id, answered: true }
            if *request_id == asked[0].request_id)
    });
    assert!(shown.unwrap() < closed.unwrap(), "{events:?}");

    // The model read the answer in the next request.
    let requests = rig.server.model_requests();
    let third = requests[2].body.to_string();
    assert!(third.contains(r#"\"answer\":\"Word\""#), "{third}");
    let stored = rig.store.todo_list(&rig.session).unwrap().unwrap();
    assert_eq!(stored.revision, 2);
}

#[tokio::test]
async fn an_unanswered_question_times_out_and_says_nobody_answered() {
    let home = tempfile::tempdir().unwrap();
    let person = person(Answer::Never);
    let front = Front {
        question_timeout: Duration::from_millis(100),
        ..Front::default()
    };
    let rig = rig(home.path(), &person, front).await;
    let events = rig.send(&[("clarify", question())]).await;
    let (name, result, is_error) = &rig.results()[0];
    assert_eq!((name.as_str(), *is_error), ("clarify", true));
    assert_eq!(result["error"]["kind"], "timeout", "{result}");
    assert!(result["error"]["message"]
        .as_str()
        .unwrap()
        .starts_with("nobody answered"));
    assert!(events.iter().any(|e| matches!(
        e,
        EngineEvent::QuestionClosed {
            answered: false,
            ..
        }
    )));
}

#[tokio::test]
async fn stopping_the_turn_while_a_question_waits_closes_it() {
    let home = tempfile::tempdir().unwrap();
    let cancel = CancellationToken::new();
    let person = person(Answer::Stop(cancel.clone()));
    let rig = rig(home.path(), &person, Front::default()).await;
    rig.server
        .push(hearth_tests::Reply::tool_call("clarify", question()));
    let events = Arc::new(Mutex::new(Vec::new()));
    let seen = events.clone();
    let summary = rig
        .engine
        .send(
            &rig.session,
            vec![ContentPart::text("ask me")],
            &move |event| seen.lock().unwrap().push(event),
            cancel,
        )
        .await
        .unwrap();
    assert_eq!(summary.end, TurnEnd::Cancelled);
    let events = events.lock().unwrap().clone();
    let asked = person.asked.lock().unwrap()[0].request_id.clone();
    assert!(
        events.iter().any(|e| matches!(e, EngineEvent::QuestionClosed { request_id, answered: false } if *request_id == asked)),
        "{events:?}"
    );
}

#[tokio::test]
async fn clarify_is_unavailable_under_daemon_and_with_nobody_to_ask() {
    let home = tempfile::tempdir().unwrap();
    let person = person(Answer::Text("never asked"));
    let daemon = Front {
        security: SecurityProfile::Daemon,
        ..Front::default()
    };
    let rig = rig(home.path(), &person, daemon).await;
    let events = rig.send(&[("clarify", question())]).await;
    let (_, result, is_error) = &rig.results()[0];
    assert!(*is_error);
    assert_eq!(result["error"]["kind"], "unavailable", "{result}");
    assert!(person.asked.lock().unwrap().is_empty());
    assert!(!events
        .iter()
        .any(|e| matches!(e, EngineEvent::QuestionAsked { .. })));

    let nobody = tempfile::tempdir().unwrap();
    let rig = Rig::open(nobody.path(), Dialect::Hearth, 9, Front::default()).await;
    rig.send(&[("clarify", question())]).await;
    let (_, result, _) = &rig.results()[0];
    assert_eq!(result["error"]["kind"], "unavailable", "{result}");
}
