//! `todo`: the checklist shown as it changes and surviving a restart, and malformed calls.

use hearth_protocol::EngineEvent;
use hearth_tools::{ErrorKind, Reply};
use serde_json::json;

use super::{err, front, ok, with_front};
use crate::memory_history::{assert_invalid, column, Fixture};

#[tokio::test]
async fn the_checklist_is_shown_as_it_changes_and_survives_a_restart() {
    let fixture = Fixture::open();
    let front = front(Reply::Unavailable);
    let created = with_front(
        &fixture,
        &front,
        "todo",
        json!({"action": "create", "items": ["Read the brief", {"title": "Draft", "notes": "short"}]}),
    )
    .await
    .unwrap();
    assert_eq!(created["revision"], 1);
    assert_eq!(created["open"], 2);
    assert_eq!(column(&created, "items", "id"), [json!("1"), json!("2")]);
    ok(
        &fixture,
        "todo",
        json!({"action": "update", "task_id": "1", "status": "in_progress"}),
    )
    .await;
    let done = with_front(
        &fixture,
        &front,
        "todo",
        json!({"action": "complete", "task_id": "1"}),
    )
    .await
    .unwrap();
    assert_eq!(done["revision"], 3);
    assert_eq!(
        column(&done, "items", "status"),
        [json!("done"), json!("pending")]
    );
    let shown = front.shown.lock().unwrap().clone();
    assert_eq!(shown.len(), 2, "{shown:?}");
    match &shown[1] {
        EngineEvent::TodoChanged { list } => {
            assert_eq!(
                (list.revision, list.session_id.as_str()),
                (3, "desktop:test")
            );
            assert!(list.has_open_items());
        }
        other => panic!("{other:?}"),
    }

    let fixture = fixture.reopen();
    let listed = ok(&fixture, "todo", json!({"action": "list"})).await;
    assert_eq!(
        (listed["revision"].clone(), listed["open"].clone()),
        (json!(3), json!(1))
    );
    assert_eq!(listed["items"][1]["notes"], "short");
    let cleared = ok(&fixture, "todo", json!({"action": "delete"})).await;
    assert_eq!(
        (cleared["revision"].clone(), cleared["open"].clone()),
        (json!(4), json!(0))
    );
}

#[tokio::test]
async fn malformed_checklist_calls_are_refused() {
    let fixture = Fixture::open();
    assert_invalid(
        &err(&fixture, "todo", json!({"action": "create"})).await,
        "items",
    );
    assert_invalid(
        &err(&fixture, "todo", json!({"action": "complete"})).await,
        "task_id",
    );
    assert_invalid(
        &err(&fixture, "todo", json!({"action": "explode"})).await,
        "action",
    );
    assert_invalid(
        &err(
            &fixture,
            "todo",
            json!({"action": "create", "items": ["a"], "colour": 1}),
        )
        .await,
        "colour",
    );
    let long = "x".repeat(501);
    assert_eq!(
        err(&fixture, "todo", json!({"action": "create", "title": long}))
            .await
            .kind,
        ErrorKind::InvalidArguments
    );
    let too_many: Vec<String> = (0..101).map(|i| i.to_string()).collect();
    assert_eq!(
        err(
            &fixture,
            "todo",
            json!({"action": "create", "items": too_many})
        )
        .await
        .kind,
        ErrorKind::InvalidArguments
    );
    ok(
        &fixture,
        "todo",
        json!({"action": "create", "title": "one"}),
    )
    .await;
    let missing = err(
        &fixture,
        "todo",
        json!({"action": "delete", "task_id": "9"}),
    )
    .await;
    assert_eq!(missing.kind, ErrorKind::NotFound, "{missing:?}");
    assert!(missing.message.contains("its items are 1"), "{missing:?}");
    assert_invalid(
        &err(
            &fixture,
            "todo",
            json!({"action": "update", "task_id": "1"}),
        )
        .await,
        "status",
    );
}
