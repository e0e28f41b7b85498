//! Self-test of the `scripted-model-server` binary: script, port, journal file, repeats.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use hearth_tests::decode::parse_sse;
use hearth_tests::RecordedRequest;
use serde_json::json;

const BIN: &str = env!("CARGO_BIN_EXE_scripted-model-server");

fn content(body: &str) -> String {
    let events = parse_sse(body);
    events
        .iter()
        .filter_map(|e| e.json().ok())
        .filter_map(|c| {
            c["choices"][0]["delta"]["content"]
                .as_str()
                .map(str::to_string)
        })
        .collect()
}

#[tokio::test]
async fn binary_serves_the_script_then_repeats_the_last_reply() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("script.json");
    let journal = dir.path().join("journal.jsonl");
    let replies = json!([
        {"status": 429, "body": "busy", "retry_after": 1},
        {"text": "first"},
        {"text": "again", "tool_calls": [{"name": "list_dir", "arguments": {"path": "."}}], "usage": {"input_tokens": 3, "output_tokens": 1}},
    ]);
    std::fs::write(&script, replies.to_string()).unwrap();
    let mut child = Command::new(BIN)
        .arg(&script)
        .args(["--port", "0", "--journal"])
        .arg(&journal)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first_line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first_line)
        .unwrap();
    let url = first_line.trim().to_string();
    assert!(url.starts_with("http://127.0.0.1:"), "{url}");

    let client = reqwest::Client::new();
    let body =
        json!({"model": "m", "stream": true, "messages": [{"role": "user", "content": "x"}]});
    let post = || {
        client
            .post(format!("{url}/v1/chat/completions"))
            .json(&body)
            .send()
    };
    let limited = post().await.unwrap();
    assert_eq!(limited.status(), 429);
    assert_eq!(limited.headers()["retry-after"], "1");
    assert_eq!(
        content(&post().await.unwrap().text().await.unwrap()),
        "first"
    );
    for call_id in ["call_1", "call_2"] {
        let text = post().await.unwrap().text().await.unwrap();
        assert_eq!(content(&text), "again");
        assert!(text.contains(call_id));
    }
    child.kill().unwrap();
    child.wait().unwrap();

    let lines: Vec<RecordedRequest> = std::fs::read_to_string(&journal)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 4);
    assert!(lines
        .iter()
        .all(|r| r.path == "/v1/chat/completions" && r.body["messages"][0]["content"] == "x"));
}

#[test]
fn binary_rejects_a_bad_script() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("script.json");
    std::fs::write(&script, r#"[{"txet": "typo"}]"#).unwrap();
    let output = Command::new(BIN).arg(&script).output().unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("parse the script") && stderr.contains("txet"),
        "{stderr}"
    );
    let missing = Command::new(BIN)
        .arg(dir.path().join("absent.json"))
        .output()
        .unwrap();
    assert!(!missing.status.success());
}
