//! Sub-agents against the scripted model server, each child answered from its own script (keyed
//! by a marker in its task): parallel children, the running cap, no delegation tools in a
//! child, PicoBot's `delegate` in every mode with check/cancel/list, cancelling the parent, a
//! child's timeout, personas through `agents_route`, malformed arguments, and approvals
//! (`approvals.rs`).

use hearth_engine::{register_agents, Agents, ModelChoice};
use hearth_protocol::{AgentPersona, Settings, SubAgentStatus};
use hearth_tools::{Registry, ToolContext};

use crate::rig::*;

struct AgentRig {
    engine: Arc<Engine>,
    agents: Arc<Agents>,
    registry: Arc<Registry>,
    store: Arc<Store>,
    dir: DataDir,
    _home: tempfile::TempDir,
}

mod approvals;

fn agent_rig(server: &ScriptedServer, dialect: Dialect, settings: Settings) -> AgentRig {
    agent_rig_with(
        server,
        dialect,
        settings,
        Arc::new(FixedApprover(ApprovalDecision::Deny)),
    )
}

/// A rig whose parent turns ask `approver`.
fn agent_rig_with(
    server: &ScriptedServer,
    dialect: Dialect,
    settings: Settings,
    approver: Arc<dyn hearth_engine::Approver>,
) -> AgentRig {
    let home = tempfile::tempdir().unwrap();
    let dir = DataDir::at(home.path().to_path_buf());
    dir.ensure().unwrap();
    let store = Arc::new(Store::open(&dir.database()).unwrap());
    let client = build_client(ProviderConfig {
        kind: ProviderKind::Openai,
        provider_id: "scripted".into(),
        base_url: server.openai_base(),
        api_key: Some("test".into()),
        retry: RetryPolicy::default(),
        connect_timeout: Duration::from_secs(5),
    })
    .unwrap();
    let persona_client = client.clone();
    let agents = Arc::new(Agents::new(store.clone()).with_models(Arc::new(
        move |_settings, requested| {
            Ok(ModelChoice {
                client: persona_client.clone(),
                model: requested.to_string(),
            })
        },
    )));
    agents.configure(&settings);
    let mut registry = builtin_registry(dialect);
    register_agents(&mut registry, &agents).unwrap();
    let registry = Arc::new(registry);
    let runner = Arc::new(ToolRunner::new(
        registry.clone(),
        approver,
        store.clone(),
        SecurityProfile::PersonalCli,
        dir.root().to_path_buf(),
    ));
    let options = EngineOptions::new(dir.clone(), "parent-model");
    let engine = Engine::new(store.clone(), client, runner, options).with_agents(agents.clone());
    AgentRig {
        engine: Arc::new(engine),
        agents,
        registry,
        store,
        dir,
        _home: home,
    }
}

impl AgentRig {
    async fn send(&self, session: &str, text: &str, cancel: CancellationToken) -> TurnSummaryOf {
        let events = Arc::new(Mutex::new(Vec::new()));
        let seen = events.clone();
        let sink = move |e: EngineEvent| seen.lock().unwrap().push(e);
        let summary = self
            .engine
            .send(session, vec![ContentPart::text(text)], &sink, cancel)
            .await
            .unwrap();
        let events = events.lock().unwrap().clone();
        TurnSummaryOf { summary, events }
    }

    fn session(&self) -> String {
        self.engine.create_session("desktop", None).unwrap().id
    }

    /// The texts of the messages stored in `session`, in order.
    fn texts(&self, session: &str) -> Vec<String> {
        self.store
            .list_messages(session)
            .unwrap()
            .iter()
            .map(|m| m.text())
            .collect()
    }

    /// The tool results stored in `session`, parsed, in order.
    fn results(&self, session: &str) -> Vec<serde_json::Value> {
        self.store
            .list_messages(session)
            .unwrap()
            .into_iter()
            .filter_map(|m| m.tool_result)
            .map(|r| serde_json::from_str(&r.content).unwrap())
            .collect()
    }

    async fn call(&self, session: &str, tool: &str, args: serde_json::Value) -> serde_json::Value {
        let ctx = ToolContext {
            workspace: self.dir.workspace(),
            data_dir: self.dir.root().to_path_buf(),
            session_id: session.to_string(),
            cancel: CancellationToken::new(),
            images: Default::default(),
            conversation: None,
        };
        match self.registry.dispatch(tool, &args.to_string(), &ctx).await {
            Ok(value) => value,
            Err(error) => error.to_json(),
        }
    }
}

struct TurnSummaryOf {
    summary: hearth_engine::TurnSummary,
    events: Vec<EngineEvent>,
}

/// The model requests of the conversation whose first user message contains `marker`.
fn requests_of(server: &ScriptedServer, marker: &str) -> Vec<serde_json::Value> {
    server
        .model_requests()
        .into_iter()
        .map(|r| r.body)
        .filter(|body| {
            body["messages"]
                .as_array()
                .and_then(|m| m.iter().find(|m| m["role"] == "user"))
                .is_some_and(|m| m.to_string().contains(marker))
        })
        .collect()
}

fn tool_names(body: &serde_json::Value) -> Vec<String> {
    body["tools"]
        .as_array()
        .map(|tools| {
            tools
                .iter()
                .map(|t| t["function"]["name"].as_str().unwrap().to_string())
                .collect()
        })
        .unwrap_or_default()
}

/// Waits (at most 10 s) until `count` children run.
async fn until_running(agents: &Agents, count: usize) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while agents.running().len() < count {
        assert!(Instant::now() < deadline, "{count} children never ran");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

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

#[tokio::test]
async fn agents_route_answers_with_the_personas_prompt_and_model() {
    let server = ScriptedServer::start().await;
    server.push(
        Reply::tool_call("agents_list", json!({}))
            .and_tool_call(
                "agents_route",
                json!({"agent": "critic", "message": "route-msg: review"}),
            )
            .and_tool_call("agents_route", json!({"agent": "nobody", "message": "hi"})),
    );
    server.push(Reply::text("the critic answered"));
    server.push_for("route-msg", Reply::text("looks fine"));
    let settings = Settings {
        agents: vec![AgentPersona {
            name: "critic".into(),
            description: "Reviews drafts".into(),
            system_prompt: "You are the critic persona Q7.".into(),
            model: "critic-model".into(),
            tool_profile: Some(hearth_protocol::ToolProfile::Minimal),
        }],
        ..Settings::default()
    };
    let rig = agent_rig(&server, Dialect::Hearth, settings);
    let session = rig.session();
    rig.send(&session, "ask the critic", CancellationToken::new())
        .await;
    let results = rig.results(&session);
    assert_eq!(results[0]["agents"][0]["name"], "critic");
    assert_eq!(results[1]["status"], "completed");
    assert_eq!(results[1]["result"], "looks fine");
    assert_eq!(results[1]["agent"], "critic");
    assert_eq!(results[2]["error"]["kind"], "not_found");
    assert!(results[2]["error"]["message"]
        .as_str()
        .unwrap()
        .contains("critic"));
    let child = &requests_of(&server, "route-msg")[0];
    assert_eq!(child["model"], "critic-model");
    let system = child["messages"][0]["content"].to_string();
    assert!(
        system.contains("You are the critic persona Q7."),
        "{system}"
    );
    let names = tool_names(child);
    assert!(names.contains(&"read_file".to_string()));
    assert!(
        !names.contains(&"write_file".to_string()),
        "minimal profile: {names:?}"
    );
}

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
