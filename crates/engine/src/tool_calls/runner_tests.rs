//! The runner against real registries and a store on disk: read-only calls of high-risk tools
//! run unasked in every dialect, running calls ask, and the audit log names who decided.

use std::sync::Mutex;

use hearth_policy::Matcher;
use hearth_protocol::ApprovalDecision;
use hearth_tools::{Background, Dialect, NetworkConfig};
use serde_json::Value;

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
        let sink = |_: EngineEvent| {};
        self.runner
            .run_calls(&scope, 0, &calls, &sink, &CancellationToken::new())
            .await
            .unwrap()
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

#[tokio::test]
async fn read_only_actions_run_unasked_in_every_dialect_and_running_ones_ask() {
    let reading: [(Dialect, &[(&str, &str)]); 4] = [
        (
            Dialect::Hearth,
            &[
                ("cronjob", r#"{"action":"list"}"#),
                ("process", r#"{"action":"list"}"#),
                ("pty", r#"{"action":"list"}"#),
            ],
        ),
        (
            Dialect::Echo,
            &[
                ("cronjob", r#"{"action":"list"}"#),
                ("process", r#"{"action":"list"}"#),
                ("pty", r#"{"action":"list"}"#),
            ],
        ),
        (
            Dialect::Picobot,
            &[("cron_list", "{}"), ("pty", r#"{"action":"list"}"#)],
        ),
        (Dialect::Ceecore, &[]),
    ];
    for (dialect, calls) in reading {
        let rig = Rig::new(dialect, Some(ApprovalDecision::Deny), Vec::new());
        for result in rig.run(calls).await {
            assert!(
                !result.is_error,
                "{dialect} {}: {}",
                result.name, result.content
            );
        }
        assert_eq!(rig.questions(), 0, "{dialect}: nothing read-only is asked");
        assert!(
            rig.audit()
                .iter()
                .all(|(_, d, actor)| d == "allow" && actor == "policy"),
            "{dialect}: {:?}",
            rig.audit()
        );
    }
    let running: [(Dialect, &str, &str); 5] = [
        (
            Dialect::Hearth,
            "process",
            r#"{"action":"start","command":"true"}"#,
        ),
        (
            Dialect::Echo,
            "pty",
            r#"{"action":"spawn","command":"true"}"#,
        ),
        (Dialect::Picobot, "cron_remove", r#"{"job_id":"j"}"#),
        (
            Dialect::Hearth,
            "cronjob",
            r#"{"action":"trigger","job_id":"j"}"#,
        ),
        (
            Dialect::Ceecore,
            "schedule_task",
            r#"{"name":"n","schedule":"every 6 hours","action":"a"}"#,
        ),
    ];
    for (dialect, tool, args) in running {
        let rig = Rig::new(dialect, Some(ApprovalDecision::Deny), Vec::new());
        let result = rig.one(tool, args).await;
        assert_eq!(error_kind(&result), "denied_by_user", "{dialect} {tool}");
        assert_eq!(rig.questions(), 1, "{dialect} {tool}");
    }
}

#[tokio::test]
async fn a_process_poll_passes_policy_and_reaches_the_tool() {
    let rig = Rig::new(Dialect::Hearth, Some(ApprovalDecision::Deny), Vec::new());
    let result = rig
        .one("process", r#"{"action":"poll","process_id":"proc-9"}"#)
        .await;
    assert_eq!(error_kind(&result), "not_found", "{}", result.content);
    assert_eq!(rig.questions(), 0);
}

#[tokio::test]
async fn the_audit_log_names_who_decided() {
    let exec = r#"{"command":"true"}"#;
    let rig = Rig::new(
        Dialect::Hearth,
        Some(ApprovalDecision::AllowSession),
        Vec::new(),
    );
    assert!(!rig.one("exec", exec).await.is_error);
    assert!(!rig.one("exec", exec).await.is_error);
    assert_eq!(
        rig.questions(),
        1,
        "the second call is the session allowance"
    );

    let rules = vec![
        Rule::deny(Matcher::ToolName("write_file".into())),
        Rule::allow(Matcher::ToolName("exec".into())),
    ];
    let ruled = Rig::new(Dialect::Hearth, None, rules);
    assert!(!ruled.one("exec", exec).await.is_error);
    let write = ruled
        .one("write_file", r#"{"path":"a.txt","content":"x"}"#)
        .await;
    assert_eq!(error_kind(&write), "not_permitted");

    let silent = Rig::new(Dialect::Hearth, None, Vec::new());
    let timed_out = silent.one("exec", exec).await;
    assert_eq!(error_kind(&timed_out), "denied_by_user");
    assert!(
        timed_out.content.contains("timeout"),
        "{}",
        timed_out.content
    );

    let actors = |rig: &Rig| -> Vec<(String, String)> {
        rig.audit()
            .into_iter()
            .map(|(_, decision, actor)| (decision, actor))
            .collect()
    };
    let pair = |d: &str, a: &str| (d.to_string(), a.to_string());
    assert_eq!(
        actors(&rig),
        [pair("allow", "user"), pair("allow", "user (this session)")]
    );
    assert_eq!(
        actors(&ruled),
        [pair("allow", "rule 2"), pair("deny", "rule 1")]
    );
    assert_eq!(actors(&silent), [pair("deny", "timeout")]);
}

#[tokio::test]
async fn the_audit_log_keeps_each_reason_as_data_beside_its_text() {
    let exec = r#"{"command":"true"}"#;
    let rig = Rig::new(
        Dialect::Hearth,
        Some(ApprovalDecision::AllowSession),
        vec![Rule::deny(Matcher::ToolName("write_file".into()))],
    );
    assert!(!rig.one("exec", exec).await.is_error);
    let write = rig
        .one("write_file", r#"{"path":"a.txt","content":"x"}"#)
        .await;
    assert_eq!(error_kind(&write), "not_permitted");
    let mut records = rig.store.list_audit(10).unwrap();
    records.reverse();
    let [asked, refused] = &records[..] else {
        panic!("{records:?}")
    };
    let asked_reason = AuditReason {
        reason: PolicyReason::NeedsApproval {
            tool: "exec".into(),
            security: SecurityProfile::PersonalCli,
            every_time: false,
        },
        confirmation: None,
        allowed: Some(hearth_protocol::AllowedFor::Session),
    };
    assert_eq!(asked.entry.reason_code.as_ref(), Some(&asked_reason));
    assert_eq!(
        asked.entry.reason.as_deref(),
        Some(
            "allowed for this session: security profile personal_cli: exec is high-risk and \
             needs your approval"
        )
    );
    let Some(AuditReason {
        reason: PolicyReason::RuleRefuses { tool, index, rule },
        allowed: None,
        ..
    }) = &refused.entry.reason_code
    else {
        panic!("{refused:?}")
    };
    assert_eq!((tool.as_str(), *index), ("write_file", 1));
    assert_eq!(rule, "deny tool write_file");
    // The model reads the same English the audit log keeps.
    assert!(
        write
            .content
            .contains(refused.entry.reason.as_deref().unwrap()),
        "{}",
        write.content
    );
}

#[tokio::test]
async fn bad_arguments_are_refused_without_asking() {
    let rig = Rig::new(
        Dialect::Hearth,
        Some(ApprovalDecision::AllowOnce),
        Vec::new(),
    );
    let result = rig.one("exec", r#"{"command":42}"#).await;
    assert_eq!(error_kind(&result), "invalid_arguments");
    assert_eq!(rig.questions(), 0);
    let unknown = rig.one("no_such_tool", "{}").await;
    assert_eq!(error_kind(&unknown), "not_found");
    assert!(
        rig.audit().is_empty(),
        "nothing was decided: {:?}",
        rig.audit()
    );
}

/// A `process` stand-in whose `wait` calls say they only read and meet at a barrier: a batch of
/// them finishes only when they run together.
struct Meeting(Arc<tokio::sync::Barrier>);

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct MeetingArgs {
    /// Read-only when true.
    wait: bool,
}

#[async_trait::async_trait]
impl hearth_tools::Tool for Meeting {
    type Args = MeetingArgs;

    fn entry(&self) -> &'static hearth_policy::CanonicalTool {
        &hearth_policy::catalogue::PROCESS
    }

    fn description(&self) -> &str {
        "Meets."
    }

    fn call_facts(&self, args: &MeetingArgs) -> hearth_tools::CallFacts {
        if args.wait {
            hearth_tools::CallFacts::read_only()
        } else {
            hearth_tools::CallFacts::of(self.entry())
        }
    }

    async fn run(&self, _ctx: &ToolContext, _args: MeetingArgs) -> Result<Value, ToolError> {
        self.0.wait().await;
        Ok(serde_json::json!({"met": true}))
    }
}

#[tokio::test]
async fn calls_their_tool_says_are_read_only_run_together() {
    let mut registry = Registry::new(Dialect::Hearth);
    registry
        .register(Meeting(Arc::new(tokio::sync::Barrier::new(2))))
        .unwrap();
    let mut rig = Rig::new(Dialect::Hearth, Some(ApprovalDecision::Deny), Vec::new());
    rig.runner = ToolRunner::new(
        Arc::new(registry),
        rig.approver.clone(),
        rig.store.clone(),
        SecurityProfile::PersonalCli,
        rig.dir.path().to_path_buf(),
    );
    let wait = r#"{"wait":true}"#;
    let results = tokio::time::timeout(
        Duration::from_secs(30),
        rig.run(&[("process", wait), ("process", wait)]),
    )
    .await
    .expect("two read-only calls of a high-risk tool ran one after the other");
    assert!(results.iter().all(|r| !r.is_error), "{results:?}");
    assert_eq!(rig.questions(), 0);
}

impl Rig {
    fn with_skill(mut self, declaration: hearth_policy::Declaration, file: &str) -> Rig {
        self.runner = self.runner.with_skill_grant(SkillGrant {
            skill: "daily-report".into(),
            file: file.into(),
            declaration,
            own_scripts: Vec::new(),
        });
        self
    }

    fn offered(&self) -> Vec<String> {
        self.runner
            .specs(ToolProfile::Full)
            .iter()
            .map(|s| s.name.clone())
            .collect()
    }
}

#[tokio::test]
async fn a_skill_without_http_gets_no_http_request_and_nothing_reaches_the_server() {
    use hearth_policy::{Declaration, SkillPermission};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let url = format!("http://{}/status", listener.local_addr().unwrap());
    let rig = Rig::new(
        Dialect::Ceecore,
        Some(ApprovalDecision::AllowOnce),
        Vec::new(),
    )
    .with_skill(
        Declaration::Permissions(vec![SkillPermission::File, SkillPermission::Notification]),
        "manifest.json",
    );
    let offered = rig.offered();
    assert!(
        !offered.contains(&"http_request".to_string()),
        "{offered:?}"
    );
    assert!(offered.contains(&"read_file".to_string()), "{offered:?}");
    assert!(offered.contains(&"write_file".to_string()), "{offered:?}");

    let args = serde_json::json!({"url": url, "method": "GET"}).to_string();
    let refused = rig.one("http_request", &args).await;
    assert_eq!(error_kind(&refused), "not_permitted", "{}", refused.content);
    assert!(
        refused.content.contains(
            "skill `daily-report` may not use this tool: `http_request` needs the `http` \
             permission (network.outbound), and manifest.json declares permissions [file, \
             notification]"
        ),
        "{}",
        refused.content
    );
    // Also with arguments the tool would reject: the declaration is checked first.
    let forced = rig.one("http_request", r#"{"nonsense":1}"#).await;
    assert_eq!(error_kind(&forced), "not_permitted", "{}", forced.content);
    assert!(
        matches!(listener.accept(), Err(e) if e.kind() == std::io::ErrorKind::WouldBlock),
        "a request reached the local server"
    );
    assert_eq!(rig.questions(), 0, "a refused call asks nobody");
    let audit = rig.audit();
    assert_eq!(
        audit,
        [
            (
                "http_request".into(),
                "deny".into(),
                "skill daily-report".into()
            ),
            (
                "http_request".into(),
                "deny".into(),
                "skill daily-report".into()
            ),
        ]
    );
}

#[tokio::test]
async fn allowed_tools_without_exec_hide_and_refuse_exec() {
    use hearth_policy::Declaration;
    let rig = Rig::new(Dialect::Echo, Some(ApprovalDecision::AllowOnce), Vec::new()).with_skill(
        Declaration::AllowedTools(vec!["read_file".into(), "skill_run".into()]),
        "SKILL.md",
    );
    let offered = rig.offered();
    assert!(!offered.contains(&"exec".to_string()), "{offered:?}");
    assert!(offered.contains(&"skill_run".to_string()), "{offered:?}");
    assert!(
        offered.contains(&"skill_view".to_string()),
        "skill reading stays: {offered:?}"
    );
    let refused = rig.one("exec", r#"{"command":"touch pwned"}"#).await;
    assert_eq!(error_kind(&refused), "not_permitted", "{}", refused.content);
    assert!(
        refused
            .content
            .contains("`exec` is not in the allowed-tools of its SKILL.md (read_file skill_run)"),
        "{}",
        refused.content
    );
    assert!(!rig.dir.path().join("workspace/pwned").exists());
    // Within the declaration the call reaches the tool.
    let listed = rig.one("read_file", r#"{"path":"missing.txt"}"#).await;
    assert_ne!(error_kind(&listed), "not_permitted", "{}", listed.content);
}
