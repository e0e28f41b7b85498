//! PicoBot's `delegate`: inline, parallel and background runs, then `check_task`,
//! `cancel_task` and `list_tasks` on them.

use super::*;

#[tokio::test]
async fn picobot_delegate_runs_in_every_mode_and_checks_lists_and_cancels() {
    let server = ScriptedServer::start().await;
    server.push(
        Reply::tool_call("delegate", json!({"action": "run", "prompt": "inline-job"}))
            .and_tool_call(
                "delegate",
                json!({"action": "run", "mode": "parallel", "tasks": ["par-1", {"prompt": "par-2", "allowed_tools": ["calculator"]}]}),
            )
            .and_tool_call(
                "delegate",
                json!({"action": "run", "mode": "background", "prompt": "bg-job"}),
            )
            .and_tool_call("delegate", json!({"action": "list_tasks"})),
    );
    server.push(Reply::text("delegated"));
    server.push_for("inline-job", Reply::text("inline answer"));
    server.push_for("par-1", Reply::text("first"));
    server.push_for("par-2", Reply::text("second"));
    server.push_for("bg-job", Reply::text("never sent").after(30_000));
    let rig = agent_rig(&server, Dialect::Picobot, Settings::default());
    let session = rig.session();
    rig.send(&session, "delegate things", CancellationToken::new())
        .await;
    let results = rig.results(&session);
    assert_eq!(results[0]["status"], "completed");
    assert_eq!(results[0]["result"], "inline answer");
    assert_eq!(results[1]["results"][0]["result"], "first");
    assert_eq!(results[1]["results"][1]["result"], "second");
    assert_eq!(results[1]["results"][1]["tools"], json!(["calculator"]));
    // The read-only defaults, as far as this registry has them.
    assert_eq!(
        tool_names(&requests_of(&server, "inline-job")[0]),
        ["calculator", "content_search", "file_read", "file_search"]
    );
    let task_id = results[2]["task_id"].as_str().unwrap().to_string();
    assert_eq!(results[2]["status"], "running");
    assert_eq!(results[3]["count"], 4, "{}", results[3]);

    let checked = rig
        .call(
            &session,
            "delegate",
            json!({"action": "check_task", "task_id": task_id}),
        )
        .await;
    assert_eq!(checked["status"], "running", "{checked}");
    assert!(checked["elapsed_ms"].is_u64());
    let elsewhere = rig
        .call(
            "desktop:other",
            "delegate",
            json!({"action": "check_task", "task_id": task_id}),
        )
        .await;
    assert_eq!(elsewhere["error"]["kind"], "not_found");

    let started = Instant::now();
    let cancelled = rig
        .call(
            &session,
            "delegate",
            json!({"action": "cancel_task", "task_id": task_id}),
        )
        .await;
    assert!(started.elapsed() < Duration::from_secs(2));
    assert_eq!(cancelled["status"], "cancelled", "{cancelled}");
    let again = rig
        .call(
            &session,
            "delegate",
            json!({"action": "cancel_task", "task_id": task_id}),
        )
        .await;
    assert_eq!(again["note"], "the task had already ended");
    let listed = rig
        .call(&session, "delegate", json!({"action": "list_tasks"}))
        .await;
    assert_eq!(listed["count"], 4);
    assert_eq!(listed["tasks"][0]["status"], "cancelled");
    let reported = rig
        .store
        .list_messages(&session)
        .unwrap()
        .last()
        .unwrap()
        .text();
    assert!(
        reported.contains("cancelled") && reported.contains(&task_id),
        "{reported}"
    );
}
