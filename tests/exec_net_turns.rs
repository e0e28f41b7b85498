//! Agent turns through each dialect's command and network tools, with the engine's real tool
//! registry (network configured as the app does): `exec` (Hearth/Echo) and `bash` (PicoBot)
//! run in the workspace once approved; `http_request` (CeeCore/Hearth, PicoBot's shape) and
//! `web_fetch` reach a local server the settings allow, and a local port they do not allow is
//! refused as `blocked_address` before any connection (a canary listener counts them).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use hearth_engine::{
    tool_registry, DataDir, Engine, EngineOptions, FixedApprover, OsNotifier, ToolRunner,
};
use hearth_llm::{build_client, ProviderConfig, ProviderKind, RetryPolicy};
use hearth_policy::SecurityProfile;
use hearth_protocol::{ApprovalDecision, ContentPart, TurnEnd};
use hearth_store::Store;
use hearth_tests::{Reply, ScriptedServer};
use hearth_tools::{Background, Dialect, NetworkConfig};
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

/// A local HTTP server answering every request with `{"ok":true,"from":"local"}`, and how many
/// connections it accepted.
async fn listener(answer: bool) -> (u16, Arc<AtomicUsize>) {
    let socket = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = socket.local_addr().unwrap().port();
    let accepted = Arc::new(AtomicUsize::new(0));
    let count = accepted.clone();
    tokio::spawn(async move {
        while let Ok((mut stream, _)) = socket.accept().await {
            count.fetch_add(1, Ordering::SeqCst);
            if !answer {
                continue;
            }
            let mut request = [0u8; 4096];
            let _ = stream.read(&mut request).await;
            let body = r#"{"ok":true,"from":"local"}"#;
            let response = format!(
                "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                body.len()
            );
            let _ = stream.write_all(response.as_bytes()).await;
        }
    });
    (port, accepted)
}

/// One agent turn of `dialect` making `calls` (approved once each); the stored tool results
/// `(name, JSON, is_error)` in call order.
async fn turn(
    home: &std::path::Path,
    dialect: Dialect,
    allowed_port: u16,
    calls: &[(&str, Value)],
) -> Vec<(String, Value, bool)> {
    let server = ScriptedServer::start().await;
    for (name, args) in calls {
        server.push(Reply::tool_call(name, args.clone()));
    }
    server.push(Reply::text("Done."));
    let dir = DataDir::at(home.to_path_buf());
    dir.ensure().unwrap();
    let store = Arc::new(Store::open(&dir.database()).unwrap());
    let client = build_client(ProviderConfig {
        kind: ProviderKind::Openai,
        base_url: server.openai_base(),
        api_key: Some("test".into()),
        retry: RetryPolicy::default(),
        connect_timeout: Duration::from_secs(5),
    })
    .unwrap();
    let network = NetworkConfig {
        allow_local: vec![format!("127.0.0.1:{allowed_port}")],
        ..NetworkConfig::default()
    };
    let background = Background::new();
    let registry = tool_registry(dialect, &store, Arc::new(OsNotifier), network, &background);
    let runner = Arc::new(ToolRunner::new(
        Arc::new(registry),
        Arc::new(FixedApprover(ApprovalDecision::AllowOnce)),
        store.clone(),
        SecurityProfile::PersonalCli,
        dir.root().to_path_buf(),
    ));
    let mut options = EngineOptions::new(dir, "test-model");
    options.tool_profile = hearth_policy::ToolProfile::Full;
    let engine = Engine::new(store.clone(), client, runner, options);
    let session = engine.create_session("test", None).unwrap().id;
    let summary = engine
        .send(
            &session,
            vec![ContentPart::text("run it")],
            &|_| {},
            CancellationToken::new(),
        )
        .await
        .unwrap();
    assert_eq!(summary.end, TurnEnd::Completed, "{dialect}");
    store
        .list_messages(&session)
        .unwrap()
        .into_iter()
        .filter_map(|m| m.tool_result)
        .map(|r| {
            (
                r.name,
                serde_json::from_str(&r.content).unwrap(),
                r.is_error,
            )
        })
        .collect()
}

fn error_kind(value: &Value) -> &str {
    value["error"]["kind"].as_str().unwrap_or("")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn commands_run_in_the_workspace_and_requests_pass_the_guard_in_every_dialect() {
    let (allowed, served) = listener(true).await;
    let (forbidden, canary) = listener(false).await;
    let ok_url = format!("http://127.0.0.1:{allowed}/data.json");
    let bad_url = format!("http://127.0.0.1:{forbidden}/secret");
    let cases: [(Dialect, Option<&str>, &str, Option<&str>); 4] = [
        (
            Dialect::Hearth,
            Some("exec"),
            "http_request",
            Some("web_fetch"),
        ),
        (
            Dialect::Echo,
            Some("exec"),
            "http_request",
            Some("web_fetch"),
        ),
        (Dialect::Ceecore, None, "http_request", None),
        (
            Dialect::Picobot,
            Some("bash"),
            "http_request",
            Some("web_fetch"),
        ),
    ];
    for (dialect, shell, http, fetch) in cases {
        let home = tempfile::tempdir().unwrap();
        let mut calls = Vec::new();
        if let Some(shell) = shell {
            calls.push((shell, json!({"command": "printf made > made.txt && pwd"})));
        }
        calls.push((http, json!({"url": ok_url, "method": "GET"})));
        calls.push((http, json!({"url": bad_url})));
        if let Some(fetch) = fetch {
            calls.push((fetch, json!({"url": ok_url})));
        }
        let before = served.load(Ordering::SeqCst);
        let results = turn(home.path(), dialect, allowed, &calls).await;
        assert_eq!(results.len(), calls.len(), "{dialect}: {results:?}");
        let mut results = results.into_iter();
        if shell.is_some() {
            let (name, value, is_error) = results.next().unwrap();
            assert!(!is_error, "{dialect} {name}: {value}");
            let workspace = std::fs::canonicalize(home.path().join("workspace")).unwrap();
            assert_eq!(
                std::fs::read_to_string(workspace.join("made.txt")).unwrap(),
                "made"
            );
            let text = value.to_string();
            assert!(
                text.contains(&workspace.display().to_string()),
                "{dialect}: ran in the workspace: {text}"
            );
        }
        let (name, value, is_error) = results.next().unwrap();
        assert!(!is_error, "{dialect} {name}: {value}");
        assert_eq!(value["status"], 200, "{dialect}: {value}");
        assert_eq!(
            value["body"]["from"], "local",
            "{dialect}: JSON parsed: {value}"
        );
        let (name, value, is_error) = results.next().unwrap();
        assert!(is_error, "{dialect} {name}: {value}");
        assert_eq!(error_kind(&value), "blocked_address", "{dialect}: {value}");
        assert!(
            value.to_string().contains("allow_local_hosts"),
            "{dialect}: says how: {value}"
        );
        if fetch.is_some() {
            let (name, value, is_error) = results.next().unwrap();
            assert!(!is_error, "{dialect} {name}: {value}");
            assert!(value.to_string().contains("local"), "{dialect}: {value}");
        }
        let expected = 1 + usize::from(fetch.is_some());
        assert_eq!(
            served.load(Ordering::SeqCst) - before,
            expected,
            "{dialect}"
        );
    }
    assert_eq!(
        canary.load(Ordering::SeqCst),
        0,
        "the refused port saw no connection"
    );
}
