//! `hearth-cli jobs authorize|revoke`: asked on a real terminal with what the approval binds,
//! refused without a terminal unless `--yes`, and withdrawn by `revoke`.

use std::process::Stdio;

use hearth_tests::ScriptedServer;
use tokio::io::AsyncWriteExt;

use crate::headless::support::{text, Home};

async fn authorization(home: &Home) -> String {
    let listed = home.json(&["jobs", "list", "--json"]).await;
    listed["jobs"][0]["authorization"]
        .as_str()
        .unwrap()
        .to_string()
}

/// Runs `jobs authorize <job>` on a pseudo-terminal (util-linux `script`), typing `answer`.
async fn authorize_on_a_terminal(home: &Home, job: &str, answer: &str) -> (bool, String) {
    let cli = env!("CARGO_BIN_EXE_hearth-cli");
    let mut script = tokio::process::Command::new("script");
    script
        .args(["-qec", &format!("{cli} jobs authorize {job}"), "/dev/null"])
        .env("HEARTH_HOME", home.dir.path())
        .env("HEARTH_LOG", "warn")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    let mut running = script.spawn().unwrap();
    let mut stdin = running.stdin.take().unwrap();
    stdin.write_all(answer.as_bytes()).await.unwrap();
    let out = running.wait_with_output().await.unwrap();
    drop(stdin);
    (out.status.success(), text(&out.stdout))
}

#[tokio::test]
async fn a_job_is_authorized_after_a_yes_on_the_terminal_and_revoked_again() {
    let server = ScriptedServer::start().await;
    let home = Home::new(&server);
    let target = home.target_session();
    home.add_job(
        "disk-audit",
        "every 6 hours",
        "Check the disk",
        Some(&target),
    )
    .await;

    let refused = home.run(&["jobs", "authorize", "disk-audit"]).await;
    assert!(!refused.status.success());
    let stderr = text(&refused.stderr);
    assert!(stderr.contains("no terminal to ask on"), "{stderr}");
    assert!(stderr.contains("--yes"), "{stderr}");
    assert_eq!(authorization(&home).await, "not_authorized");

    let (agreed, screen) = authorize_on_a_terminal(&home, "disk-audit", "n\n").await;
    assert!(!agreed, "{screen}");
    assert!(screen.contains("not authorized"), "{screen}");
    assert_eq!(authorization(&home).await, "not_authorized");

    let (agreed, screen) = authorize_on_a_terminal(&home, "disk-audit", "y\n").await;
    assert!(agreed, "{screen}");
    for shown in [
        "Authorize job \"disk-audit\" to use high-risk tools (",
        "exec",
        "Instruction: Check the disk",
        "Frequency: At minute 0, of every 6 hours. (",
        "; next run 20",
        &format!("Delivers to: {target}"),
        "Authorize? [y/N]",
    ] {
        assert!(screen.contains(shown), "{shown:?} in {screen}");
    }
    assert_eq!(authorization(&home).await, "authorized");

    let revoked = home.json(&["jobs", "revoke", "disk-audit", "--json"]).await;
    assert_eq!(revoked["authorization"], "not_authorized", "{revoked}");
    assert_eq!(revoked["authorized_tools"], serde_json::json!([]));

    let granted = home
        .json(&["jobs", "authorize", "disk-audit", "--yes", "--json"])
        .await;
    assert_eq!(granted["authorization"], "authorized", "{granted}");
    assert!(granted["authorized_tools"]
        .as_array()
        .unwrap()
        .contains(&serde_json::json!("exec")));
}

#[tokio::test]
async fn an_authorization_can_name_mcp_servers() {
    let server = ScriptedServer::start().await;
    let home = Home::new(&server);
    let target = home.target_session();
    home.add_job("triage", "every 6 hours", "Triage issues", Some(&target))
        .await;
    let bad = home
        .run(&[
            "jobs",
            "authorize",
            "triage",
            "--mcp-server",
            "a__b",
            "--yes",
        ])
        .await;
    assert!(!bad.status.success());
    assert!(text(&bad.stderr).contains("not an MCP server name"));
    assert_eq!(authorization(&home).await, "not_authorized");

    let granted = home
        .json(&[
            "jobs",
            "authorize",
            "triage",
            "--mcp-server",
            "github",
            "--yes",
            "--json",
        ])
        .await;
    assert_eq!(granted["authorization"], "authorized", "{granted}");
    let tools: Vec<&str> = granted["authorized_tools"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t.as_str())
        .collect();
    assert!(
        tools.contains(&"mcp__github__*") && tools.contains(&"exec"),
        "{tools:?}"
    );
}
