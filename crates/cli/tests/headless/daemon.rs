//! The daemon fires a job on time and delivers into its target session; after a real restart a
//! missed run runs exactly once, marked as a catch-up; SIGTERM releases the scheduler lease.

use hearth_tests::{Reply, ScriptedServer};

use crate::headless::support::{now_ms, session_texts, stop_daemon, Home};

#[tokio::test]
async fn a_job_added_on_the_command_line_fires_under_the_daemon_and_delivers() {
    let server = ScriptedServer::start().await;
    server.push(Reply::text("Digest: three new issues, nothing urgent."));
    let home = Home::new(&server);
    let target = home.target_session();
    let at = now_ms() + 3_000;
    let schedule = format!(r#"{{"type":"at","at":{at}}}"#);
    let added = home
        .run(&[
            "jobs",
            "add",
            "--name",
            "digest",
            "--schedule",
            &schedule,
            "--instruction",
            "Write the issue digest",
            "--target",
            &target,
            "--job-model",
            "scripted:digest-model",
        ])
        .await;
    assert!(
        added.status.success(),
        "{}",
        crate::headless::support::text(&added.stderr)
    );
    assert!(
        crate::headless::support::text(&added.stderr).contains("nothing will run it"),
        "with no scheduler alive, adding says so"
    );
    let listed = home.json(&["jobs", "list", "--json"]).await;
    let next = listed["jobs"][0]["next_run"].as_str().unwrap();
    assert!(
        chrono_like_offset(next),
        "next run is RFC 3339 with an offset: {next}"
    );

    let daemon = home.spawn_daemon();
    let runs = home.wait_for_runs("digest", 1).await;
    assert_eq!(runs.len(), 1, "{runs:?}");
    assert_eq!(runs[0]["status"], "ok", "{runs:?}");
    assert_eq!(runs[0]["catch_up"], false);
    assert!(runs[0]["output"]
        .as_str()
        .unwrap()
        .contains("three new issues"));

    let store = home.store();
    let delivered = session_texts(&store, &target);
    let (role, text) = delivered.last().unwrap();
    assert_eq!(role, "assistant");
    assert!(text.contains("Scheduled job \"digest\""), "{text}");
    assert!(text.contains("Digest: three new issues"), "{text}");
    let job_session = store
        .list_sessions()
        .unwrap()
        .into_iter()
        .find(|s| s.title == "Job: digest")
        .expect("the run has its own session");
    assert!(job_session.id.starts_with("job:"), "{}", job_session.id);

    let calls = server.model_requests();
    assert_eq!(calls.len(), 1);
    assert_eq!(
        calls[0].body["model"], "digest-model",
        "the job's model is used"
    );
    assert!(calls[0].body.to_string().contains("Write the issue digest"));

    let history = home.ok(&["jobs", "history", "digest"]).await;
    assert!(
        history.contains("ok") && history.contains("Digest"),
        "{history}"
    );

    let log = stop_daemon(daemon).await;
    assert!(log.contains("lease released"), "{log}");
    let listed = home.json(&["jobs", "list", "--json"]).await;
    assert_eq!(listed["scheduler"]["alive"], false, "the lease is released");
}

/// `2026-11-30T08:00:00+01:00` or `…Z`-less UTC `+00:00`.
fn chrono_like_offset(text: &str) -> bool {
    let tail = &text[text.len().saturating_sub(6)..];
    text.len() == 25
        && text.as_bytes()[10] == b'T'
        && (tail.starts_with('+') || tail.starts_with('-'))
}

#[tokio::test]
async fn a_run_missed_while_the_daemon_was_stopped_runs_once_as_a_catch_up() {
    let server = ScriptedServer::start().await;
    server.push(Reply::text("Caught up on the backup check."));
    server.push(Reply::text("A second run: this must not happen."));
    let home = Home::new(&server);
    home.ok(&[
        "jobs",
        "add",
        "--name",
        "backup-check",
        "--schedule",
        "every 6 hours",
        "--instruction",
        "Check last night's backup",
    ])
    .await;

    let daemon = home.spawn_daemon();
    home.wait_for_scheduler().await;
    stop_daemon(daemon).await;
    assert!(server.model_requests().is_empty(), "nothing was due yet");

    // While the daemon is stopped, two fire times pass (the clock is moved by moving the due
    // time into the past, as a machine asleep for 13 hours would find it).
    let missed = now_ms() - 13 * 3_600_000;
    rusqlite::Connection::open(home.dir.path().join("hearth.db"))
        .unwrap()
        .execute(
            "UPDATE jobs SET next_run_at = ?1 WHERE name = 'backup-check'",
            [missed],
        )
        .unwrap();

    let daemon = home.spawn_daemon();
    let runs = home.wait_for_runs("backup-check", 1).await;
    home.wait_for_runner_turn_after("backup-check").await;
    let runs_after = home
        .json(&["jobs", "history", "backup-check", "--json"])
        .await;
    stop_daemon(daemon).await;

    assert_eq!(runs_after.as_array().unwrap().len(), 1, "{runs_after}");
    assert_eq!(runs[0]["status"], "ok", "{runs:?}");
    assert_eq!(runs[0]["catch_up"], true, "{runs:?}");
    assert_eq!(server.model_requests().len(), 1, "exactly one run");
    let history = home.ok(&["jobs", "history", "backup-check"]).await;
    assert!(history.contains("catch-up"), "{history}");
    let listed = home.json(&["jobs", "list", "--json"]).await;
    let next = listed["jobs"][0]["next_run"].as_str().unwrap().to_string();
    let view_next_ms = home
        .store()
        .find_job("backup-check")
        .unwrap()
        .unwrap()
        .next_run_at
        .unwrap();
    assert!(
        view_next_ms > now_ms(),
        "the next run is in the future: {next}"
    );
}
