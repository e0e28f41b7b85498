//! "Pause all jobs" under the daemon: with `jobs_paused = true` in `config.toml` a due job does
//! not fire; saving the file with the pause lifted lets it run, without restarting the daemon.

use hearth_tests::{Reply, ScriptedServer};

use crate::headless::support::{now_ms, stop_daemon, Home};

#[tokio::test]
async fn a_paused_daemon_fires_no_due_job_until_config_toml_lifts_the_pause() {
    let server = ScriptedServer::start().await;
    server.push(Reply::text("Ran once the pause was lifted."));
    let home = Home::new(&server);
    let config = home.dir.path().join("config.toml");
    let unpaused = std::fs::read_to_string(&config).unwrap();
    std::fs::write(&config, format!("jobs_paused = true\n{unpaused}")).unwrap();
    home.add_job("paused-digest", "every 6 hours", "Write the digest", None)
        .await;
    let due = now_ms() - 1_000;
    rusqlite::Connection::open(home.dir.path().join("hearth.db"))
        .unwrap()
        .execute(
            "UPDATE jobs SET next_run_at = ?1 WHERE name = 'paused-digest'",
            [due],
        )
        .unwrap();

    let daemon = home.spawn_daemon();
    let first = home
        .wait_for(&["jobs", "list", "--json"], |v| {
            v["scheduler"]["alive"] == true
        })
        .await["scheduler"]["last_beat_at"]
        .as_i64()
        .unwrap();
    // A later heartbeat means the tick that saw the job due has finished without firing it.
    let later = home
        .wait_for(&["jobs", "list", "--json"], |v| {
            v["scheduler"]["last_beat_at"].as_i64() > Some(first)
        })
        .await;
    assert!(later["scheduler"]["last_beat_at"].as_i64().unwrap() > due);
    let runs = home
        .json(&["jobs", "history", "paused-digest", "--json"])
        .await;
    assert_eq!(runs.as_array().unwrap().len(), 0, "paused: {runs}");
    assert!(
        server.model_requests().is_empty(),
        "no model call while paused"
    );

    std::fs::write(&config, format!("jobs_paused = false\n{unpaused}")).unwrap();
    let runs = home.wait_for_runs("paused-digest", 1).await;
    assert_eq!(runs.len(), 1, "{runs:?}");
    assert_eq!(runs[0]["status"], "ok", "{runs:?}");
    assert!(runs[0]["output"]
        .as_str()
        .unwrap()
        .contains("pause was lifted"));

    let log = stop_daemon(daemon).await;
    assert!(log.contains("all jobs are paused"), "{log}");
    assert!(log.contains("jobs resumed"), "{log}");
}
