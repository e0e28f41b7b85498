//! An authorized job runs its high-risk tool; edited, it no longer does ("needs re-approval")
//! until it is authorized again. Runs here go through `jobs run` with no scheduler alive, so
//! the CLI process is the scheduler for the run.

use hearth_tests::{Reply, ScriptedServer};
use serde_json::json;

use crate::headless::support::{text, Home};

fn exec_writing(file: &str) -> Reply {
    Reply::tool_call("exec", json!({"command": format!("echo ran > {file}")}))
}

async fn authorize(home: &Home, job: &str) {
    let args = json!({"action": "authorize", "job_id": job}).to_string();
    let out = home
        .ok(&["tools", "call", "cronjob", &args, "--approve"])
        .await;
    assert!(out.contains("\"authorized\": true"), "{out}");
}

#[tokio::test]
async fn an_edited_job_needs_re_approval_before_its_high_risk_tool_runs_again() {
    let server = ScriptedServer::start().await;
    let home = Home::new(&server);
    let workspace = home.dir.path().join("workspace");
    let target = home.target_session();
    home.add_job(
        "disk-audit",
        "every 6 hours",
        "Check the disk",
        Some(&target),
    )
    .await;

    // Denied on the terminal's behalf: nothing is recorded.
    let args = json!({"action": "authorize", "job_id": "disk-audit"}).to_string();
    let denied = home
        .run(&["tools", "call", "cronjob", &args, "--deny"])
        .await;
    assert!(!denied.status.success());
    assert!(
        text(&denied.stdout).contains("denied_by_user"),
        "{}",
        text(&denied.stdout)
    );
    let listed = home.json(&["jobs", "list", "--json"]).await;
    assert_eq!(listed["jobs"][0]["authorization"], "not_authorized");

    authorize(&home, "disk-audit").await;
    server.push(exec_writing("first.txt"));
    server.push(Reply::text("Disk is fine."));
    let out = home.ok(&["jobs", "run", "disk-audit"]).await;
    assert!(out.contains("Disk is fine."), "{out}");
    assert!(
        workspace.join("first.txt").exists(),
        "the authorized run used exec"
    );

    home.ok(&[
        "jobs",
        "edit",
        "disk-audit",
        "--instruction",
        "Check the disk and delete old logs",
    ])
    .await;
    let listed = home.json(&["jobs", "list", "--json"]).await;
    assert_eq!(listed["jobs"][0]["authorization"], "needs_reapproval");
    assert!(home
        .ok(&["jobs", "list"])
        .await
        .contains("needs_reapproval"));

    server.push(exec_writing("second.txt"));
    server.push(Reply::text("I could not run the command."));
    let out = home.ok(&["jobs", "run", "disk-audit"]).await;
    assert!(!workspace.join("second.txt").exists(), "exec was refused");
    assert!(out.contains("needs re-approval"), "{out}");
    let last_call = server.model_requests().last().unwrap().body.to_string();
    assert!(
        last_call.contains("needs re-approval"),
        "the model was told: {last_call}"
    );
    let runs = home
        .json(&["jobs", "history", "disk-audit", "--json"])
        .await;
    assert_eq!(runs[0]["authorized"], false);
    assert_eq!(runs[1]["authorized"], true);

    authorize(&home, "disk-audit").await;
    server.push(exec_writing("third.txt"));
    server.push(Reply::text("Old logs deleted."));
    home.ok(&["jobs", "run", "disk-audit"]).await;
    assert!(
        workspace.join("third.txt").exists(),
        "re-approved: exec runs again"
    );
}
