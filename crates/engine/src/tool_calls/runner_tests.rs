//! The runner against real registries and a store on disk: the rig its test modules share
//! (read-only calls unasked, the audit log, skill declarations, answers widening the sandbox,
//! the views the window gets).

#[path = "runner_tests/audit.rs"]
mod audit;
#[path = "runner_tests/chat_sandbox.rs"]
mod chat_sandbox;
#[path = "runner_tests/read_only.rs"]
mod read_only;
#[path = "runner_tests/sandbox.rs"]
mod sandbox;
#[path = "runner_tests/skills.rs"]
mod skills;
#[path = "runner_tests/views.rs"]
mod views;

use std::sync::Mutex;

use hearth_protocol::{ApprovalDecision, AuditReason, EngineEvent, PolicyReason};
use hearth_store::Store;
use hearth_tools::{Background, Dialect, NetworkConfig, ToolContext, ToolError};
use serde_json::Value;
use tokio_util::sync::CancellationToken;

use super::*;
use crate::approval::{ApprovalRequest, Approver};
use crate::notify::OsNotifier;
use crate::registry::tool_registry;

/// Answers every question with `answer` (or never, for `None`) and counts the questions.
struct Recorder {
    answer: Option<ApprovalDecision>,
    asked: Mutex<Vec<String>>,
}

#[async_trait::async_trait]
impl Approver for Recorder {
    async fn decide(&self, request: &ApprovalRequest) -> Option<ApprovalDecision> {
        self.asked.lock().unwrap().push(request.call.name.clone());
        match self.answer {
            Some(answer) => Some(answer),
            None => std::future::pending().await,
        }
    }
}

struct Rig {
    dir: tempfile::TempDir,
    store: Arc<Store>,
    runner: ToolRunner,
    approver: Arc<Recorder>,
    _background: Background,
}

impl Rig {
    fn new(dialect: Dialect, answer: Option<ApprovalDecision>, rules: Vec<Rule>) -> Rig {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("workspace")).unwrap();
        let store = Arc::new(Store::open(&dir.path().join("hearth.db")).unwrap());
        let background = Background::new();
        let registry = Arc::new(tool_registry(
            dialect,
            &store,
            Arc::new(OsNotifier),
            NetworkConfig::default(),
            &background,
        ));
        let approver = Arc::new(Recorder {
            answer,
            asked: Mutex::new(Vec::new()),
        });
        let mut runner = ToolRunner::new(
            registry,
            approver.clone(),
            store.clone(),
            SecurityProfile::PersonalCli,
            dir.path().to_path_buf(),
        )
        .with_rules(rules);
        runner.approval_timeout = Duration::from_millis(50);
        Rig {
            dir,
            store,
            runner,
            approver,
            _background: background,
        }
    }

    async fn run(&self, calls: &[(&str, &str)]) -> Vec<ToolResult> {
        self.run_recorded(calls).await.0
    }

    /// Runs `calls` in order, returning each result with its views and every event sent.
    async fn run_recorded(&self, calls: &[(&str, &str)]) -> (Vec<ToolResult>, Vec<EngineEvent>) {
        let workspace = self.dir.path().join("workspace");
        let scope = CallScope {
            session_id: "desktop:s",
            workspace: &workspace,
            profile: ToolProfile::Full,
            language: hearth_protocol::Language::En,
        };
        let calls: Vec<ToolCall> = calls
            .iter()
            .enumerate()
            .map(|(n, (name, arguments))| ToolCall {
                id: format!("c{n}"),
                name: name.to_string(),
                arguments: arguments.to_string(),
                signature: None,
            })
            .collect();
        let events = Arc::new(Mutex::new(Vec::new()));
        let seen = events.clone();
        let sink = move |event: EngineEvent| seen.lock().unwrap().push(event);
        let results = self
            .runner
            .run_calls(&scope, 0, &calls, &sink, &CancellationToken::new())
            .await
            .unwrap();
        let viewed = results
            .into_iter()
            .map(|result| self.runner.viewed(&calls, result))
            .collect();
        let events = events.lock().unwrap().clone();
        (viewed, events)
    }

    async fn one(&self, name: &str, arguments: &str) -> ToolResult {
        self.run(&[(name, arguments)]).await.pop().unwrap()
    }

    fn questions(&self) -> usize {
        self.approver.asked.lock().unwrap().len()
    }

    /// (tool, decision, actor) of every audited decision, oldest first.
    fn audit(&self) -> Vec<(String, String, String)> {
        let mut records = self.store.list_audit(100).unwrap();
        records.reverse();
        records
            .into_iter()
            .map(|r| {
                let e = r.entry;
                (e.tool, e.decision.as_str().to_string(), e.actor)
            })
            .collect()
    }
}

fn error_kind(result: &ToolResult) -> String {
    let value: Value = serde_json::from_str(&result.content).unwrap();
    value["error"]["kind"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}
