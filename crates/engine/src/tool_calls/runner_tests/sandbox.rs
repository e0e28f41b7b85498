//! Answers that widen the sandbox for one call: "allow once with network" lets that call's
//! command reach a canary on this computer, "allow once" does not, "allow once outside the
//! sandbox" reads Hearth's own data; neither is remembered for the next call.

use super::*;

fn value(result: &ToolResult) -> Value {
    serde_json::from_str(&result.content).unwrap()
}

/// The connections a listener got so far, without waiting.
fn accepted(listener: &std::net::TcpListener) -> usize {
    listener.set_nonblocking(true).unwrap();
    std::iter::from_fn(|| listener.accept().ok()).count()
}

#[tokio::test]
async fn an_answer_widens_the_sandbox_of_that_call_only() {
    let canary = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = canary.local_addr().unwrap().port();
    let connect = serde_json::json!({"command": format!(
        "python3 -c 'import socket; socket.create_connection((\"127.0.0.1\", {port}), 2)'"
    )})
    .to_string();

    let once = Rig::new(
        Dialect::Hearth,
        Some(ApprovalDecision::AllowOnce),
        Vec::new(),
    );
    let refused = value(&once.one("exec", &connect).await);
    assert_ne!(refused["exit_code"], 0, "{refused}");
    assert_eq!(refused["isolation"], "landlock+netns");
    assert_eq!(accepted(&canary), 0);

    let networked = Rig::new(
        Dialect::Hearth,
        Some(ApprovalDecision::AllowWithNetwork),
        Vec::new(),
    );
    let reached = value(&networked.one("exec", &connect).await);
    assert_eq!(reached["exit_code"], 0, "{reached}");
    assert_eq!(reached["isolation"], "landlock");
    assert_eq!(accepted(&canary), 1);
    networked.one("exec", r#"{"command":"true"}"#).await;
    assert_eq!(
        networked.questions(),
        2,
        "a widened sandbox is never remembered"
    );

    let outside = Rig::new(
        Dialect::Hearth,
        Some(ApprovalDecision::AllowUnsandboxed),
        Vec::new(),
    );
    let read = value(
        &outside
            .one(
                "exec",
                r#"{"command":"test -r ../hearth.db && echo readable"}"#,
            )
            .await,
    );
    assert_eq!(read["stdout"], "readable\n", "{read}");
    assert_eq!(read["isolation"], "none");
}
