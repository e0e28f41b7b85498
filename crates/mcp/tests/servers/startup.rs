//! Five real stdio servers (three server-everything on Node, two mcp-server-time on Python)
//! start together: the time until all are ready is printed for the README and held to a bound
//! generous enough for a debug build on a busy machine.

use super::*;
use std::time::Instant;

#[tokio::test(flavor = "multi_thread")]
async fn five_stdio_servers_start_together() {
    let servers = [
        everything("e1"),
        everything("e2"),
        everything("e3"),
        time_server_named("t1"),
        time_server_named("t2"),
    ];
    // Warm: the login shell's PATH is asked once per process, and the files are in the cache.
    Rig::start(&servers[..1]).await.manager.shutdown().await;
    let mut runs = Vec::new();
    for _ in 0..3 {
        let started = Instant::now();
        let rig = Rig::start(&servers).await;
        let took = started.elapsed();
        for server in &servers {
            assert_eq!(
                rig.state(&server.name),
                State::Ready,
                "{:?}",
                rig.status(&server.name)
            );
        }
        rig.manager.shutdown().await;
        runs.push(took);
    }
    runs.sort();
    println!(
        "five stdio servers ready in {runs:?} (median {:?})",
        runs[1]
    );
    assert!(runs[1] < Duration::from_secs(15), "{runs:?}");
}
