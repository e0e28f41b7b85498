//! `workflow`: ready steps tracked to completion across a restart, every illegal transition, and
//! cycles, unknown dependencies and malformed steps refused at create.

use serde_json::{json, Value};

use super::{err, ok};
use crate::memory_history::{assert_invalid, Fixture};

fn steps() -> Value {
    json!([
        {"id": "fetch", "title": "Fetch data"},
        {"id": "clean", "depends_on": ["fetch"]},
        {"id": "chart", "depends_on": ["clean"]},
        {"id": "write", "depends_on": ["clean"]},
        {"id": "send", "depends_on": ["chart", "write"]}
    ])
}

#[tokio::test]
async fn a_workflow_tracks_ready_steps_to_completion_across_a_restart() {
    let fixture = Fixture::open();
    let created = ok(
        &fixture,
        "workflow",
        json!({"action": "create", "name": "report", "steps": steps()}),
    )
    .await;
    let id = created["workflow"]["workflow_id"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(created["workflow"]["status"], "created");
    assert_eq!(created["workflow"]["progress"]["ready"], json!(["fetch"]));
    let early = err(
        &fixture,
        "workflow",
        json!({"action": "advance", "workflow_id": id}),
    )
    .await;
    assert!(
        early.message.starts_with(
            "cannot advance a created workflow: from created the allowed actions are start, cancel"
        ),
        "{early:?}"
    );
    ok(
        &fixture,
        "workflow",
        json!({"action": "start", "workflow_id": id}),
    )
    .await;
    let advanced = ok(
        &fixture,
        "workflow",
        json!({"action": "advance", "workflow_id": id}),
    )
    .await;
    assert_eq!(advanced["advanced"], "fetch");
    ok(
        &fixture,
        "workflow",
        json!({"action": "advance", "workflow_id": id, "step_id": "clean"}),
    )
    .await;
    let blocked = err(
        &fixture,
        "workflow",
        json!({"action": "advance", "workflow_id": id, "step_id": "send"}),
    )
    .await;
    assert_invalid(&blocked, "step_id");
    assert!(
        blocked.message.contains("waits for chart, write"),
        "{blocked:?}"
    );
    let which = err(
        &fixture,
        "workflow",
        json!({"action": "advance", "workflow_id": id}),
    )
    .await;
    assert!(
        which
            .message
            .contains("several steps are ready (chart, write)"),
        "{which:?}"
    );
    ok(
        &fixture,
        "workflow",
        json!({"action": "pause", "workflow_id": id}),
    )
    .await;
    let paused = err(
        &fixture,
        "workflow",
        json!({"action": "advance", "workflow_id": id, "step_id": "chart"}),
    )
    .await;
    assert!(
        paused
            .message
            .contains("from paused the allowed actions are resume, cancel"),
        "{paused:?}"
    );

    let fixture = fixture.reopen();
    let status = ok(
        &fixture,
        "workflow",
        json!({"action": "status", "workflow_id": id}),
    )
    .await;
    assert_eq!(status["workflow"]["status"], "paused");
    assert_eq!(
        status["workflow"]["progress"]["done"],
        json!(["fetch", "clean"])
    );
    assert_eq!(
        status["workflow"]["progress"]["ready"],
        json!(["chart", "write"])
    );
    assert_eq!(
        status["workflow"]["progress"]["blocked"],
        json!([{"id": "send", "waiting_on": ["chart", "write"]}])
    );
    ok(
        &fixture,
        "workflow",
        json!({"action": "resume", "workflow_id": id}),
    )
    .await;
    for step in ["chart", "write", "send"] {
        ok(
            &fixture,
            "workflow",
            json!({"action": "advance", "workflow_id": id, "step_id": step}),
        )
        .await;
    }
    let finished = ok(
        &fixture,
        "workflow",
        json!({"action": "status", "workflow_id": id}),
    )
    .await;
    assert_eq!(finished["workflow"]["status"], "completed");
    let again = err(
        &fixture,
        "workflow",
        json!({"action": "cancel", "workflow_id": id}),
    )
    .await;
    assert!(again.message.contains("completed is final"), "{again:?}");
    let listed = ok(
        &fixture,
        "workflow",
        json!({"action": "list", "status_filter": "completed"}),
    )
    .await;
    assert_eq!(listed["count"], 1);
}

#[tokio::test]
async fn every_illegal_workflow_transition_is_refused() {
    let fixture = Fixture::open();
    let moves = ["start", "advance", "pause", "resume", "cancel"];
    let statuses: [(&str, &[&str], &[&str]); 4] = [
        ("created", &[], &["start", "cancel"]),
        ("running", &["start"], &["advance", "pause", "cancel"]),
        ("paused", &["start", "pause"], &["resume", "cancel"]),
        ("cancelled", &["cancel"], &[]),
    ];
    for (status, path, allowed) in statuses {
        for action in moves.iter().filter(|m| !allowed.contains(m)) {
            let created = ok(
                &fixture,
                "workflow",
                json!({"action": "create", "name": "w", "steps": steps()}),
            )
            .await;
            let id = created["workflow"]["workflow_id"]
                .as_str()
                .unwrap()
                .to_string();
            for step in path {
                ok(
                    &fixture,
                    "workflow",
                    json!({"action": step, "workflow_id": id}),
                )
                .await;
            }
            let error = err(
                &fixture,
                "workflow",
                json!({"action": action, "workflow_id": id}),
            )
            .await;
            assert_invalid(&error, "action");
            assert!(
                error
                    .message
                    .starts_with(&format!("cannot {action} a {status} workflow")),
                "{error:?}"
            );
        }
    }
}

#[tokio::test]
async fn cycles_unknown_dependencies_and_malformed_steps_are_refused_at_create() {
    let fixture = Fixture::open();
    let create = |steps: Value| json!({"action": "create", "name": "w", "steps": steps});
    let cycle = err(
        &fixture,
        "workflow",
        create(json!([
            {"id": "a", "depends_on": ["c"]},
            {"id": "b", "depends_on": ["a"]},
            {"id": "c", "depends_on": ["b"]}
        ])),
    )
    .await;
    assert_invalid(&cycle, "steps");
    assert!(cycle.message.contains("cycle (a → c → b → a)"), "{cycle:?}");
    let unknown = err(
        &fixture,
        "workflow",
        create(json!([{"id": "a", "depends_on": ["ghost"]}])),
    )
    .await;
    assert!(
        unknown.message.contains("depends on \"ghost\""),
        "{unknown:?}"
    );
    let duplicate = err(
        &fixture,
        "workflow",
        create(json!([{"id": "a"}, {"id": "a"}])),
    )
    .await;
    assert!(
        duplicate.message.contains("ids are unique"),
        "{duplicate:?}"
    );
    assert_invalid(&err(&fixture, "workflow", create(json!([]))).await, "steps");
    assert_invalid(
        &err(&fixture, "workflow", create(json!([{"title": "no id"}]))).await,
        "steps[0].id",
    );
    assert_invalid(
        &err(
            &fixture,
            "workflow",
            json!({"action": "create", "steps": [{"id": "a"}]}),
        )
        .await,
        "name",
    );
    assert_invalid(
        &err(&fixture, "workflow", json!({"action": "status"})).await,
        "workflow_id",
    );
    let listed = ok(&fixture, "workflow", json!({"action": "list"})).await;
    assert_eq!(listed["count"], 0, "nothing refused was stored");
}
