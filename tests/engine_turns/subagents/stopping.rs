//! Children that stop early: cancelling the parent stops them all, and one past its time limit
//! ends as `timeout` with its partial output.

use super::*;

#[tokio::test]
async fn cancelling_the_parent_stops_every_child_within_two_seconds() {
    let server = ScriptedServer::start().await;
    server.push(Reply::tool_call(
        "delegate_task",
        json!({"tasks": ["slow-1", "slow-2", "slow-3"]}),
    ));
    for marker in ["slow-1", "slow-2", "slow-3"] {
        server.push_for(marker, Reply::text("too late").after(60_000));
    }
    let rig = Arc::new(agent_rig(&server, Dialect::Hearth, Settings::default()));
    let session = rig.session();
    let cancel = CancellationToken::new();
    let turn = {
        let (rig, session, cancel) = (rig.clone(), session.clone(), cancel.clone());
        tokio::spawn(async move { rig.send(&session, "fan out", cancel).await })
    };
    until_running(&rig.agents, 3).await;
    let stopped = Instant::now();
    cancel.cancel();
    let turn = turn.await.unwrap();
    rig.agents.wait_idle().await;
    assert!(
        stopped.elapsed() < Duration::from_secs(2),
        "{:?}",
        stopped.elapsed()
    );
    assert_eq!(turn.summary.end, TurnEnd::Cancelled);
    let runs = rig.store.agent_runs(Some(&session), 10).unwrap();
    assert_eq!(runs.len(), 3);
    assert!(
        runs.iter().all(|r| r.status == SubAgentStatus::Cancelled),
        "{runs:?}"
    );
}

#[tokio::test]
async fn a_child_past_its_time_limit_is_timeout_with_its_partial_output() {
    let server = ScriptedServer::start().await;
    server.push(Reply::tool_call(
        "delegate_task",
        json!({"tasks": ["timed-task"]}),
    ));
    server.push(Reply::text("reported"));
    server.push_for(
        "timed-task",
        Reply::tool_call("calculator", json!({"action": "sum", "values": [1, 2]}))
            .with_text("partial finding so far"),
    );
    server.push_for("timed-task", Reply::text("never").after(30_000));
    let mut settings = Settings::default();
    settings.subagents.timeout_secs = 1;
    let rig = agent_rig(&server, Dialect::Hearth, settings);
    let session = rig.session();
    rig.send(&session, "go", CancellationToken::new()).await;
    let result = &rig.results(&session)[0]["results"][0];
    assert_eq!(result["status"], "timeout", "{result}");
    assert_eq!(result["result"], "partial finding so far");
    assert!(result["error"]
        .as_str()
        .unwrap()
        .contains("time limit of 1 s"));
    let run = &rig.store.agent_runs(None, 1).unwrap()[0];
    assert_eq!(run.status, SubAgentStatus::Timeout);
}
