//! `clarify`: the answer returned, and the errors when nobody answers or nobody can.

use hearth_tools::{ErrorKind, Question, Reply};
use serde_json::json;

use super::{err, front, with_front};
use crate::memory_history::{assert_invalid, Fixture};

#[tokio::test]
async fn clarify_returns_the_answer_and_says_when_nobody_answered_or_can() {
    let fixture = Fixture::open();
    let answered = front(Reply::Answered("blue".into()));
    let result = with_front(
        &fixture,
        &answered,
        "clarify",
        json!({"question": "Which colour?", "options": ["red", "blue"]}),
    )
    .await
    .unwrap();
    assert_eq!(result, json!({"answer": "blue", "option_index": 1}));
    assert_eq!(
        answered.asked.lock().unwrap()[0],
        Question {
            question: "Which colour?".into(),
            options: vec!["red".into(), "blue".into()]
        }
    );
    let silent = front(Reply::NoAnswer);
    let error = with_front(&fixture, &silent, "clarify", json!({"question": "Hello?"}))
        .await
        .unwrap_err();
    assert_eq!(error.kind, ErrorKind::Timeout);
    assert!(error.message.starts_with("nobody answered"), "{error:?}");
    let nobody = err(&fixture, "clarify", json!({"question": "Anyone?"})).await;
    assert_eq!(nobody.kind, ErrorKind::Unavailable, "{nobody:?}");
    assert_invalid(
        &err(&fixture, "clarify", json!({"question": "  "})).await,
        "question",
    );
    assert_invalid(
        &err(
            &fixture,
            "clarify",
            json!({"question": "q", "options": ["a", "a"]}),
        )
        .await,
        "options[1]",
    );
    assert_invalid(&err(&fixture, "clarify", json!({})).await, "question");
    let many: Vec<String> = (0..11).map(|i| i.to_string()).collect();
    assert_eq!(
        err(
            &fixture,
            "clarify",
            json!({"question": "q", "options": many})
        )
        .await
        .kind,
        ErrorKind::InvalidArguments
    );
}
