//! Which calls run unasked: read-only actions of high-risk tools in every dialect (running ones
//! ask), a process poll, and calls their tool says are read-only running together.

use super::*;

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

    async fn call_facts(&self, args: &MeetingArgs) -> hearth_tools::CallFacts {
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
