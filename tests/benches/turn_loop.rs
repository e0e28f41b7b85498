//! Turn-loop overhead: an engine turn (with one calculator call) against a zero-latency scripted
//! server, minus the time the engine spent waiting for the model in that same turn; and the cost
//! of one tool dispatch through policy, audit and the registry. Prints p50/p95 per measurement.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::print_stdout)]

mod timed_client;

use std::sync::Arc;
use std::time::{Duration, Instant};

use hearth_core::DataDir;
use hearth_engine::{CallScope, Engine, EngineOptions, FixedApprover, ToolRunner};
use hearth_llm::{collect, ChatMessage, ChatRequest};
use hearth_policy::{SecurityProfile, ToolProfile};
use hearth_protocol::{ApprovalDecision, ContentPart, EngineEvent, ToolCall};
use hearth_store::Store;
use hearth_tests::{Reply, ScriptedServer};
use hearth_tools::{builtin_registry, Dialect};
use serde_json::json;
use timed_client::TimedClient;
use tokio_util::sync::CancellationToken;

const ROUNDS: usize = 200;

fn percentiles(mut samples: Vec<Duration>) -> (f64, f64) {
    samples.sort();
    let at =
        |q: f64| samples[((samples.len() as f64 - 1.0) * q).round() as usize].as_secs_f64() * 1e3;
    (at(0.50), at(0.95))
}

fn replies(server: &ScriptedServer) {
    server.push(
        Reply::tool_call(
            "calculator",
            json!({"action": "evaluate", "expression": "6*7"}),
        )
        .at_once(),
    );
    server.push(Reply::text("The answer is 42.").at_once());
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let server = ScriptedServer::start().await;
    let home = tempfile::tempdir().unwrap();
    let dir = DataDir::at(home.path().to_path_buf());
    dir.ensure().unwrap();
    let store = Arc::new(Store::open(&dir.database()).unwrap());
    let client = server.openai_client();
    let timed = Arc::new(TimedClient::new(client.clone()));
    let runner = Arc::new(ToolRunner::new(
        Arc::new(builtin_registry(Dialect::Hearth)),
        Arc::new(FixedApprover(ApprovalDecision::Deny)),
        store.clone(),
        SecurityProfile::PersonalCli,
        dir.root().to_path_buf(),
    ));
    let engine = Engine::new(
        store.clone(),
        timed.clone(),
        runner.clone(),
        EngineOptions::new(dir.clone(), "bench"),
    );

    // Model time alone, for reference: the same two responses streamed straight from the client.
    let request = ChatRequest {
        model: "bench".into(),
        system: "s".into(),
        messages: vec![ChatMessage::user("what is 6*7?")],
        tools: runner.specs(ToolProfile::Coding),
        max_tokens: None,
        temperature: None,
        tool_choice: hearth_llm::ToolChoice::Auto,
    };
    let mut model = Vec::with_capacity(ROUNDS);
    let mut turns = Vec::with_capacity(ROUNDS);
    let mut overhead = Vec::with_capacity(ROUNDS);
    let sink = |_: EngineEvent| {};
    for _ in 0..ROUNDS {
        replies(&server);
        let started = Instant::now();
        collect(client.stream(&request).await.unwrap())
            .await
            .unwrap();
        collect(client.stream(&request).await.unwrap())
            .await
            .unwrap();
        model.push(started.elapsed());

        replies(&server);
        let session = engine.create_session("bench", None).await.unwrap();
        timed.take_waited();
        let started = Instant::now();
        engine
            .send(
                &session.id,
                vec![ContentPart::text("what is 6*7?")],
                &sink,
                CancellationToken::new(),
            )
            .await
            .unwrap();
        let turn = started.elapsed();
        turns.push(turn);
        overhead.push(turn.saturating_sub(timed.take_waited()));
    }
    // The older estimate: each turn minus a model time measured apart, so the variation of two
    // independent HTTP exchanges adds to it.
    let paired: Vec<Duration> = turns
        .iter()
        .zip(&model)
        .map(|(t, m)| t.saturating_sub(*m))
        .collect();
    let (m50, m95) = percentiles(model);
    let (t50, t95) = percentiles(turns);
    let (o50, o95) = percentiles(overhead);
    let (p50, p95) = percentiles(paired);
    println!("model time (2 responses)      p50 {m50:.3} ms  p95 {m95:.3} ms");
    println!("engine turn (2 iterations)    p50 {t50:.3} ms  p95 {t95:.3} ms");
    println!("turn-loop overhead per turn   p50 {o50:.3} ms  p95 {o95:.3} ms  (turn minus its model wait)");
    println!(
        "  paired estimate             p50 {p50:.3} ms  p95 {p95:.3} ms  (turn minus model time)"
    );

    let scope = CallScope {
        session_id: "bench",
        workspace: &dir.workspace(),
        profile: ToolProfile::Coding,
        language: hearth_protocol::Language::En,
    };
    let call = ToolCall {
        id: "c".into(),
        name: "calculator".into(),
        arguments: r#"{"action":"evaluate","expression":"6*7"}"#.into(),
        signature: None,
    };
    let mut dispatch = Vec::with_capacity(ROUNDS * 5);
    for _ in 0..ROUNDS * 5 {
        let started = Instant::now();
        runner
            .run_calls(
                &scope,
                0,
                std::slice::from_ref(&call),
                &sink,
                &CancellationToken::new(),
            )
            .await
            .unwrap();
        dispatch.push(started.elapsed());
    }
    let (d50, d95) = percentiles(dispatch);
    println!("tool dispatch (policy+audit+registry) p50 {d50:.3} ms  p95 {d95:.3} ms");
}
