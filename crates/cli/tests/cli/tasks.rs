//! `hearth-cli tasks`: sub-agents of a chat killed with `kill -9` are `interrupted` at the next
//! start, with their partial output, and the parent chat says so; `show` has the transcript;
//! `cancel` of an ended or unknown task is explained.

use super::*;

/// The runs `tasks list --json` prints.
async fn tasks(cli: &Cli) -> Vec<Value> {
    let out = cli.run(&["tasks", "list", "--json"]).await;
    assert!(out.status.success(), "{}", text(&out.stderr));
    serde_json::from_slice::<Value>(&out.stdout)
        .unwrap()
        .as_array()
        .unwrap()
        .clone()
}

/// Starts `hearth-cli chat MESSAGE` against `server` and waits until the model has had
/// `requests` requests.
async fn chat_until(
    cli: &Cli,
    server: &ScriptedServer,
    message: &str,
    requests: usize,
) -> tokio::process::Child {
    let base = server.openai_base();
    let chat = cli
        .command()
        .args([
            "--provider",
            "openai",
            "--base-url",
            &base,
            "--model",
            "m",
            "chat",
            message,
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    tokio::time::timeout(Duration::from_secs(30), async {
        while server.model_requests().len() < requests {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    })
    .await
    .expect("the model never got that many requests");
    chat
}

#[tokio::test(flavor = "multi_thread")]
async fn children_killed_with_the_cli_are_interrupted_and_their_parent_is_told() {
    let server = ScriptedServer::start().await;
    server.push(Reply::tool_call(
        "delegate_task",
        json!({"tasks": ["killed-one", "killed-two", "finished-three"]}),
    ));
    server.push_for("finished-three", Reply::text("three is done"));
    for marker in ["killed-one", "killed-two"] {
        server.push_for(
            marker,
            Reply::tool_call("calculator", json!({"action": "sum", "values": [1, 2]}))
                .with_text(&format!("{marker} progress")),
        );
        server.push_for(marker, Reply::text("never").after(60_000));
    }
    let cli = Cli::new();
    // Two children are waiting for their second reply, the third has answered: 1 parent +
    // 2 × 2 + 1 child requests; the kill comes once the third has stored its end.
    let mut child = chat_until(&cli, &server, "fan out", 6).await;
    tokio::time::timeout(Duration::from_secs(30), async {
        while !tasks(&cli)
            .await
            .iter()
            .any(|run| run["status"] == "completed")
        {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    })
    .await
    .expect("the third child never stored its end");
    let pid = child.id().unwrap();
    std::process::Command::new("kill")
        .args(["-9", &pid.to_string()])
        .status()
        .unwrap();
    let _ = child.wait().await;

    // None is lost or left running: the two killed children are interrupted with their
    // partial output, the finished one keeps its end.
    let all = tasks(&cli).await;
    assert_eq!(all.len(), 3, "{all:?}");
    let finished: Vec<&Value> = all
        .iter()
        .filter(|r| r["goal"] == "finished-three")
        .collect();
    assert_eq!(finished.len(), 1, "{all:?}");
    assert_eq!(finished[0]["status"], "completed");
    assert_eq!(finished[0]["result"], "three is done");
    let runs: Vec<Value> = all
        .iter()
        .filter(|r| r["goal"] != "finished-three")
        .cloned()
        .collect();
    for run in &runs {
        assert_eq!(run["status"], "interrupted", "{run}");
        let goal = run["goal"].as_str().unwrap();
        assert_eq!(run["result"], format!("{goal} progress"));
    }
    let parent = runs[0]["parent_session_id"].as_str().unwrap().to_string();
    let shown = cli.session_json(&parent).await;
    let reports: Vec<String> = shown["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["role"] == "assistant")
        .map(|m| m["content"][0]["text"].as_str().unwrap_or("").to_string())
        .filter(|t| t.contains("interrupted"))
        .collect();
    assert_eq!(reports.len(), 2, "{shown}");
    assert!(reports.iter().any(|t| t.contains("killed-one progress")));
    assert_eq!(tasks(&cli).await.len(), 3, "told once");

    let id = runs[0]["id"].as_str().unwrap();
    let out = cli.run(&["tasks", "show", id]).await;
    let shown = text(&out.stdout);
    assert!(shown.contains("status: interrupted"), "{shown}");
    assert!(shown.contains("→ calculator"), "{shown}");
    let json_out = cli.run(&["tasks", "show", id, "--json"]).await;
    let value: Value = serde_json::from_slice(&json_out.stdout).unwrap();
    assert_eq!(value["task"]["id"], id);
    assert!(value["transcript"].as_array().unwrap().len() >= 3);
    let cancelled = cli.run(&["tasks", "cancel", id]).await;
    assert!(text(&cancelled.stdout).contains("already ended: interrupted"));
    let unknown = cli.run(&["tasks", "cancel", "nope"]).await;
    assert_one_line_error(&unknown, "unknown task 'nope'").await;
}

#[tokio::test(flavor = "multi_thread")]
async fn tasks_cancel_stops_a_child_running_in_another_process() {
    let server = ScriptedServer::start().await;
    server.push(Reply::tool_call(
        "delegate_task",
        json!({"tasks": ["cancel-me"]}),
    ));
    server.push(Reply::text("the worker was stopped"));
    server.push_for("cancel-me", Reply::text("never").after(60_000));
    let cli = Cli::new();
    let chat = chat_until(&cli, &server, "go", 2).await;
    let runs = tasks(&cli).await;
    assert_eq!(
        runs[0]["status"], "running",
        "another live process keeps its run"
    );
    let id = runs[0]["id"].as_str().unwrap().to_string();
    let started = std::time::Instant::now();
    let out = cli.run(&["tasks", "cancel", &id]).await;
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout).trim(), format!("task {id}: cancelled"));
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
    let chat = tokio::time::timeout(Duration::from_secs(30), chat.wait_with_output())
        .await
        .unwrap()
        .unwrap();
    assert!(chat.status.success(), "{}", text(&chat.stderr));
    assert!(text(&chat.stdout).contains("the worker was stopped"));
    let second = server.model_requests()[2].body.to_string();
    assert!(
        second.contains("cancelled"),
        "the parent read the status: {second}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn chat_waits_for_its_background_workers_and_their_reports_land_in_the_chat() {
    let server = ScriptedServer::start().await;
    server.push(Reply::tool_call(
        "spawn_task",
        json!({"task": "bg-cli-job"}),
    ));
    server.push(Reply::text("started a worker"));
    server.push_for("bg-cli-job", Reply::text("worker finding").after(300));
    let cli = Cli::new();
    let out = cli.chat(&server, "openai", "start one").await;
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("waiting for 1 background sub-agent(s)"));
    let shown = cli.session_json(&session_id(&out.stderr)).await;
    let last = shown["messages"]
        .as_array()
        .unwrap()
        .last()
        .unwrap()
        .clone();
    let report = last["content"][0]["text"].as_str().unwrap();
    assert!(
        report.contains("completed") && report.contains("worker finding"),
        "{report}"
    );
    assert_eq!(tasks(&cli).await[0]["status"], "completed");
}
