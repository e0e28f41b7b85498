//! `hearth-cli … | head`: output into a pipe that closes early ends quietly, without a panic.

use std::process::Stdio;

use hearth_store::{NewSession, Store};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, BufReader};

use super::*;

/// Far more listing than a pipe buffers (64 KiB on Linux), so the CLI is still writing when the
/// reader goes away.
const SESSIONS: usize = 3_000;

#[tokio::test(flavor = "multi_thread")]
async fn a_listing_into_a_pipe_closed_after_one_line_ends_without_a_panic() {
    let cli = Cli::new();
    let store = Store::open(&cli.db()).unwrap();
    for i in 0..SESSIONS {
        store
            .create_session(&NewSession {
                id: format!("desktop:pipe-{i:05}"),
                title: format!("A session with a title long enough to fill the pipe #{i}"),
                model: None,
                workspace: None,
                tool_profile: "full".to_string(),
            })
            .unwrap();
    }
    drop(store);

    let mut child = cli
        .command()
        .args(["sessions", "list"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    stdout.read_line(&mut first).await.unwrap();
    assert!(first.starts_with("desktop:pipe-"), "{first}");
    drop(stdout); // `head -1` exits: the pipe's read end closes

    let status = child.wait().await.unwrap();
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .await
        .unwrap();
    assert!(
        !stderr.contains("panicked") && !stderr.contains("Broken pipe"),
        "{stderr}"
    );
    assert!(
        status.success(),
        "ends as `head` expects, not {status:?}: {stderr}"
    );
}
