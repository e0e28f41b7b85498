//! MCP figures for the README: the time from start to five stdio servers ready (started in
//! parallel), and the overhead of a call through Hearth's registry against the same call made
//! directly with `rmcp`. Needs the test servers `scripts/setup.sh` installs under `target/`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::print_stdout)]

use std::path::Path;
use std::time::{Duration, Instant};

use hearth_mcp::{McpManager, State};
use hearth_protocol::McpServerSettings;
use hearth_tools::{Dialect, Registry, ToolContext};
use rmcp::model::CallToolRequestParams;
use rmcp::transport::TokioChildProcess;
use rmcp::ServiceExt;
use tokio_util::sync::CancellationToken;

const CALLS: u32 = 300;

fn everything_js() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(
        "../../target/mcp-node/node_modules/@modelcontextprotocol/server-everything/dist/index.js",
    );
    assert!(path.exists(), "run scripts/setup.sh first");
    path.display().to_string()
}

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

#[tokio::main]
async fn main() {
    let dir = tempfile::tempdir().unwrap();
    let js = everything_js();
    let five: Vec<McpServerSettings> = (1..=5)
        .map(|i| McpServerSettings::stdio(&format!("s{i}"), "node", &[js.clone(), "stdio".into()]))
        .collect();
    for servers in [&five[..1], &five[..]] {
        let mut starts = Vec::new();
        for _ in 0..3 {
            let started = Instant::now();
            let manager = McpManager::start(servers, &|_| None, dir.path());
            manager.settled().await;
            starts.push(started.elapsed());
            assert!(manager.statuses().iter().all(|s| s.state == State::Ready));
            manager.shutdown().await;
        }
        println!(
            "{} stdio server(s) ready (median of 3): {:?}",
            servers.len(),
            median(starts)
        );
    }

    let manager = McpManager::start(&five[..1], &|_| None, dir.path());
    manager.settled().await;
    let mut registry = Registry::new(Dialect::Hearth);
    for tool in manager.registry_tools() {
        registry.register_dyn(tool).unwrap();
    }
    let ctx = ToolContext {
        workspace: dir.path().to_path_buf(),
        data_dir: dir.path().to_path_buf(),
        session_id: "bench".into(),
        cancel: CancellationToken::new(),
        images: Default::default(),
        conversation: None,
        sandbox: Default::default(),
    };
    let mut through = Vec::new();
    for _ in 0..CALLS {
        let started = Instant::now();
        registry
            .dispatch("mcp__s1__echo", r#"{"message":"ping"}"#, &ctx)
            .await
            .unwrap();
        through.push(started.elapsed());
    }
    manager.shutdown().await;

    let mut command = tokio::process::Command::new("node");
    command.args([js.as_str(), "stdio"]);
    let client = ().serve(TokioChildProcess::new(command).unwrap()).await.unwrap();
    let mut direct = Vec::new();
    for _ in 0..CALLS {
        let mut params = CallToolRequestParams::new("echo");
        params.arguments = serde_json::json!({"message": "ping"}).as_object().cloned();
        let started = Instant::now();
        client.call_tool(params).await.unwrap();
        direct.push(started.elapsed());
    }
    client.cancel().await.unwrap();
    let (through, direct) = (median(through), median(direct));
    println!(
        "echo call, median of {CALLS}: through the registry {through:?}, direct rmcp {direct:?}, overhead {:?}",
        through.saturating_sub(direct)
    );
}
