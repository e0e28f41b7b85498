//! `todo`, `task`, `workflow` and `clarify`: every illegal transition, bad graphs, malformed
//! arguments, state surviving a reopened store, and questions answered, unanswered and asked
//! where nobody can answer.

#![allow(clippy::unwrap_used)]

use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use hearth_protocol::EngineEvent;
use hearth_tools::{
    register_planning, Conversation, Dialect, ErrorKind, Question, Registry, Reply, ToolError,
};
use serde_json::{json, Value};

use super::{assert_invalid, column, Fixture};

/// A front end that records what it was shown and answers questions with a fixed reply.
struct Front {
    shown: Mutex<Vec<EngineEvent>>,
    asked: Mutex<Vec<Question>>,
    reply: Reply,
}

#[async_trait]
impl Conversation for Front {
    fn language(&self) -> hearth_protocol::Language {
        hearth_protocol::Language::En
    }

    fn show(&self, event: EngineEvent) {
        self.shown.lock().unwrap().push(event);
    }

    async fn ask(&self, question: Question) -> Reply {
        self.asked.lock().unwrap().push(question);
        self.reply.clone()
    }
}

fn front(reply: Reply) -> Arc<Front> {
    Arc::new(Front {
        shown: Mutex::new(Vec::new()),
        asked: Mutex::new(Vec::new()),
        reply,
    })
}

/// The planning tools over the fixture's store.
fn registry(fixture: &Fixture) -> Registry {
    let mut registry = Registry::new(Dialect::Hearth);
    register_planning(&mut registry, Arc::clone(&fixture.store)).unwrap();
    registry
}

async fn with_front(
    fixture: &Fixture,
    front: &Arc<Front>,
    tool: &str,
    args: Value,
) -> Result<Value, ToolError> {
    let mut ctx = fixture.context();
    ctx.conversation = Some(front.clone() as Arc<dyn Conversation>);
    registry(fixture)
        .dispatch(tool, &args.to_string(), &ctx)
        .await
}

async fn ok(fixture: &Fixture, tool: &str, args: Value) -> Value {
    match registry(fixture)
        .dispatch(tool, &args.to_string(), &fixture.context())
        .await
    {
        Ok(value) => value,
        Err(e) => panic!("{tool} {args} failed: {e:?}"),
    }
}

async fn err(fixture: &Fixture, tool: &str, args: Value) -> ToolError {
    match registry(fixture)
        .dispatch(tool, &args.to_string(), &fixture.context())
        .await
    {
        Ok(value) => panic!("{tool} {args} succeeded: {value}"),
        Err(e) => e,
    }
}

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
