//! `task`: every illegal transition named with the allowed ones, the lifecycle across a restart,
//! and malformed calls.

use hearth_tools::ErrorKind;
use serde_json::json;

use super::{err, ok};
use crate::memory_history::{assert_invalid, Fixture};

/// Creates a task and moves it to `path`'s end, returning its id.
async fn task_through(fixture: &Fixture, path: &[&str]) -> String {
    let created = ok(fixture, "task", json!({"action": "create", "title": "t"})).await;
    let id = created["task"]["task_id"].as_str().unwrap().to_string();
    for action in path {
        ok(fixture, "task", json!({"action": action, "task_id": id})).await;
    }
    id
}

#[tokio::test]
async fn every_illegal_task_transition_is_refused_naming_the_allowed_ones() {
    let fixture = Fixture::open();
    // Each reachable status, and the moves it allows.
    let statuses: [(&str, &[&str], &[&str]); 5] = [
        ("pending", &[], &["start", "cancel", "update"]),
        (
            "running",
            &["start"],
            &["complete", "fail", "cancel", "update"],
        ),
        ("failed", &["start", "fail"], &["retry", "cancel", "update"]),
        ("completed", &["start", "complete"], &[]),
        ("cancelled", &["cancel"], &[]),
    ];
    let moves = ["start", "complete", "fail", "cancel", "retry"];
    for (status, path, allowed) in statuses {
        for action in moves.iter().filter(|m| !allowed.contains(m)) {
            let id = task_through(&fixture, path).await;
            let error = err(&fixture, "task", json!({"action": action, "task_id": id})).await;
            assert_invalid(&error, "action");
            let expected = if allowed.is_empty() {
                format!("cannot {action} a {status} task: {status} is final")
            } else {
                format!(
                    "cannot {action} a {status} task: from {status} the allowed actions are {}",
                    allowed.join(", ")
                )
            };
            assert!(
                error.message.starts_with(&expected),
                "{error:?} vs {expected}"
            );
            let got = ok(&fixture, "task", json!({"action": "get", "task_id": id})).await;
            assert_eq!(
                got["task"]["status"], status,
                "a refused move changes nothing"
            );
        }
    }
}

#[tokio::test]
async fn a_task_goes_through_its_lifecycle_and_survives_a_restart() {
    let fixture = Fixture::open();
    let created = ok(
        &fixture,
        "task",
        json!({"action": "create", "title": "Write report", "priority": 3, "description": "Q3"}),
    )
    .await;
    let id = created["task"]["task_id"].as_str().unwrap().to_string();
    assert_eq!(created["task"]["status"], "pending");
    ok(&fixture, "task", json!({"action": "start", "task_id": id})).await;
    let failed = ok(
        &fixture,
        "task",
        json!({"action": "fail", "task_id": id, "error": "no data"}),
    )
    .await;
    assert_eq!(failed["task"]["error"], "no data");
    assert_eq!(
        failed["task"]["allowed_actions"],
        json!(["retry", "cancel", "update"])
    );
    let retried = ok(&fixture, "task", json!({"action": "retry", "task_id": id})).await;
    assert_eq!(retried["task"]["status"], "pending");
    ok(&fixture, "task", json!({"action": "start", "task_id": id})).await;

    let fixture = fixture.reopen();
    let done = ok(
        &fixture,
        "task",
        json!({"action": "complete", "task_id": id, "result": "sent"}),
    )
    .await;
    assert_eq!(done["task"]["status"], "completed");
    assert_eq!(done["task"]["attempts"], 2);
    assert_eq!(done["task"]["result"], "sent");
    let listed = ok(
        &fixture,
        "task",
        json!({"action": "list", "status_filter": "completed"}),
    )
    .await;
    assert_eq!(listed["count"], 1);
    let pending = ok(
        &fixture,
        "task",
        json!({"action": "list", "status_filter": "pending"}),
    )
    .await;
    assert_eq!(pending["count"], 0);
}

#[tokio::test]
async fn malformed_task_calls_are_refused() {
    let fixture = Fixture::open();
    assert_invalid(
        &err(&fixture, "task", json!({"action": "create"})).await,
        "title",
    );
    assert_invalid(
        &err(&fixture, "task", json!({"action": "start"})).await,
        "task_id",
    );
    assert_invalid(
        &err(
            &fixture,
            "task",
            json!({"action": "start", "task_id": "abc"}),
        )
        .await,
        "task_id",
    );
    let missing = err(
        &fixture,
        "task",
        json!({"action": "start", "task_id": "99"}),
    )
    .await;
    assert_eq!(missing.kind, ErrorKind::NotFound, "{missing:?}");
    assert_invalid(
        &err(
            &fixture,
            "task",
            json!({"action": "create", "title": "t", "priority": 5000}),
        )
        .await,
        "priority",
    );
    assert_invalid(
        &err(
            &fixture,
            "task",
            json!({"action": "list", "status_filter": "asleep"}),
        )
        .await,
        "status_filter",
    );
    assert_invalid(
        &err(
            &fixture,
            "task",
            json!({"action": "create", "title": "t", "workflow_id": "7"}),
        )
        .await,
        "workflow_id",
    );
    let id = task_through(&fixture, &[]).await;
    assert_invalid(
        &err(&fixture, "task", json!({"action": "update", "task_id": id})).await,
        "title",
    );
}
