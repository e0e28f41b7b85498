//! Malformed arguments to every new command fail with a non-zero exit and a one-line error.

use hearth_tests::ScriptedServer;

use crate::headless::support::{text, Home};

fn words(args: &[&str]) -> Vec<String> {
    args.iter().map(|a| a.to_string()).collect()
}

/// `jobs add --name x --schedule S --instruction I` plus `extra`.
fn add(name: &str, schedule: &str, instruction: &str, extra: &[&str]) -> Vec<String> {
    let mut args = words(&["jobs", "add", "--name", name, "--schedule", schedule]);
    args.extend(words(&["--instruction", instruction]));
    args.extend(words(extra));
    args
}

#[tokio::test]
async fn malformed_arguments_are_refused_with_one_actionable_line() {
    let server = ScriptedServer::start().await;
    let home = Home::new(&server);
    let first = add("ok-job", "0 8 * * *", "Hi", &[]);
    home.ok(&first.iter().map(String::as_str).collect::<Vec<_>>())
        .await;
    let daily = "0 8 * * *";
    let cases: Vec<(Vec<String>, &str)> = vec![
        (words(&["daemon", "--tick", "0"]), "--tick 0"),
        (words(&["daemon", "--tick", "31"]), "--tick 31"),
        (words(&["daemon", "--tick", "soon"]), "invalid value"),
        (
            words(&["jobs", "list", "--status", "maybe"]),
            "--status maybe",
        ),
        (
            words(&["jobs", "add", "--name", "x", "--instruction", "y"]),
            "--schedule",
        ),
        (add("x", "every blue moon", "y", &[]), "not a schedule"),
        (add("x", "*/10 * * * * *", "y", &[]), "shortest interval"),
        (add("x", daily, "  ", &[]), "must not be empty"),
        (add("ok-job", daily, "y", &[]), "already exists"),
        (
            add("x", daily, "y", &["--tz", "Mars/Olympus"]),
            "Mars/Olympus",
        ),
        (
            add("x", daily, "y", &["--target", "desktop:missing"]),
            "sessions list",
        ),
        (
            add("x", daily, "y", &["--notify", "perhaps"]),
            "invalid value",
        ),
        (words(&["jobs", "edit", "ok-job"]), "nothing to change"),
        (
            words(&["jobs", "edit", "no-such-job", "--instruction", "y"]),
            "no job",
        ),
        (
            words(&["jobs", "edit", "ok-job", "--schedule", "sometimes"]),
            "not a schedule",
        ),
        (words(&["jobs", "enable", "no-such-job"]), "no job"),
        (words(&["jobs", "disable", "no-such-job"]), "no job"),
        (words(&["jobs", "run", "no-such-job"]), "no job"),
        (
            words(&["jobs", "run", "ok-job", "--no-wait"]),
            "--no-wait needs a running scheduler",
        ),
        (words(&["jobs", "history", "no-such-job"]), "no job"),
        (
            words(&["jobs", "history", "ok-job", "--limit", "0"]),
            "--limit 0",
        ),
        (words(&["memory", "list", "--limit", "500"]), "--limit 500"),
        (words(&["memory", "search", "  "]), "query is empty"),
        (
            words(&["memory", "add", "x", "--importance", "2"]),
            "--importance",
        ),
        (
            words(&["memory", "add", "x", "--target", "moon"]),
            "--target moon",
        ),
        (words(&["memory", "add", ""]), "content"),
        (words(&["memory", "remove"]), "required"),
        (words(&["memory", "remove", "12345"]), "no such memory"),
        (words(&["memory", "remove", "abc"]), "invalid value"),
    ];
    for (args, expected) in &cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = home.run(&args).await;
        let stderr = text(&out.stderr);
        assert!(
            !out.status.success(),
            "{args:?} succeeded: {}",
            text(&out.stdout)
        );
        assert!(
            stderr.to_lowercase().contains(&expected.to_lowercase()),
            "{args:?}: expected {expected:?} in {stderr}"
        );
        if stderr.starts_with("hearth-cli: error:") {
            assert_eq!(
                stderr.trim_end().lines().count(),
                1,
                "{args:?}: one line: {stderr}"
            );
        }
    }
}
