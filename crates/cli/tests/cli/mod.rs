//! End-to-end tests of the `hearth-cli` binary against the scripted model server: chats with a
//! tool call through each provider, crash recovery after `kill -9`, actionable errors, secrets
//! kept out of the database and logs, local servers (no key, usage counts, detection), the providers of config.toml listed and
//! removed, and tool
//! calls judged one by one (read-only actions run unasked; the audit log names who decided), and
//! batches of calls in one session, and the children the CLI starts ending with it.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod artifacts;
mod batch;
mod channels;
mod chat;
mod children;
mod database;
mod documents;
mod errors;
mod gguf;
mod knowledge;
mod local;
mod mcp;
#[cfg(unix)]
mod pipe;
mod providers;
mod risk;
mod skill_jobs;
mod skills;
mod tasks;
mod tools;

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
        self.chat_with(server, provider, &[message]).await
    }

    /// `chat ARGS…` against `server` speaking `provider`'s wire format.
    async fn chat_with(&self, server: &ScriptedServer, provider: &str, args: &[&str]) -> Output {
        let base = base_url(server, provider);
        let mut argv = vec![
            "--provider",
            provider,
            "--base-url",
            &base,
            "--model",
            "test-model",
            "chat",
        ];
        argv.extend(args);
        self.run(&argv).await
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
