//! Command and network tools: `exec` (Hearth/Echo) and `bash` (PicoBot) run in the workspace
//! once approved; `http_request` (both shapes) and `web_fetch` reach a local server the settings
//! allow, and a local port they do not allow is refused as `blocked_address` before any
//! connection (a canary listener counts them).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use hearth_tools::Dialect;
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

use crate::dialect_turns::rig::turn;

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
