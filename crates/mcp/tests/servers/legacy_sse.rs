//! The HTTP+SSE fallback against the Python SDK's SSE-only server (`fixtures/sse_server.py`):
//! the streamable HTTP `initialize` is refused, so Hearth opens the event stream, posts to the
//! endpoint it names and calls a tool; a URL that is neither transport stays failed.

use serde_json::json;

use super::oauth::python_server;
use super::{text, Rig};
use hearth_mcp::State;
use hearth_protocol::McpServerSettings;

#[tokio::test(flavor = "multi_thread")]
async fn a_server_of_the_older_sse_transport_is_reached_through_the_fallback() {
    let (_child, base) = python_server("sse_server.py").await;
    let rig = Rig::start(&[
        McpServerSettings::http("legacy", &format!("{base}/sse")),
        McpServerSettings::http("nothing", &format!("{base}/nowhere")),
    ])
    .await;
    assert_eq!(
        rig.state("legacy"),
        State::Ready,
        "{:?}",
        rig.status("legacy")
    );
    assert!(
        rig.status("legacy")
            .log_tail
            .iter()
            .any(|l| l.contains("using HTTP+SSE")),
        "{:?}",
        rig.status("legacy").log_tail
    );
    let answer = rig
        .call("mcp__legacy__shout", json!({"text": "old but fine"}))
        .await
        .unwrap();
    assert_eq!(text(&answer), "OLD BUT FINE");
    let State::Failed { reason } = rig.state("nothing") else {
        panic!("{:?}", rig.status("nothing"));
    };
    assert!(reason.contains("cannot connect"), "{reason}");
}
