//! Risk per call through `hearth-cli tools call` with no terminal and no flag: listing and
//! reading actions of high-risk tools run in every dialect, running ones are denied; the audit
//! log names the CLI flag or the rule that decided.

use super::*;

/// `tools call NAME ARGS --dialect D --profile full` plus `extra`: the JSON printed, and
/// whether it exited 0.
async fn call(cli: &Cli, dialect: &str, name: &str, args: &str, extra: &[&str]) -> (Value, bool) {
    let mut argv = vec!["tools", "call", name, args, "--dialect", dialect];
    argv.extend(["--profile", "full"]);
    argv.extend(extra);
    let out = cli.run(&argv).await;
    let value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|_| panic!("{name}: {}{}", text(&out.stdout), text(&out.stderr)));
    (value, out.status.success())
}

/// (tool, decision, actor) of every audited decision, oldest first.
fn audit(cli: &Cli) -> Vec<(String, String, String)> {
    let db = rusqlite::Connection::open(cli.db()).unwrap();
    let mut stmt = db
        .prepare("SELECT tool, decision, actor FROM audit_log ORDER BY id")
        .unwrap();
    stmt.query_map([], |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn listing_and_reading_never_ask_in_any_dialect_and_running_still_does() {
    let cli = Cli::new();
    let reading = [
        ("picobot", "cron_list", "{}", "jobs"),
        ("hearth", "cronjob", r#"{"action":"list"}"#, "jobs"),
        ("echo", "cronjob", r#"{"action":"list"}"#, "jobs"),
        ("hearth", "process", r#"{"action":"list"}"#, "processes"),
        ("echo", "process", r#"{"action":"list"}"#, "processes"),
        ("hearth", "pty", r#"{"action":"list"}"#, "sessions"),
        ("echo", "pty", r#"{"action":"list"}"#, "sessions"),
        ("picobot", "pty", r#"{"action":"list"}"#, "sessions"),
    ];
    for (dialect, name, args, field) in reading {
        let (value, ok) = call(&cli, dialect, name, args, &[]).await;
        assert!(ok, "{dialect} {name}: {value}");
        assert!(value[field].is_array(), "{dialect} {name}: {value}");
    }
    // Polling or reading something that does not exist gets past policy to the tool.
    for (dialect, name, args) in [
        (
            "hearth",
            "process",
            r#"{"action":"poll","process_id":"proc-9"}"#,
        ),
        (
            "picobot",
            "pty",
            r#"{"action":"read","session_id":"pty-9"}"#,
        ),
    ] {
        let (value, ok) = call(&cli, dialect, name, args, &[]).await;
        assert!(!ok);
        assert_eq!(
            value["error"]["kind"], "not_found",
            "{dialect} {name}: {value}"
        );
    }
    let running = [
        (
            "hearth",
            "process",
            r#"{"action":"start","command":"true"}"#,
        ),
        ("echo", "pty", r#"{"action":"spawn","command":"true"}"#),
        ("picobot", "pty", r#"{"action":"spawn","command":"true"}"#),
        (
            "picobot",
            "cron_add",
            r#"{"schedule":"every 6 hours","prompt":"p","channel":"desktop","chat_id":"c"}"#,
        ),
        (
            "hearth",
            "cronjob",
            r#"{"action":"create","name":"n","schedule":"every 6 hours","command":"c"}"#,
        ),
        (
            "ceecore",
            "schedule_task",
            r#"{"name":"n","schedule":"every 6 hours","action":"a"}"#,
        ),
    ];
    for (dialect, name, args) in running {
        let (value, ok) = call(&cli, dialect, name, args, &[]).await;
        assert!(!ok);
        assert_eq!(
            value["error"]["kind"], "denied_by_user",
            "{dialect} {name}: {value}"
        );
    }
    let (jobs, _) = call(&cli, "picobot", "cron_list", "{}", &[]).await;
    assert_eq!(jobs["count"], 0, "nothing was scheduled: {jobs}");
    let actors: Vec<String> = audit(&cli).into_iter().map(|(_, _, a)| a).collect();
    assert!(
        actors
            .iter()
            .all(|a| a == "policy" || a == "cli (no terminal)"),
        "{actors:?}"
    );
    assert_eq!(
        actors.iter().filter(|a| *a == "cli (no terminal)").count(),
        running.len()
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn the_audit_log_records_the_cli_flag_or_the_rule_that_decided() {
    let cli = Cli::new();
    let exec = r#"{"command":"true"}"#;
    let (value, ok) = call(&cli, "hearth", "exec", exec, &["--approve"]).await;
    assert!(ok, "{value}");
    let (value, ok) = call(&cli, "hearth", "exec", exec, &["--deny"]).await;
    assert!(!ok);
    assert!(
        value["error"]["message"]
            .as_str()
            .unwrap()
            .contains("cli --deny"),
        "{value}"
    );
    let (_, ok) = call(
        &cli,
        "hearth",
        "calculator",
        r#"{"action":"evaluate","expression":"1+1"}"#,
        &[],
    )
    .await;
    assert!(ok);

    std::fs::write(
        cli.home.path().join("config.toml"),
        "[[rules]]\neffect = \"allow\"\ntool = \"exec\"\n",
    )
    .unwrap();
    let (value, ok) = call(&cli, "hearth", "exec", exec, &[]).await;
    assert!(ok, "the rule lets it run unasked: {value}");

    let row = |tool: &str, decision: &str, actor: &str| {
        (tool.to_string(), decision.to_string(), actor.to_string())
    };
    assert_eq!(
        audit(&cli),
        [
            row("exec", "allow", "cli --approve"),
            row("exec", "deny", "cli --deny"),
            row("calculator", "allow", "policy"),
            row("exec", "allow", "rule 1"),
        ]
    );
}
