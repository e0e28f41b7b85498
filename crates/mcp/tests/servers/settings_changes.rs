//! Settings changed while Hearth runs: what a server offers changes without restarting it, a
//! server added starts, one removed is shut down (no process left), one disabled stops, and a
//! restart starts it afresh.

use super::*;
use hearth_protocol::McpApproval;
use serde_json::json;

fn offered(manager: &McpManager, server: &str) -> Vec<String> {
    manager
        .tool_infos()
        .into_iter()
        .filter(|t| t.server == server)
        .map(|t| t.tool)
        .collect()
}

fn ready(manager: &McpManager, server: &str) -> bool {
    manager
        .statuses()
        .iter()
        .any(|s| s.name == server && s.state == State::Ready)
}

#[cfg(target_os = "linux")]
#[tokio::test(flavor = "multi_thread")]
async fn settings_changes_apply_without_restarting_hearth() {
    let marker = format!("hearth-apply-{}", std::process::id());
    let mut faulty_server = faulty("faulty");
    faulty_server.args.push(marker.clone());
    let rig = Rig::start(std::slice::from_ref(&faulty_server)).await;
    assert!(
        ready(&rig.manager, "faulty"),
        "{:?}",
        rig.manager.statuses()
    );
    assert!(offered(&rig.manager, "faulty").contains(&"hang".to_string()));
    let pids = processes_with(&marker);
    assert_eq!(pids.len(), 1, "one server process");

    // Per-tool Never and the read-only trust: the same process, the tool list changed.
    let mut changes = rig.manager.watch();
    let mut edited = faulty_server.clone();
    edited.tools.insert("hang".into(), McpApproval::Never);
    edited.trust_read_only = true;
    rig.manager.apply(std::slice::from_ref(&edited), &|_| None);
    assert!(changes.next().await, "the watch wakes on the change");
    assert!(ready(&rig.manager, "faulty"), "still ready, not restarted");
    assert!(!offered(&rig.manager, "faulty").contains(&"hang".to_string()));
    let view = rig.manager.views().remove(0);
    assert_eq!(view.state, hearth_protocol::McpServerState::Ready);
    let hang = view.tools.iter().find(|t| t.tool == "hang").unwrap();
    assert!(
        hang.qualified.is_none() && !hang.unasked,
        "a Never tool is still listed for the settings page: {hang:?}"
    );
    assert!(
        view.log_tail.iter().any(|l| l.contains("ready with")),
        "{view:?}"
    );
    assert_eq!(processes_with(&marker), pids, "the same process");
    assert_eq!(rig.status("faulty").restarts, 0);

    // A server added starts at once, even when the change comes from a thread outside the
    // runtime (as the app's settings command on its main thread); the first keeps running.
    let manager = rig.manager.clone();
    let both = vec![edited.clone(), time_server()];
    std::thread::spawn(move || manager.apply(&both, &|_| None))
        .join()
        .unwrap();
    assert!(
        rig.manager.wait_until(WAIT, |m| ready(m, "time")).await,
        "{:?}",
        rig.manager.statuses()
    );
    let now = rig
        .call("mcp__time__get_current_time", json!({"timezone": "UTC"}))
        .await
        .unwrap();
    assert!(text(&now).contains("UTC"), "{now}");
    assert_eq!(processes_with(&marker), pids, "the same process");

    // Disabled: shut down, shown disabled, its tools gone.
    let mut disabled = edited.clone();
    disabled.enabled = false;
    rig.manager
        .apply(&[disabled.clone(), time_server()], &|_| None);
    assert_eq!(rig.state("faulty"), State::Disabled);
    assert!(offered(&rig.manager, "faulty").is_empty());
    assert!(
        wait_for_exit(&marker).await,
        "a disabled server's process is shut down"
    );

    // Enabled again, then restarted: a fresh process each time.
    rig.manager
        .apply(&[edited.clone(), time_server()], &|_| None);
    assert!(rig.manager.wait_until(WAIT, |m| ready(m, "faulty")).await);
    let enabled = processes_with(&marker);
    assert_eq!(enabled.len(), 1);
    assert!(rig.manager.restart("faulty", &|_| None));
    assert!(!rig.manager.restart("nobody", &|_| None));
    assert!(rig.manager.wait_until(WAIT, |m| ready(m, "faulty")).await);
    assert!(
        wait_for(|| {
            let now = processes_with(&marker);
            now.len() == 1 && now != enabled
        })
        .await,
        "restarted in a new process"
    );

    // Removed: shut down, gone from the statuses; the other server is untouched.
    rig.manager.apply(&[time_server()], &|_| None);
    assert_eq!(
        rig.manager
            .statuses()
            .iter()
            .map(|s| s.name.as_str())
            .collect::<Vec<_>>(),
        ["time"]
    );
    assert!(
        wait_for_exit(&marker).await,
        "a removed server is shut down"
    );
    assert!(ready(&rig.manager, "time"));
    rig.manager.shutdown().await;
}

/// Polls the process table (a kill is delivered asynchronously) for up to 10 s.
async fn wait_for(condition: impl Fn() -> bool) -> bool {
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while !condition() {
        if std::time::Instant::now() > deadline {
            return false;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    true
}

async fn wait_for_exit(marker: &str) -> bool {
    wait_for(|| processes_with(marker).is_empty()).await
}
