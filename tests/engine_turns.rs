//! The turn loop against the scripted model server: events and stored rows of a tool loop,
//! concurrent read-only calls, cancellation mid-stream, retry after 429, the iteration limit,
//! periodic flushing, and compaction of a history that outgrows the context window.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use hearth_engine::{DataDir, Engine, EngineOptions, FixedApprover, ToolRunner};
use hearth_llm::{build_client, ProviderConfig, ProviderKind, RetryPolicy};
use hearth_policy::SecurityProfile;
use hearth_protocol::{
    ApprovalDecision, ContentPart, EngineEvent, MessageKind, MessageStatus, Role, TurnEnd,
};
use hearth_store::Store;
use hearth_tests::{Reply, ScriptedServer};
use hearth_tools::{builtin_registry, Dialect};
use serde_json::json;
use tokio_util::sync::CancellationToken;

struct Rig {
    engine: Arc<Engine>,
    store: Arc<Store>,
    events: Arc<Mutex<Vec<EngineEvent>>>,
    _home: tempfile::TempDir,
}

fn rig(server: &ScriptedServer, tune: impl FnOnce(&mut EngineOptions)) -> Rig {
    let home = tempfile::tempdir().unwrap();
    let dir = DataDir::at(home.path().to_path_buf());
    dir.ensure().unwrap();
    let store = Arc::new(Store::open(&dir.database()).unwrap());
    let client = build_client(ProviderConfig {
        kind: ProviderKind::Openai,
        base_url: server.openai_base(),
        api_key: Some("test".into()),
        retry: RetryPolicy {
            max_retries: 3,
            base_delay: Duration::from_millis(50),
            max_delay: Duration::from_secs(5),
        },
        connect_timeout: Duration::from_secs(5),
    })
    .unwrap();
    let runner = Arc::new(ToolRunner::new(
        Arc::new(builtin_registry(Dialect::Hearth)),
        Arc::new(FixedApprover(ApprovalDecision::Deny)),
        store.clone(),
        SecurityProfile::PersonalCli,
        dir.root().to_path_buf(),
    ));
    let mut options = EngineOptions::new(dir, "test-model");
    tune(&mut options);
    let engine = Arc::new(Engine::new(store.clone(), client, runner, options));
    Rig {
        engine,
        store,
        events: Arc::new(Mutex::new(Vec::new())),
        _home: home,
    }
}

impl Rig {
    async fn send(
        &self,
        session: &str,
        text: &str,
        cancel: CancellationToken,
    ) -> hearth_engine::TurnSummary {
        let events = self.events.clone();
        let sink = move |e: EngineEvent| events.lock().unwrap().push(e);
        self.engine
            .send(session, vec![ContentPart::text(text)], &sink, cancel)
            .await
            .unwrap()
    }

    fn session(&self) -> String {
        self.engine.create_session("test", None).unwrap().id
    }
}

#[tokio::test]
async fn a_tool_loop_emits_events_and_stores_every_step() {
    let server = ScriptedServer::start().await;
    server.push(Reply::tool_call(
        "calculator",
        json!({"action": "sum", "values": [1, 2, 3]}),
    ));
    server.push(Reply::text("Six."));
    let rig = rig(&server, |_| {});
    let session = rig.session();
    let summary = rig
        .send(&session, "add 1 2 3", CancellationToken::new())
        .await;
    assert_eq!(summary.end, TurnEnd::Completed);
    assert_eq!(summary.iterations, 2);

    let kinds: Vec<&'static str> = rig
        .events
        .lock()
        .unwrap()
        .iter()
        .map(|e| match e {
            EngineEvent::TurnStarted { .. } => "turn_started",
            EngineEvent::AssistantStarted { .. } => "assistant_started",
            EngineEvent::TextDelta { .. } => "delta",
            EngineEvent::AssistantFinished { .. } => "assistant_finished",
            EngineEvent::ToolCallStarted { .. } => "tool_started",
            EngineEvent::ToolCallFinished { .. } => "tool_finished",
            EngineEvent::TurnFinished { .. } => "turn_finished",
            _ => "other",
        })
        .filter(|k| *k != "delta")
        .collect();
    assert_eq!(
        kinds,
        [
            "turn_started",
            "assistant_started",
            "assistant_finished",
            "tool_started",
            "tool_finished",
            "assistant_started",
            "assistant_finished",
            "turn_finished"
        ]
    );
    let messages = rig.store.list_messages(&session).unwrap();
    assert_eq!(messages.len(), 4);
    assert_eq!(messages[2].role, Role::Tool);
    let result = messages[2].tool_result.as_ref().unwrap();
    assert!(!result.is_error);
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(&result.content).unwrap()["result"],
        json!(6)
    );
    assert_eq!(messages[3].text(), "Six.");
    // The model saw the calculator tool and the system prompt.
    let first = &server.requests()[0].body;
    assert!(first.to_string().contains("calculator"));
    assert!(first["messages"][0]["content"]
        .as_str()
        .unwrap()
        .contains("Workspace folder"));
}

#[tokio::test]
async fn several_read_only_calls_in_one_response_all_run() {
    let server = ScriptedServer::start().await;
    server.push(
        Reply::tool_call(
            "calculator",
            json!({"action": "evaluate", "expression": "2+2"}),
        )
        .and_tool_call("calculator", json!({"action": "max", "values": [3, 9, 4]}))
        .and_tool_call("get_device_info", json!({"fields": ["version"]})),
    );
    server.push(Reply::text("done"));
    let rig = rig(&server, |_| {});
    let session = rig.session();
    rig.send(&session, "go", CancellationToken::new()).await;
    let results: Vec<_> = rig
        .store
        .list_messages(&session)
        .unwrap()
        .into_iter()
        .filter_map(|m| m.tool_result)
        .collect();
    assert_eq!(results.len(), 3);
    assert!(results.iter().all(|r| !r.is_error), "{results:?}");
    assert_eq!(results[0].call_id, "call_1");
    assert_eq!(results[2].call_id, "call_3");
    let second = server.requests()[1].body.to_string();
    assert!(second.contains("call_1") && second.contains("call_2") && second.contains("call_3"));
}

#[tokio::test]
async fn cancelling_mid_stream_keeps_the_partial_reply_as_interrupted() {
    let server = ScriptedServer::start().await;
    let long: String = (0..200).map(|i| format!("w{i} ")).collect();
    server.push(Reply::text(&long).with_chunk_delay(10));
    let rig = rig(&server, |_| {});
    let session = rig.session();
    let cancel = CancellationToken::new();
    let trigger = cancel.clone();
    let events = rig.events.clone();
    tokio::spawn(async move {
        loop {
            tokio::time::sleep(Duration::from_millis(20)).await;
            let deltas = events
                .lock()
                .unwrap()
                .iter()
                .filter(|e| matches!(e, EngineEvent::TextDelta { .. }))
                .count();
            if deltas >= 5 {
                trigger.cancel();
                return;
            }
        }
    });
    let summary = rig.send(&session, "talk", cancel).await;
    assert_eq!(summary.end, TurnEnd::Cancelled);
    let messages = rig.store.list_messages(&session).unwrap();
    let reply = &messages[1];
    assert_eq!(reply.status, MessageStatus::Interrupted);
    assert!(!reply.text().is_empty() && reply.text().len() < long.len());
    // Dropping the stream closed the connection to the server.
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(server.connections_closed_early(), 1);
}

#[tokio::test]
async fn rate_limits_are_retried_after_the_advertised_delay() {
    let server = ScriptedServer::start().await;
    server.push(Reply::status(429, "slow down").with_retry_after(1));
    server.push(Reply::text("made it"));
    let rig = rig(&server, |_| {});
    let session = rig.session();
    let started = Instant::now();
    let summary = rig.send(&session, "hi", CancellationToken::new()).await;
    assert_eq!(summary.end, TurnEnd::Completed);
    assert!(
        started.elapsed() >= Duration::from_secs(1),
        "Retry-After was not honoured"
    );
    assert_eq!(server.requests().len(), 2);
    assert_eq!(
        rig.store.list_messages(&session).unwrap()[1].text(),
        "made it"
    );
}

#[tokio::test]
async fn server_errors_fail_the_turn_and_mark_the_reply_failed() {
    let server = ScriptedServer::start().await;
    for _ in 0..4 {
        server.push(Reply::status(503, "overloaded"));
    }
    let rig = rig(&server, |_| {});
    let session = rig.session();
    let events = rig.events.clone();
    let sink = move |e: EngineEvent| events.lock().unwrap().push(e);
    let error = rig
        .engine
        .send(
            &session,
            vec![ContentPart::text("hi")],
            &sink,
            CancellationToken::new(),
        )
        .await
        .unwrap_err();
    assert!(error.to_string().contains("server error"), "{error}");
    assert_eq!(server.requests().len(), 4, "one try plus three retries");
    let messages = rig.store.list_messages(&session).unwrap();
    assert_eq!(
        messages[0].status,
        MessageStatus::Complete,
        "the user message is kept"
    );
    assert_eq!(messages[1].status, MessageStatus::Failed);
    assert!(rig
        .events
        .lock()
        .unwrap()
        .iter()
        .any(|e| matches!(e, EngineEvent::TurnFailed { .. })));
}

#[tokio::test]
async fn the_iteration_limit_stops_an_endless_tool_loop() {
    let server = ScriptedServer::start().await;
    for _ in 0..3 {
        server.push(Reply::tool_call(
            "calculator",
            json!({"action": "sum", "values": [1]}),
        ));
    }
    let rig = rig(&server, |o| o.max_iterations = 3);
    let session = rig.session();
    let summary = rig.send(&session, "loop", CancellationToken::new()).await;
    assert_eq!(summary.end, TurnEnd::MaxIterations);
    assert_eq!(summary.iterations, 3);
    assert_eq!(server.requests().len(), 3);
}

#[tokio::test]
async fn streamed_text_is_flushed_to_the_store_while_streaming() {
    let server = ScriptedServer::start().await;
    let long: String = (0..100).map(|i| format!("t{i} ")).collect();
    server.push(Reply::text(&long).with_chunk_delay(25));
    let rig = rig(&server, |_| {});
    let session = rig.session();
    let store = rig.store.clone();
    let watched = session.clone();
    let watcher = tokio::spawn(async move {
        let mut seen = Vec::new();
        for _ in 0..40 {
            tokio::time::sleep(Duration::from_millis(50)).await;
            if let Some(m) = store.list_messages(&watched).unwrap().get(1) {
                if m.status == MessageStatus::Streaming {
                    seen.push(m.text().len());
                }
            }
        }
        seen
    });
    rig.send(&session, "stream", CancellationToken::new()).await;
    let seen = watcher.await.unwrap();
    assert!(
        seen.iter().any(|&n| n > 0),
        "no partial text was visible in the store: {seen:?}"
    );
}

#[tokio::test]
async fn a_history_too_long_for_the_window_is_compacted_into_a_summary() {
    let server = ScriptedServer::start().await;
    let rig = rig(&server, |o| o.context_window = 3_000);
    let session = rig.session();
    let filler = "lorem ipsum dolor sit amet ".repeat(40);
    for i in 0..6 {
        // Two replies per turn: a compaction consumes one for its summary.
        server.push(Reply::text(&format!("reply {i} {filler}")));
        server.push(Reply::text(&format!("summary or reply {i} {filler}")));
        rig.send(
            &session,
            &format!("question {i} {filler}"),
            CancellationToken::new(),
        )
        .await;
    }
    let compacted = rig
        .events
        .lock()
        .unwrap()
        .iter()
        .any(|e| matches!(e, EngineEvent::Compacted { .. }));
    assert!(compacted, "no compaction happened");
    let last = server.requests().last().unwrap().body.to_string();
    assert!(
        last.contains("Summary of the earlier part"),
        "the summary was not sent: {last}"
    );
    let messages = rig.store.list_messages(&session).unwrap();
    let summary = messages
        .iter()
        .find(|m| m.kind == MessageKind::Summary)
        .expect("a stored summary");
    assert!(summary.summary_through.is_some());
    // The timeline keeps the summary too.
    let recalled = rig
        .store
        .search_summaries("reply", Some(&session), None, None, 10)
        .unwrap();
    assert!(
        !recalled.is_empty(),
        "the compaction summary is not in the timeline"
    );
    // The originals are kept.
    assert!(messages.iter().any(|m| m.text().starts_with("question 0")));
}

#[tokio::test]
async fn pinned_and_relevant_memories_reach_the_system_prompt() {
    use hearth_store::{MemorySource, NewMemory};
    let server = ScriptedServer::start().await;
    server.push(Reply::text("noted"));
    let rig = rig(&server, |_| {});
    let pinned = NewMemory {
        pinned: Some(true),
        ..NewMemory::new("The user's name is Mei.", MemorySource::UserStated)
    };
    rig.store.add_memory(&pinned).unwrap();
    rig.store
        .add_memory(&NewMemory::new(
            "The user prefers green tea over coffee.",
            MemorySource::UserStated,
        ))
        .unwrap();
    rig.store
        .add_memory(&NewMemory::new(
            "The build server runs Debian.",
            MemorySource::ModelInferred,
        ))
        .unwrap();
    let session = rig.session();
    rig.send(&session, "what tea should I buy?", CancellationToken::new())
        .await;
    let system = server.requests()[0].body["messages"][0]["content"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(system.contains("The user's name is Mei."), "{system}");
    assert!(system.contains("green tea"), "{system}");
    assert!(
        !system.contains("Debian"),
        "an unrelated memory entered the prompt: {system}"
    );
}
