//! End-to-end tests of the `hearth-cli` binary against the scripted model server: chats with a
//! tool call through each provider, crash recovery after `kill -9`, actionable errors, and
//! secrets kept out of the database and logs.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::Duration;

use hearth_tests::{Reply, ScriptedServer};
use serde_json::{json, Value};
use tokio::process::Command;

const SENTINEL_KEY: &str = "sk-hearth-SENTINEL-7f3a9c";

struct Cli {
    home: tempfile::TempDir,
}

impl Cli {
    fn new() -> Cli {
        Cli {
            home: tempfile::tempdir().unwrap(),
        }
    }

    fn command(&self) -> Command {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_hearth-cli"));
        cmd.env("HEARTH_HOME", self.home.path())
            .env("HEARTH_LOG", "trace")
            .env("HEARTH_API_KEY", SENTINEL_KEY)
            .env_remove("OPENAI_API_KEY")
            .env_remove("ANTHROPIC_API_KEY")
            .env_remove("GEMINI_API_KEY")
            .stdin(std::process::Stdio::null())
            .kill_on_drop(true);
        cmd
    }

    async fn run(&self, args: &[&str]) -> Output {
        self.command().args(args).output().await.unwrap()
    }

    async fn chat(&self, server: &ScriptedServer, provider: &str, message: &str) -> Output {
        let base = base_url(server, provider);
        self.run(&[
            "--provider",
            provider,
            "--base-url",
            &base,
            "--model",
            "test-model",
            "chat",
            message,
        ])
        .await
    }

    async fn session_json(&self, id: &str) -> Value {
        let out = self.run(&["sessions", "show", id, "--json"]).await;
        assert!(
            out.status.success(),
            "sessions show failed: {}",
            text(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).unwrap()
    }

    fn db(&self) -> PathBuf {
        self.home.path().join("hearth.db")
    }
}

fn base_url(server: &ScriptedServer, provider: &str) -> String {
    match provider {
        "openai" => server.openai_base(),
        "anthropic" => server.anthropic_base(),
        "ollama" => server.ollama_base(),
        "gemini" => server.gemini_base(),
        other => panic!("unknown provider {other}"),
    }
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn session_id(stderr: &[u8]) -> String {
    let stderr = text(stderr);
    stderr
        .lines()
        .find_map(|l| l.strip_prefix("session: "))
        .unwrap_or_else(|| panic!("no session id on stderr: {stderr}"))
        .trim()
        .to_string()
}

async fn chat_with_calculator(provider: &str) {
    let server = ScriptedServer::start().await;
    server.push(
        Reply::tool_call(
            "calculator",
            json!({"action": "evaluate", "expression": "6*7"}),
        )
        .with_text("Let me compute that."),
    );
    server.push(Reply::text("The answer is **42**."));
    let cli = Cli::new();
    let out = cli.chat(&server, provider, "what is 6 times 7?").await;
    assert!(
        out.status.success(),
        "{provider}: chat failed: {}",
        text(&out.stderr)
    );
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("Let me compute that."),
        "{provider}: {stdout}"
    );
    assert!(
        stdout.contains("The answer is **42**."),
        "{provider}: {stdout}"
    );
    let stderr = text(&out.stderr);
    assert!(stderr.contains("→ calculator"), "{provider}: {stderr}");
    assert!(stderr.contains("← calculator ok"), "{provider}: {stderr}");

    let id = session_id(&out.stderr);
    let shown = cli.session_json(&id).await;
    let messages = shown["messages"].as_array().unwrap();
    let roles: Vec<&str> = messages
        .iter()
        .map(|m| m["role"].as_str().unwrap())
        .collect();
    assert_eq!(
        roles,
        ["user", "assistant", "tool", "assistant"],
        "{provider}"
    );
    assert!(
        messages.iter().all(|m| m["status"] == "complete"),
        "{provider}: {shown}"
    );
    assert_eq!(messages[1]["tool_calls"][0]["name"], "calculator");
    let result: Value =
        serde_json::from_str(messages[2]["tool_result"]["content"].as_str().unwrap()).unwrap();
    assert_eq!(result["result"], json!(42), "{provider}: {result}");

    // The second model request carried the tool result back to the model.
    let requests = server.requests();
    assert_eq!(requests.len(), 2, "{provider}");
    let second = requests[1].body.to_string();
    assert!(second.contains("42"), "{provider}: {second}");
    if provider == "gemini" {
        // The call went back with the thought signature it came with, through the store.
        let call = requests[1].body["contents"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|c| c["parts"].as_array().unwrap())
            .find(|p| p.get("functionCall").is_some())
            .unwrap();
        assert_eq!(call["thoughtSignature"], "c2NyaXB0ZWQ-1", "{second}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn chat_runs_a_tool_loop_with_openai() {
    chat_with_calculator("openai").await;
}

#[tokio::test(flavor = "multi_thread")]
async fn chat_runs_a_tool_loop_with_anthropic() {
    chat_with_calculator("anthropic").await;
}

#[tokio::test(flavor = "multi_thread")]
async fn chat_runs_a_tool_loop_with_ollama() {
    chat_with_calculator("ollama").await;
}

#[tokio::test(flavor = "multi_thread")]
async fn chat_runs_a_tool_loop_with_gemini() {
    chat_with_calculator("gemini").await;
}

#[tokio::test(flavor = "multi_thread")]
async fn chat_continues_a_session() {
    let server = ScriptedServer::start().await;
    server.push(Reply::text("first"));
    server.push(Reply::text("second"));
    let cli = Cli::new();
    let out = cli.chat(&server, "openai", "one").await;
    let id = session_id(&out.stderr);
    let base = server.openai_base();
    let out = cli
        .run(&[
            "--provider",
            "openai",
            "--base-url",
            &base,
            "--model",
            "m",
            "chat",
            "--session",
            &id,
            "two",
        ])
        .await;
    assert!(out.status.success(), "{}", text(&out.stderr));
    let shown = cli.session_json(&id).await;
    assert_eq!(shown["messages"].as_array().unwrap().len(), 4);
    // The second request carried the first exchange.
    assert!(server.requests()[1].body.to_string().contains("first"));
}

fn wal_and_db_bytes(db: &Path) -> Vec<u8> {
    let mut bytes = std::fs::read(db).unwrap();
    let wal = db.with_extension("db-wal");
    if wal.exists() {
        bytes.extend(std::fs::read(wal).unwrap());
    }
    bytes
}

fn contains(haystack: &[u8], needle: &str) -> bool {
    haystack
        .windows(needle.len())
        .any(|w| w == needle.as_bytes())
}

#[tokio::test(flavor = "multi_thread")]
async fn kill_mid_stream_keeps_the_user_message_and_marks_the_reply_interrupted() {
    let server = ScriptedServer::start().await;
    let long: String = (0..400).map(|i| format!("word{i} ")).collect();
    server.push(Reply::text(&long).with_chunk_delay(20));
    let cli = Cli::new();
    let base = server.openai_base();
    let mut child = cli
        .command()
        .args([
            "--provider",
            "openai",
            "--base-url",
            &base,
            "--model",
            "m",
            "chat",
            "remember me",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Wait until part of the reply has been flushed to the database, then kill -9.
    let db = cli.db();
    let partial = tokio::time::timeout(Duration::from_secs(30), async {
        loop {
            tokio::time::sleep(Duration::from_millis(100)).await;
            if let Some(text) = streaming_text(&db) {
                if text.contains("word3") {
                    return text;
                }
            }
        }
    })
    .await
    .expect("the reply was never flushed while streaming");
    let pid = child.id().unwrap();
    std::process::Command::new("kill")
        .args(["-9", &pid.to_string()])
        .status()
        .unwrap();
    let _ = child.wait().await;

    // Any next start recovers the row.
    let list = cli.run(&["sessions", "list", "--json"]).await;
    assert!(list.status.success(), "{}", text(&list.stderr));
    let sessions: Value = serde_json::from_slice(&list.stdout).unwrap();
    let id = sessions[0]["id"].as_str().unwrap().to_string();
    let shown = cli.session_json(&id).await;
    let messages = shown["messages"].as_array().unwrap();
    assert_eq!(messages[0]["role"], "user");
    assert_eq!(messages[0]["content"][0]["text"], "remember me");
    assert_eq!(messages[1]["role"], "assistant");
    assert_eq!(messages[1]["status"], "interrupted");
    let kept = messages[1]["content"][0]["text"].as_str().unwrap();
    assert!(
        kept.starts_with(partial.trim_end()) || kept.len() >= partial.len(),
        "{kept}"
    );
    assert!(kept.len() < long.len(), "the reply should be partial");

    let conn = rusqlite::Connection::open(&db).unwrap();
    let integrity: String = conn
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    assert_eq!(integrity, "ok");
}

fn streaming_text(db: &Path) -> Option<String> {
    let conn =
        rusqlite::Connection::open_with_flags(db, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
            .ok()?;
    conn.query_row(
        "SELECT text FROM messages WHERE role = 'assistant' AND status = 'streaming'",
        [],
        |r| r.get::<_, String>(0),
    )
    .ok()
}

#[tokio::test(flavor = "multi_thread")]
async fn the_api_key_never_reaches_the_database_or_the_logs() {
    let server = ScriptedServer::start().await;
    server.push(Reply::tool_call(
        "calculator",
        json!({"action": "sum", "values": [1, 2]}),
    ));
    server.push(Reply::text("3"));
    let cli = Cli::new();
    let out = cli.chat(&server, "openai", "add 1 and 2").await;
    assert!(out.status.success(), "{}", text(&out.stderr));
    // The key did reach the provider…
    let auth = server.requests()[0]
        .headers
        .get("authorization")
        .cloned()
        .unwrap_or_default();
    assert_eq!(auth, format!("Bearer {SENTINEL_KEY}"));
    // …and nowhere else.
    assert!(!contains(&wal_and_db_bytes(&cli.db()), SENTINEL_KEY));
    let logs = std::fs::read_dir(cli.home.path().join("logs")).unwrap();
    let mut logged = 0;
    for entry in logs {
        let bytes = std::fs::read(entry.unwrap().path()).unwrap();
        logged += bytes.len();
        assert!(!contains(&bytes, SENTINEL_KEY));
    }
    assert!(logged > 0, "trace logging should have written something");
    assert!(!contains(&out.stdout, SENTINEL_KEY) && !contains(&out.stderr, SENTINEL_KEY));
}

async fn assert_one_line_error(out: &Output, expected: &str) {
    assert!(!out.status.success());
    let stderr = text(&out.stderr);
    let line = stderr.lines().last().unwrap_or_default();
    assert!(line.starts_with("hearth-cli: error:"), "{stderr}");
    assert!(
        line.contains(expected),
        "expected '{expected}' in: {stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[tokio::test(flavor = "multi_thread")]
async fn bad_input_gives_one_line_actionable_errors() {
    let cli = Cli::new();
    let out = cli
        .run(&["--provider", "nope", "--model", "m", "chat", "hi"])
        .await;
    assert_one_line_error(&out, "unknown provider 'nope'").await;

    let out = cli
        .run(&[
            "--provider",
            "openai",
            "--base-url",
            "http://127.0.0.1:9/v1",
            "--model",
            "m",
            "chat",
            "hi",
        ])
        .await;
    assert_one_line_error(&out, "could not reach the provider").await;

    let out = cli
        .run(&[
            "--provider",
            "openai",
            "--base-url",
            "ftp://x",
            "--model",
            "m",
            "chat",
            "hi",
        ])
        .await;
    assert_one_line_error(&out, "must start with http").await;

    let out = cli.run(&["chat", "hi"]).await;
    assert_one_line_error(&out, "no provider configured").await;

    let out = cli.run(&["sessions", "show", "cli:missing"]).await;
    assert_one_line_error(&out, "unknown session 'cli:missing'").await;

    let server = ScriptedServer::start().await;
    let base = server.openai_base();
    let out = cli
        .run(&[
            "--provider",
            "openai",
            "--base-url",
            &base,
            "--model",
            "m",
            "chat",
            "--session",
            "cli:missing",
            "hi",
        ])
        .await;
    assert_one_line_error(&out, "unknown session 'cli:missing'").await;

    server.push(Reply::status(
        401,
        r#"{"error":{"message":"Incorrect API key provided"}}"#,
    ));
    let out = cli.chat(&server, "openai", "hi").await;
    assert_one_line_error(&out, "authentication failed").await;
    assert_eq!(server.requests().len(), 1, "a 401 must not be retried");

    let out = cli
        .command()
        .env_remove("HEARTH_API_KEY")
        .args([
            "--provider",
            "openai",
            "--base-url",
            &base,
            "--model",
            "m",
            "--api-key-env",
            "HEARTH_TEST_UNSET_VAR",
            "chat",
            "hi",
        ])
        .output()
        .await
        .unwrap();
    assert_one_line_error(&out, "HEARTH_TEST_UNSET_VAR is not set").await;
}

#[tokio::test(flavor = "multi_thread")]
async fn tools_call_runs_through_the_registry_and_reports_errors_as_json() {
    let cli = Cli::new();
    let out = cli
        .run(&[
            "tools",
            "call",
            "calculator",
            r#"{"action":"evaluate","expression":"2^10"}"#,
        ])
        .await;
    assert!(out.status.success(), "{}", text(&out.stderr));
    let value: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(value["result"], json!(1024));

    for (args, kind) in [
        ("{not json", "invalid_arguments"),
        (r#"{"expression":"1+1"}"#, "invalid_arguments"),
        (
            r#"{"action":"evaluate","expression":"1/0"}"#,
            "invalid_arguments",
        ),
        (r#"{"action":"fly"}"#, "invalid_arguments"),
    ] {
        let out = cli.run(&["tools", "call", "calculator", args]).await;
        assert_eq!(out.status.code(), Some(1), "{args}");
        let value: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(value["error"]["kind"], kind, "{args}: {value}");
    }

    let out = cli.run(&["tools", "call", "no_such_tool", "{}"]).await;
    assert_eq!(out.status.code(), Some(1));
    let value: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(value["error"]["kind"], "not_found");

    let out = cli
        .run(&["tools", "call", "calculator", "{}", "--dialect", "klingon"])
        .await;
    assert_one_line_error(&out, "unknown dialect 'klingon'").await;
}

#[tokio::test(flavor = "multi_thread")]
async fn tools_list_shows_schemas_per_dialect() {
    let cli = Cli::new();
    let out = cli.run(&["tools", "list", "--json"]).await;
    assert!(out.status.success(), "{}", text(&out.stderr));
    let tools: Value = serde_json::from_slice(&out.stdout).unwrap();
    let names: Vec<&str> = tools
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert!(
        names.contains(&"calculator") && names.contains(&"get_device_info"),
        "{names:?}"
    );
    assert_eq!(tools[0]["parameters"]["type"], "object");

    let out = cli
        .run(&["tools", "list", "--dialect", "ceecore", "--json"])
        .await;
    let tools: Value = serde_json::from_slice(&out.stdout).unwrap();
    let names: Vec<&str> = tools
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert!(
        !names.contains(&"calculator"),
        "ceecore has no calculator: {names:?}"
    );
}
