//! `process`: start, list, poll and stop; exit codes; the ring buffer's bound; the time limit
//! and the registry's drop killing whole process groups; unknown ids.

use crate::exec_tools::{
    assert_no_secrets, err, eventually, hearth, lingering, marker, ok, path_of, plant_secrets,
    processes_with, Fixture,
};
use hearth_tools::{ErrorKind, Registry};
use serde_json::{json, Value};
use std::time::Duration;

fn start(command: &str) -> String {
    json!({"action": "start", "command": command}).to_string()
}

fn on(action: &str, id: &Value) -> String {
    json!({"action": action, "process_id": id}).to_string()
}

/// Waits until `list` shows the process no longer running; returns its list entry.
pub(crate) async fn finished(registry: &Registry, fixture: &Fixture, id: &Value) -> Value {
    for _ in 0..200 {
        let list = ok(registry, fixture, "process", r#"{"action": "list"}"#).await;
        let entry = list["processes"]
            .as_array()
            .and_then(|all| all.iter().find(|p| &p["process_id"] == id).cloned())
            .unwrap_or_default();
        if entry["status"] != "running" {
            return entry;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("process {id} never finished");
}

#[tokio::test]
async fn start_poll_list_and_stop() {
    let fixture = Fixture::create();
    let registry = hearth();
    let tag = marker("process-stop");
    let started = ok(
        &registry,
        &fixture,
        "process",
        &start(&format!("echo started; {}", lingering(&tag))),
    )
    .await;
    let id = started["process_id"].clone();
    assert_eq!(
        (id.clone(), started["status"].clone()),
        (json!("proc-1"), json!("running"))
    );
    assert_eq!(started["timeout_s"], 300);
    let mut seen = String::new();
    for _ in 0..100 {
        let polled = ok(&registry, &fixture, "process", &on("poll", &id)).await;
        seen.push_str(polled["stdout"].as_str().unwrap());
        if seen.contains("started") {
            assert_eq!(polled["status"], "running");
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(seen, "started\n", "each poll returns only new output");
    let again = ok(&registry, &fixture, "process", &on("poll", &id)).await;
    assert_eq!(
        (
            again["stdout"].clone(),
            again["dropped_bytes"]["stdout"].clone()
        ),
        (json!(""), json!(0))
    );
    let list = ok(&registry, &fixture, "process", r#"{"action": "list"}"#).await;
    assert_eq!(
        list["processes"][0]["command"],
        format!("echo started; {}", lingering(&tag))
    );
    assert!(!processes_with(&tag).is_empty());
    let stopped = ok(&registry, &fixture, "process", &on("stop", &id)).await;
    assert_eq!(
        (stopped["status"].clone(), stopped["reason"].clone()),
        (json!("killed"), json!("stopped"))
    );
    assert_eq!(stopped["stopped"], true);
    assert!(eventually(Duration::from_secs(3), || processes_with(&tag).is_empty()).await);
    let twice = ok(&registry, &fixture, "process", &on("stop", &id)).await;
    assert_eq!(
        (twice["stopped"].clone(), twice["note"].clone()),
        (json!(false), json!("the process had already ended"))
    );
}

#[tokio::test]
async fn exit_codes_and_secrets() {
    plant_secrets();
    let fixture = Fixture::create();
    let registry = hearth();
    let started = ok(
        &registry,
        &fixture,
        "process",
        &start("env; echo bye >&2; exit 7"),
    )
    .await;
    let id = started["process_id"].clone();
    let entry = finished(&registry, &fixture, &id).await;
    assert_eq!(
        (entry["status"].clone(), entry["exit_code"].clone()),
        (json!("exited"), json!(7))
    );
    let polled = ok(&registry, &fixture, "process", &on("poll", &id)).await;
    assert_no_secrets(polled["stdout"].as_str().unwrap());
    assert_eq!(polled["stderr"], "bye\n");
    assert_eq!(polled["exit_code"], 7);
}

#[tokio::test]
async fn the_ring_buffer_keeps_only_the_newest_mebibyte() {
    let fixture = Fixture::create();
    let registry = hearth();
    let command = "head -c 3145728 /dev/zero | tr '\\0' x; printf end; echo done >&2";
    let id = ok(&registry, &fixture, "process", &start(command)).await["process_id"].clone();
    finished(&registry, &fixture, &id).await;
    let polled = ok(&registry, &fixture, "process", &on("poll", &id)).await;
    let kept = 1024 * 1024;
    assert_eq!(
        polled["dropped_bytes"]["stdout"],
        3 * 1024 * 1024 + 3 - kept
    );
    assert_eq!(polled["dropped_bytes"]["stderr"], 0);
    assert_eq!(
        polled["total_chars"]["stdout"], kept,
        "the ring holds its capacity, no more"
    );
    assert_eq!(polled["truncated"], true);
    assert!(polled["stdout"].as_str().unwrap().ends_with("xxend"));
    assert_eq!(polled["stderr"], "done\n");
    let spilled = std::fs::read_to_string(path_of(&polled["spill_path"])).unwrap();
    assert!(spilled.contains(&format!("{}end\n", "x".repeat(kept - 3))));
    let after = ok(&registry, &fixture, "process", &on("poll", &id)).await;
    assert_eq!(
        (
            after["stdout"].clone(),
            after["dropped_bytes"]["stdout"].clone()
        ),
        (json!(""), json!(0))
    );
}

#[tokio::test]
async fn the_time_limit_kills_the_whole_group() {
    let fixture = Fixture::create();
    let registry = hearth();
    let tag = marker("process-timeout");
    let args =
        json!({"action": "start", "command": format!("{} & wait", lingering(&tag)), "timeout": 1});
    let id = ok(&registry, &fixture, "process", &args.to_string()).await["process_id"].clone();
    assert!(eventually(Duration::from_secs(2), || !processes_with(&tag).is_empty()).await);
    let entry = finished(&registry, &fixture, &id).await;
    assert_eq!(
        (entry["status"].clone(), entry["reason"].clone()),
        (json!("killed"), json!("timeout"))
    );
    assert!(eventually(Duration::from_secs(3), || processes_with(&tag).is_empty()).await);
}

#[tokio::test]
async fn dropping_the_registry_kills_its_processes() {
    let fixture = Fixture::create();
    let tag = marker("process-drop");
    let registry = hearth();
    ok(
        &registry,
        &fixture,
        "process",
        &start(&format!("{} & wait", lingering(&tag))),
    )
    .await;
    assert!(eventually(Duration::from_secs(2), || !processes_with(&tag).is_empty()).await);
    drop(registry);
    assert!(eventually(Duration::from_secs(3), || processes_with(&tag).is_empty()).await);
}

#[tokio::test]
async fn unknown_ids_name_the_known_ones() {
    let fixture = Fixture::create();
    let registry = hearth();
    let none = err(
        &registry,
        &fixture,
        "process",
        &on("poll", &json!("proc-9")),
    )
    .await;
    assert_eq!(
        (none.kind, none.field.as_deref()),
        (ErrorKind::NotFound, Some("process_id"))
    );
    assert_eq!(none.message, "no process proc-9; known processes: none");
    ok(&registry, &fixture, "process", &start("true")).await;
    let some = err(
        &registry,
        &fixture,
        "process",
        &on("stop", &json!("proc-9")),
    )
    .await;
    assert_eq!(some.message, "no process proc-9; known processes: proc-1");
    let empty = ok(&hearth(), &fixture, "process", r#"{"action": "list"}"#).await;
    assert_eq!(empty, json!({"processes": []}));
}
