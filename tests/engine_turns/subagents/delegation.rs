//! `delegate_task` and `spawn_task`: three children at once whose results all come back, a
//! fourth running child refused while background results reach the chat, and no delegation
//! tools in a child.

use super::*;

#[tokio::test]
async fn three_tasks_run_at_once_and_every_result_comes_back() {
    let server = ScriptedServer::start().await;
    server.push(Reply::tool_call(
        "delegate_task",
        json!({"goal": "survey", "tasks": ["alpha-task", "beta-task", {"task": "gamma-task", "context": "c"}]}),
    ));
    server.push(Reply::text("all three reported"));
    for marker in ["alpha-task", "beta-task", "gamma-task"] {
        server.push_for(
            marker,
            Reply::text(&format!("{marker} result")).after(2_000),
        );
    }
    let rig = agent_rig(&server, Dialect::Hearth, Settings::default());
    let session = rig.session();
    let started = Instant::now();
    let turn = rig
        .send(&session, "survey the code", CancellationToken::new())
        .await;
    let elapsed = started.elapsed();
    assert!(
        elapsed < Duration::from_millis(4_500),
        "took {elapsed:?}: not concurrent"
    );
    assert_eq!(turn.summary.end, TurnEnd::Completed);
    let results = &rig.results(&session)[0]["results"];
    assert_eq!(results.as_array().unwrap().len(), 3, "{results}");
    for (i, marker) in ["alpha-task", "beta-task", "gamma-task"].iter().enumerate() {
        assert_eq!(results[i]["status"], "completed", "{results}");
        assert_eq!(results[i]["result"], format!("{marker} result"));
    }
    // Each child's 15 tokens are added to the parent's two responses.
    assert_eq!(turn.summary.usage.input_tokens, 20 + 30);
    assert_eq!(turn.summary.usage.output_tokens, 10 + 15);
    let runs = rig.store.agent_runs(Some(&session), 10).unwrap();
    assert_eq!(runs.len(), 3);
    assert!(runs.iter().all(|r| r.status == SubAgentStatus::Completed));
    assert!(runs.iter().all(|r| r.session_id.starts_with("task:")));
    let progress: Vec<_> = turn
        .events
        .iter()
        .filter_map(|e| match e {
            EngineEvent::SubAgent { progress } => Some(progress.clone()),
            _ => None,
        })
        .collect();
    assert!(progress
        .iter()
        .any(|p| p.status == SubAgentStatus::Running && p.iterations == 1));
    assert_eq!(
        progress
            .iter()
            .filter(|p| p.status == SubAgentStatus::Completed)
            .count(),
        3
    );
    // The child starts from its task alone: none of the parent's chat.
    let child = &requests_of(&server, "alpha-task")[0];
    assert!(!child.to_string().contains("survey the code"));
    assert!(child.to_string().contains("Overall goal: survey"));
}

#[tokio::test]
async fn a_fourth_running_child_is_refused_and_background_results_reach_the_chat() {
    let server = ScriptedServer::start().await;
    let spawn = |marker: &str| json!({"task": marker});
    server.push(
        Reply::tool_call("spawn_task", spawn("bg-one"))
            .and_tool_call("spawn_task", spawn("bg-two"))
            .and_tool_call("spawn_task", spawn("bg-three"))
            .and_tool_call("spawn_task", spawn("bg-four")),
    );
    server.push(Reply::text("three started"));
    for marker in ["bg-one", "bg-two", "bg-three", "bg-four"] {
        server.push_for(marker, Reply::text(&format!("{marker} done")).after(500));
    }
    let rig = agent_rig(&server, Dialect::Hearth, Settings::default());
    let session = rig.session();
    rig.send(&session, "start workers", CancellationToken::new())
        .await;
    let results = rig.results(&session);
    for started in &results[..3] {
        assert_eq!(started["status"], "running", "{started}");
    }
    assert_eq!(results[3]["error"]["kind"], "rate_limited");
    assert_eq!(
        results[3]["error"]["message"],
        "3 sub-agents are already running; wait for one to finish (a background worker's \
         result arrives in this chat)"
    );
    assert!(requests_of(&server, "bg-four").is_empty(), "never queued");
    rig.agents.wait_idle().await;
    let texts = rig.texts(&session);
    for marker in ["bg-one", "bg-two", "bg-three"] {
        assert!(
            texts
                .iter()
                .any(|t| t.contains("completed") && t.contains(&format!("{marker} done"))),
            "{marker} not reported: {texts:?}"
        );
    }
    // The parent's next turn sees the reports.
    server.push(Reply::text("noted"));
    rig.send(&session, "what did they find?", CancellationToken::new())
        .await;
    let last = server.model_requests().last().unwrap().body.to_string();
    assert!(last.contains("bg-two done"), "{last}");
}

#[tokio::test]
async fn a_child_never_gets_the_delegation_tools() {
    let server = ScriptedServer::start().await;
    server.push(Reply::tool_call(
        "delegate_task",
        json!({"tasks": ["nest-task"], "tools": ["delegate_task", "spawn_task", "read_file"]}),
    ));
    server.push(Reply::text("done"));
    server.push_for(
        "nest-task",
        Reply::tool_call("delegate_task", json!({"goal": "grandchild"})),
    );
    server.push_for("nest-task", Reply::text("I could not delegate"));
    let rig = agent_rig(&server, Dialect::Hearth, Settings::default());
    let session = rig.session();
    rig.send(&session, "go", CancellationToken::new()).await;
    let child = requests_of(&server, "nest-task");
    assert_eq!(tool_names(&child[0]), ["read_file"]);
    let refusal = child[1].to_string();
    assert!(
        refusal.contains("no tool named `delegate_task` is available to this sub-agent"),
        "{refusal}"
    );
    assert_eq!(
        rig.store.agent_runs(None, 10).unwrap().len(),
        1,
        "no grandchild"
    );
    assert_eq!(
        rig.results(&session)[0]["results"][0]["tools"],
        json!(["read_file"])
    );
}
