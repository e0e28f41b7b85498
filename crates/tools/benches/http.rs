//! Benchmark: `http_request` GET through the registry (guard, pinned client, body decoding)
//! against a local server allowed by allow_local, compared with a bare reqwest GET and with
//! spawning `curl -s -o /dev/null URL`; prints the medians and the overheads.
// Tests talk to their servers with plain reqwest clients: `hearth_net::http::client_builder` is
// for the product's own clients (see clippy.toml).
#![allow(clippy::disallowed_methods)]
// A benchmark is test code: it reports on stderr and fails loudly on any error.
#![allow(clippy::print_stderr, clippy::unwrap_used, clippy::expect_used)]

use axum::routing::get;
use axum::{Json, Router};
use criterion::Criterion;
use hearth_tools::{register_network, Dialect, NetworkConfig, Registry, ToolContext};
use serde_json::json;
use std::net::{Ipv4Addr, SocketAddr};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use tokio::runtime::Runtime;
use tokio_util::sync::CancellationToken;

/// Runs per measurement in the median report.
const RUNS: usize = 300;

fn start_server(runtime: &Runtime) -> SocketAddr {
    let app = Router::new().route(
        "/item",
        get(|| async { Json(json!({"id": 7, "name": "bench", "tags": ["a", "b", "c"]})) }),
    );
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
            .await
            .unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        addr
    })
}

fn curl_available() -> bool {
    Command::new("curl")
        .arg("--version")
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

fn curl(url: &str) {
    let status = Command::new("curl")
        .args(["-s", "-o", "/dev/null", url])
        .status()
        .unwrap();
    assert!(status.success(), "curl failed: {status}");
}

fn median(mut f: impl FnMut()) -> Duration {
    let mut times: Vec<Duration> = (0..RUNS)
        .map(|_| {
            let started = Instant::now();
            f();
            started.elapsed()
        })
        .collect();
    times.sort();
    times[times.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let addr = start_server(&runtime);
    let url = format!("http://{addr}/item");
    let mut registry = Registry::new(Dialect::Hearth);
    let config = NetworkConfig {
        allow_local: vec![addr.to_string()],
        ..NetworkConfig::default()
    };
    register_network(&mut registry, config).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let ctx = ToolContext {
        workspace: dir.path().to_path_buf(),
        data_dir: dir.path().to_path_buf(),
        session_id: "bench:http".into(),
        cancel: CancellationToken::new(),
        images: Default::default(),
        conversation: None,
        sandbox: Default::default(),
    };
    let args = json!({"url": url}).to_string();
    let tool_get = || {
        let result = runtime
            .block_on(registry.dispatch("http_request", &args, &ctx))
            .unwrap();
        assert_eq!(result["status"], 200);
    };
    let plain = reqwest::Client::builder().no_proxy().build().unwrap();
    let plain_get = || {
        let body = runtime.block_on(async {
            let response = plain.get(&url).send().await.unwrap();
            response.bytes().await.unwrap()
        });
        assert!(!body.is_empty());
    };
    let has_curl = curl_available();

    let mut c = Criterion::default()
        .sample_size(50)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .configure_from_args();
    c.bench_function("http_request_get", |b| b.iter(tool_get));
    c.bench_function("reqwest_get", |b| b.iter(plain_get));
    if has_curl {
        c.bench_function("curl_process_get", |b| b.iter(|| curl(&url)));
    }
    c.final_summary();

    let tool = median(tool_get);
    let bare = median(plain_get);
    eprintln!("medians over {RUNS} GETs of a small JSON body from 127.0.0.1:");
    eprintln!(
        "  http_request (registry + guard + decode): {:.3} ms",
        ms(tool)
    );
    eprintln!(
        "  bare reqwest GET (pooled connection):     {:.3} ms",
        ms(bare)
    );
    eprintln!(
        "  overhead of http_request over bare reqwest: {:.3} ms",
        ms(tool) - ms(bare)
    );
    if has_curl {
        let spawned = median(|| curl(&url));
        eprintln!(
            "  curl -s -o /dev/null (process spawn):     {:.3} ms",
            ms(spawned)
        );
        eprintln!(
            "  http_request is {:.1}x faster than spawning curl",
            spawned.as_secs_f64() / tool.as_secs_f64()
        );
    } else {
        eprintln!("  curl is not installed: the curl comparison was skipped");
    }
}
