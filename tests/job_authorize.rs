//! `cronjob authorize` through the engine's ToolRunner: always asked under `personal_cli`, even
//! after "allow for this session" and with an allow rule for `cronjob`; the question shows the
//! job's instruction, frequency (schedule in words, next run) and delivery target.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;
use std::sync::{Arc, Mutex};

use hearth_engine::{tool_registry, ApprovalRequest, Approver, CallScope, OsNotifier, ToolRunner};
use hearth_policy::{Matcher, Rule, SecurityProfile, ToolProfile};
use hearth_protocol::{ApprovalDecision, EngineEvent, ToolCall, ToolResult};
use hearth_store::Store;
use hearth_tools::{Background, Dialect, NetworkConfig};
use serde_json::{json, Value};
use tokio_util::sync::CancellationToken;

/// Answers every question with "allow for this session" and keeps what it was asked.
#[derive(Default)]
struct SessionAllower {
    asked: Mutex<Vec<ApprovalRequest>>,
}

#[async_trait::async_trait]
impl Approver for SessionAllower {
    async fn decide(&self, request: &ApprovalRequest) -> Option<ApprovalDecision> {
        self.asked.lock().unwrap().push(request.clone());
        Some(ApprovalDecision::AllowSession)
    }
}

struct Rig {
    _dir: tempfile::TempDir,
    runner: ToolRunner,
    approver: Arc<SessionAllower>,
    workspace: std::path::PathBuf,
}

impl Rig {
    fn new(rules: Vec<Rule>) -> Rig {
        let dir = tempfile::tempdir().unwrap();
        let store = Arc::new(Store::open(&dir.path().join("hearth.db")).unwrap());
        let registry = Arc::new(tool_registry(
            Dialect::Hearth,
            &store,
            Arc::new(OsNotifier),
            NetworkConfig::default(),
            &Background::new(),
        ));
        let approver = Arc::new(SessionAllower::default());
        let mut runner = ToolRunner::new(
            registry,
            approver.clone(),
            store,
            SecurityProfile::PersonalCli,
            dir.path().to_path_buf(),
        );
        runner.rules = rules;
        let workspace = dir.path().join("workspace");
        std::fs::create_dir_all(&workspace).unwrap();
        Rig {
            _dir: dir,
            runner,
            approver,
            workspace,
        }
    }

    async fn call(&self, arguments: Value) -> ToolResult {
        let scope = CallScope {
            session_id: "desktop:chat-1",
            workspace: Path::new(&self.workspace),
            profile: ToolProfile::Full,
            language: hearth_protocol::Language::En,
        };
        let call = ToolCall {
            id: "c".to_string(),
            name: "cronjob".to_string(),
            arguments: arguments.to_string(),
            signature: None,
        };
        let sink = |_: EngineEvent| {};
        let mut results = self
            .runner
            .run_calls(&scope, 0, &[call], &sink, &CancellationToken::new())
            .await
            .unwrap();
        results.pop().unwrap()
    }

    fn questions(&self) -> Vec<ApprovalRequest> {
        self.approver.asked.lock().unwrap().clone()
    }
}

fn create() -> Value {
    json!({
        "action": "create",
        "name": "nightly-notes",
        "schedule": "every day at 23:00",
        "command": "Back up the notes folder and report its size",
        "target_channel": "desktop",
        "target_chat_id": "chat-7",
    })
}

fn authorize() -> Value {
    json!({"action": "authorize", "job_id": "nightly-notes"})
}

#[tokio::test]
async fn authorize_is_asked_every_time_despite_a_session_allowance() {
    let rig = Rig::new(Vec::new());
    let created = rig.call(create()).await;
    assert!(!created.is_error, "{}", created.content);
    assert_eq!(rig.questions().len(), 1, "creating asks once");
    let listed = rig.call(json!({"action": "list"})).await;
    assert!(!listed.is_error);
    assert_eq!(
        rig.questions().len(),
        1,
        "the session allowance covers list"
    );

    for round in 2..=3 {
        let granted = rig.call(authorize()).await;
        assert!(!granted.is_error, "{}", granted.content);
        assert!(
            granted.content.contains("\"authorized\":true"),
            "{}",
            granted.content
        );
        let questions = rig.questions();
        assert_eq!(questions.len(), round, "authorize is asked every time");
        let reason = questions.last().unwrap().reason.to_string();
        for shown in [
            "nightly-notes",
            "Instruction: Back up the notes folder and report its size",
            "Frequency: ",
            "next run 20",
            "Delivers to: desktop:chat-7",
            "exec",
        ] {
            assert!(reason.contains(shown), "{shown:?} missing from: {reason}");
        }
    }
}

#[tokio::test]
async fn authorize_is_asked_even_when_a_rule_allows_cronjob() {
    let rig = Rig::new(vec![Rule::allow(Matcher::ToolName("cronjob".to_string()))]);
    assert!(!rig.call(create()).await.is_error);
    assert!(
        rig.questions().is_empty(),
        "the rule lets create through unasked"
    );
    assert!(!rig.call(authorize()).await.is_error);
    assert_eq!(rig.questions().len(), 1, "but authorize is asked");
    let revoked = rig
        .call(json!({"action": "revoke", "job_id": "nightly-notes"}))
        .await;
    assert!(!revoked.is_error, "{}", revoked.content);
    assert_eq!(rig.questions().len(), 1, "revoke needs no confirmation");
}

#[tokio::test]
async fn authorizing_an_unknown_job_asks_and_then_reports_it_missing() {
    let rig = Rig::new(Vec::new());
    let result = rig
        .call(json!({"action": "authorize", "job_id": "ghost"}))
        .await;
    assert!(result.is_error);
    assert!(
        result.content.contains("not_found") || result.content.contains("ghost"),
        "{}",
        result.content
    );
    let questions = rig.questions();
    assert_eq!(questions.len(), 1);
    assert!(
        questions[0].reason.to_string().contains("ghost"),
        "{}",
        questions[0].reason
    );
}
