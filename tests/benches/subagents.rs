//! Sub-agent overhead against a zero-latency scripted server: a plain two-iteration turn (one
//! `calculator` call) against a turn whose tool call is `delegate_task` with one child (its run
//! row, session, tool set and one-response turn), each measured as wall time minus the time
//! spent waiting for the model; and a `delegate_task` with three parallel children, whose extra
//! wall time over one child is the cost of starting and collecting two more. Prints p50/p95.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::print_stdout)]

mod timed_client;

use std::sync::Arc;
use std::time::{Duration, Instant};

use hearth_core::DataDir;
use hearth_engine::{register_agents, Agents, Engine, EngineOptions, FixedApprover, ToolRunner};
use hearth_policy::SecurityProfile;
use hearth_protocol::{ApprovalDecision, ContentPart, EngineEvent};
use hearth_store::Store;
use hearth_tests::{Reply, ScriptedServer};
use hearth_tools::{builtin_registry, Dialect};
use serde_json::{json, Value};
use timed_client::TimedClient;
use tokio_util::sync::CancellationToken;

const ROUNDS: usize = 100;

fn percentiles(mut samples: Vec<Duration>) -> (f64, f64) {
    samples.sort();
    let at =
        |q: f64| samples[((samples.len() as f64 - 1.0) * q).round() as usize].as_secs_f64() * 1e3;
    (at(0.50), at(0.95))
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let server = ScriptedServer::start().await;
    let home = tempfile::tempdir().unwrap();
    let dir = DataDir::at(home.path().to_path_buf());
    dir.ensure().unwrap();
    let store = Arc::new(Store::open(&dir.database()).unwrap());
    let timed = Arc::new(TimedClient::new(server.openai_client()));
    let agents = Arc::new(Agents::new(store.clone()));
    let mut registry = builtin_registry(Dialect::Hearth);
    register_agents(&mut registry, &agents).unwrap();
    let runner = Arc::new(ToolRunner::new(
        Arc::new(registry),
        Arc::new(FixedApprover(ApprovalDecision::Deny)),
        store.clone(),
        SecurityProfile::PersonalCli,
        dir.root().to_path_buf(),
    ));
    let engine = Engine::new(
        store.clone(),
        timed.clone(),
        runner,
        EngineOptions::new(dir, "bench"),
    )
    .with_agents(agents);
    let sink = |_: EngineEvent| {};
    // One turn whose first response calls `tool` with `args` (children answer from the FIFO too:
    // they run after the call's response and before the parent's last one).
    let turn = |tool: &'static str, args: Value, children: usize| {
        let (engine, server, timed) = (&engine, &server, &timed);
        async move {
            server.push(Reply::tool_call(tool, args).at_once());
            for i in 0..children {
                server.push(Reply::text(&format!("child {i} done")).at_once());
            }
            server.push(Reply::text("done").at_once());
            let session = engine.create_session("bench", None).await.unwrap();
            timed.take_waited();
            let started = Instant::now();
            engine
                .send(
                    &session.id,
                    vec![ContentPart::text("go")],
                    &sink,
                    CancellationToken::new(),
                )
                .await
                .unwrap();
            let wall = started.elapsed();
            (wall, wall.saturating_sub(timed.take_waited()))
        }
    };
    let (mut plain, mut one, mut three_wall, mut one_wall) = (vec![], vec![], vec![], vec![]);
    for _ in 0..ROUNDS {
        let calc = json!({"action": "evaluate", "expression": "6*7"});
        plain.push(turn("calculator", calc, 0).await.1);
        let (wall, overhead) = turn("delegate_task", json!({"tasks": ["a"]}), 1).await;
        one.push(overhead);
        one_wall.push(wall);
        three_wall.push(
            turn("delegate_task", json!({"tasks": ["a", "b", "c"]}), 3)
                .await
                .0,
        );
    }
    let (p50, p95) = percentiles(plain.clone());
    let (o50, o95) = percentiles(one.clone());
    let per_child: Vec<Duration> = one
        .iter()
        .zip(&plain)
        .map(|(o, p)| o.saturating_sub(*p))
        .collect();
    let (c50, c95) = percentiles(per_child);
    let extra: Vec<Duration> = three_wall
        .iter()
        .zip(&one_wall)
        .map(|(t, o)| t.saturating_sub(*o) / 2)
        .collect();
    let (e50, e95) = percentiles(extra);
    println!("plain turn overhead (calculator)        p50 {p50:.3} ms  p95 {p95:.3} ms");
    println!("turn delegating one child, overhead     p50 {o50:.3} ms  p95 {o95:.3} ms");
    println!("  one child's cost over the plain turn  p50 {c50:.3} ms  p95 {c95:.3} ms");
    println!("each extra parallel child (3 vs 1, wall) p50 {e50:.3} ms  p95 {e95:.3} ms");
}
