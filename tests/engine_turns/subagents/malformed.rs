//! Malformed sub-agent arguments in both dialects, and delegation outside a turn: clear errors,
//! nothing run.

use super::*;

#[tokio::test]
async fn malformed_arguments_and_calls_outside_a_turn_are_clear_errors() {
    let server = ScriptedServer::start().await;
    let rig = agent_rig(&server, Dialect::Hearth, Settings::default());
    let session = rig.session();
    let kind = |v: &serde_json::Value| v["error"]["kind"].as_str().unwrap_or("").to_string();
    let empty = rig.call(&session, "delegate_task", json!({})).await;
    assert_eq!(
        (kind(&empty), &empty["error"]["field"]),
        ("invalid_arguments".into(), &json!("goal"))
    );
    let blank = rig
        .call(&session, "delegate_task", json!({"tasks": ["  "]}))
        .await;
    assert_eq!(blank["error"]["field"], "tasks[0]");
    let profile = rig
        .call(
            &session,
            "delegate_task",
            json!({"goal": "g", "worker_profile": "huge"}),
        )
        .await;
    assert!(profile["error"]["message"]
        .as_str()
        .unwrap()
        .contains("minimal, messaging"));
    let iterations = rig
        .call(
            &session,
            "delegate_task",
            json!({"goal": "g", "max_iterations": 0}),
        )
        .await;
    assert_eq!(kind(&iterations), "invalid_arguments");
    let unknown = rig
        .call(&session, "spawn_task", json!({"task": "t", "extra": 1}))
        .await;
    assert_eq!(kind(&unknown), "invalid_arguments");
    let huge = rig
        .call(&session, "spawn_task", json!({"task": "x".repeat(20_001)}))
        .await;
    assert_eq!(kind(&huge), "invalid_arguments");
    let outside = rig
        .call(&session, "delegate_task", json!({"goal": "g"}))
        .await;
    assert_eq!(kind(&outside), "unavailable");
    assert!(rig.store.agent_runs(None, 10).unwrap().is_empty());

    let pico = agent_rig(&server, Dialect::Picobot, Settings::default());
    let session = pico.session();
    let no_tasks = pico
        .call(
            &session,
            "delegate",
            json!({"action": "run", "mode": "parallel"}),
        )
        .await;
    assert_eq!(no_tasks["error"]["field"], "tasks");
    let no_prompt = pico
        .call(&session, "delegate", json!({"action": "run"}))
        .await;
    assert_eq!(no_prompt["error"]["field"], "prompt");
    let no_id = pico
        .call(&session, "delegate", json!({"action": "check_task"}))
        .await;
    assert_eq!(no_id["error"]["field"], "task_id");
    let missing = pico
        .call(
            &session,
            "delegate",
            json!({"action": "cancel_task", "task_id": "nope"}),
        )
        .await;
    assert_eq!(kind(&missing), "not_found");
    let action = pico
        .call(&session, "delegate", json!({"action": "explode"}))
        .await;
    assert_eq!(kind(&action), "invalid_arguments");
}
