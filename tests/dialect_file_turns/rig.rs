//! The rig of the dialect file-turn tests: a data dir beside a folder with a canary, one agent
//! turn of a dialect against scripted replies, and assertions on stored results.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use hearth_core::DataDir;
use hearth_engine::{Engine, EngineOptions, FixedApprover, ToolRunner};
use hearth_llm::{build_client, ProviderConfig, RetryPolicy};
use hearth_policy::SecurityProfile;
use hearth_protocol::{ApprovalDecision, ContentPart, TurnEnd};
use hearth_store::Store;
use hearth_tests::{Reply, ScriptedServer};
use hearth_tools::{builtin_registry, Dialect};
use serde_json::Value;
use tokio_util::sync::CancellationToken;

const CANARY: &str = "CANARY: outside the workspace\n";

/// A data dir (`home/`, whose `workspace/` the tools work in) next to `outside/` holding the
/// canary, and `workspace/link` pointing at `outside/`.
pub struct Rig {
    _root: tempfile::TempDir,
    pub home: PathBuf,
    outside: PathBuf,
    canary_mtime: SystemTime,
}

/// One stored tool result: the tool name the model used, its JSON, whether it is an error.
pub struct Stored {
    pub name: String,
    pub value: Value,
    pub is_error: bool,
}

impl Rig {
    pub fn new() -> Rig {
        let root = tempfile::tempdir().unwrap();
        let base = std::fs::canonicalize(root.path()).unwrap();
        let (home, outside) = (base.join("home"), base.join("outside"));
        DataDir::at(home.clone()).ensure().unwrap();
        std::fs::create_dir_all(&outside).unwrap();
        std::fs::write(outside.join("canary.txt"), CANARY).unwrap();
        std::os::unix::fs::symlink(&outside, home.join("workspace/link")).unwrap();
        let canary_mtime = mtime(&outside.join("canary.txt"));
        Rig {
            _root: root,
            home,
            outside,
            canary_mtime,
        }
    }

    pub fn ws(&self, rel: &str) -> PathBuf {
        self.home.join("workspace").join(rel)
    }

    pub fn canary_path(&self) -> String {
        self.outside.join("canary.txt").display().to_string()
    }

    /// Runs one agent turn of `dialect` against `replies`; returns the stored tool results in
    /// call order and the tool names the model was offered.
    pub async fn turn(&self, dialect: Dialect, replies: Vec<Reply>) -> (Vec<Stored>, Vec<String>) {
        let server = ScriptedServer::start().await;
        for reply in replies {
            server.push(reply);
        }
        server.push(Reply::text("Done."));
        let dir = DataDir::at(self.home.clone());
        let store = Arc::new(Store::open(&dir.database()).unwrap());
        let client = build_client(ProviderConfig {
            retry: RetryPolicy {
                max_retries: 0,
                base_delay: Duration::from_millis(10),
                max_delay: Duration::from_millis(10),
            },
            ..server.openai_provider()
        })
        .unwrap();
        let runner = Arc::new(ToolRunner::new(
            Arc::new(builtin_registry(dialect)),
            Arc::new(FixedApprover(ApprovalDecision::Deny)),
            store.clone(),
            SecurityProfile::PersonalCli,
            dir.root().to_path_buf(),
        ));
        let engine = Engine::new(
            store.clone(),
            client,
            runner,
            EngineOptions::new(dir, "test-model"),
        );
        let session = engine.create_session("test", None).await.unwrap().id;
        let summary = engine
            .send(
                &session,
                vec![ContentPart::text("work on the files")],
                &|_| {},
                CancellationToken::new(),
            )
            .await
            .unwrap();
        assert_eq!(summary.end, TurnEnd::Completed, "{dialect}");
        let stored = store
            .list_messages(&session)
            .unwrap()
            .into_iter()
            .filter_map(|m| m.tool_result)
            .map(|r| Stored {
                name: r.name,
                value: serde_json::from_str(&r.content).unwrap(),
                is_error: r.is_error,
            })
            .collect();
        let offered = server.model_requests()[0].body["tools"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|t| t["function"]["name"].as_str().map(str::to_string))
            .collect();
        (stored, offered)
    }

    /// Nothing outside the workspace changed: the canary is intact and alone, and the data dir
    /// gained no file from a tool.
    pub fn assert_outside_untouched(&self) {
        let canary = self.outside.join("canary.txt");
        assert_eq!(std::fs::read_to_string(&canary).unwrap(), CANARY);
        assert_eq!(mtime(&canary), self.canary_mtime, "canary modified");
        assert_eq!(names(&self.outside), ["canary.txt"]);
        assert!(!names(&self.home).iter().any(|n| n.contains("pwned")));
    }
}

fn mtime(path: &Path) -> SystemTime {
    std::fs::metadata(path).unwrap().modified().unwrap()
}

fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Asserts `result` is the sandbox's refusal naming `path`, and leaks nothing from outside.
pub fn assert_refused(result: &Stored, path: &str) {
    assert!(result.is_error, "{} {path}: {}", result.name, result.value);
    let error = &result.value["error"];
    assert_eq!(error["kind"], "not_permitted", "{}: {error}", result.name);
    let message = error["message"].as_str().unwrap();
    assert!(message.contains(&format!("`{path}`")), "{message}");
    assert!(message.contains("outside the workspace"), "{message}");
    assert!(!result.value.to_string().contains("CANARY"), "leaked");
}

/// Asserts `result` says `tool` does not exist in `dialect`.
pub fn assert_unknown(result: &Stored, tool: &str, dialect: &str) {
    assert!(result.is_error);
    assert_eq!(result.value["error"]["kind"], "not_found");
    let message = result.value["error"]["message"].as_str().unwrap();
    assert!(
        message.contains(&format!("no tool named `{tool}` in dialect {dialect}")),
        "{message}"
    );
}

pub fn ok(result: &Stored, name: &str) -> Value {
    assert_eq!(result.name, name);
    assert!(!result.is_error, "{name}: {}", result.value);
    result.value.clone()
}
