//! A run that cannot deliver fails: `jobs run` exits non-zero with the reason, and the history
//! records the failure with its error.

use hearth_tests::{Reply, ScriptedServer};

use crate::headless::support::{text, Home};

#[tokio::test]
async fn a_run_whose_target_session_is_gone_is_recorded_as_failed() {
    let server = ScriptedServer::start().await;
    server.push(Reply::text("The weekly report is ready."));
    let home = Home::new(&server);
    let target = home.target_session();
    let report = "Write the weekly report";
    home.add_job("weekly", "every monday at 9:00", report, Some(&target))
        .await;
    home.store().delete_session(&target).unwrap();

    let out = home.run(&["jobs", "run", "weekly"]).await;
    assert!(!out.status.success());
    let stderr = text(&out.stderr);
    assert!(stderr.contains("does not exist"), "{stderr}");
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");

    let runs = home.json(&["jobs", "history", "weekly", "--json"]).await;
    assert_eq!(runs[0]["status"], "failed", "{runs}");
    assert_eq!(runs[0]["manual"], true);
    assert!(
        runs[0]["error"].as_str().unwrap().contains(&target),
        "{runs}"
    );
    let listed = home.ok(&["jobs", "history", "weekly"]).await;
    assert!(
        listed.contains("failed") && listed.contains("error:"),
        "{listed}"
    );
}
