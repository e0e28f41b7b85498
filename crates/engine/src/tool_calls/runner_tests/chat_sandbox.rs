//! A chat's sandbox choices and the grants: "run sandboxed commands without asking in this chat"
//! skips the question only for calls that stay in the sandbox (never where policy refuses),
//! "run unsandboxed in this chat" reaches Hearth's data with `isolation: none`, and a grant gives
//! its command pattern the network (a canary on 127.0.0.1 counts the connections). Linux: the
//! results name Landlock's isolation.
#![cfg(target_os = "linux")]

use super::*;
use hearth_protocol::{ChatSandbox, SandboxGrant};

fn value(result: &ToolResult) -> Value {
    serde_json::from_str(&result.content).unwrap()
}

fn accepted(listener: &std::net::TcpListener) -> usize {
    listener.set_nonblocking(true).unwrap();
    std::iter::from_fn(|| listener.accept().ok()).count()
}

fn grant(command: &str) -> SandboxGrant {
    SandboxGrant {
        command: Some(command.to_string()),
        network: true,
        ..Default::default()
    }
}

const SESSION: &str = "desktop:s";

#[tokio::test]
async fn sandboxed_commands_run_without_asking_once_the_chat_chose_it() {
    let mut rig = Rig::new(
        Dialect::Hearth,
        Some(ApprovalDecision::AllowSandboxedInChat),
        Vec::new(),
    );
    rig.runner.grants = vec![grant("curl *")];
    assert_eq!(rig.runner.chat_sandbox(SESSION), ChatSandbox::default());

    let first = value(&rig.one("exec", r#"{"command":"echo one"}"#).await);
    assert_eq!(first["stdout"], "one\n", "{first}");
    assert_eq!(rig.questions(), 1);
    assert!(rig.runner.chat_sandbox(SESSION).sandboxed_without_asking);

    let second = value(&rig.one("exec", r#"{"command":"echo two"}"#).await);
    assert_eq!(second["stdout"], "two\n", "{second}");
    assert_eq!(second["isolation"], "landlock+netns", "{second}");
    assert_eq!(
        rig.questions(),
        1,
        "a sandboxed command runs without asking"
    );
    let audit = rig.audit();
    let (tool, decision, actor) = audit.last().unwrap();
    assert_eq!((tool.as_str(), decision.as_str()), ("exec", "allow"));
    assert_eq!(actor, SANDBOXED_IN_CHAT);

    // A command its grant lets out to the network leaves the sandbox: asked.
    rig.one("exec", r#"{"command":"curl --version"}"#).await;
    assert_eq!(rig.questions(), 2, "a networked command still asks");

    // Turned off from the chat: asked again.
    rig.runner.set_chat_sandbox(SESSION, ChatSandbox::default());
    rig.one("exec", r#"{"command":"true"}"#).await;
    assert_eq!(rig.questions(), 3);
}

#[tokio::test]
async fn the_choice_never_lets_through_what_policy_refuses() {
    for security in [SecurityProfile::Daemon, SecurityProfile::PublicGateway] {
        let mut rig = Rig::new(
            Dialect::Hearth,
            Some(ApprovalDecision::AllowOnce),
            Vec::new(),
        );
        rig.runner.security = security;
        rig.runner.set_chat_sandbox(
            SESSION,
            ChatSandbox {
                sandboxed_without_asking: true,
                unsandboxed: false,
            },
        );
        let refused = rig.one("exec", r#"{"command":"true"}"#).await;
        assert!(refused.is_error, "{security:?}: {}", refused.content);
        assert_eq!(error_kind(&refused), "not_permitted", "{security:?}");
        assert_eq!(rig.questions(), 0);
    }
}

#[tokio::test]
async fn a_chat_run_unsandboxed_says_so_and_reaches_what_the_sandbox_hides() {
    let rig = Rig::new(
        Dialect::Hearth,
        Some(ApprovalDecision::AllowUnsandboxedInChat),
        Vec::new(),
    );
    let probe = r#"{"command":"head -c 1 ../hearth.db >/dev/null && echo readable"}"#;
    for _ in 0..2 {
        let read = value(&rig.one("exec", probe).await);
        assert_eq!(read["stdout"], "readable\n", "{read}");
        assert_eq!(read["isolation"], "none");
    }
    assert!(rig.runner.chat_sandbox(SESSION).unsandboxed);
    assert_eq!(
        rig.runner.chat_sandbox("desktop:other"),
        ChatSandbox::default()
    );

    // The choice holds for the chat's next calls, whatever "allow" they get.
    let once = Rig::new(
        Dialect::Hearth,
        Some(ApprovalDecision::AllowOnce),
        Vec::new(),
    );
    let inside = value(&once.one("exec", probe).await);
    assert_eq!(inside["isolation"], "landlock+netns", "{inside}");
    assert_ne!(inside["stdout"], "readable\n");
    once.runner.set_chat_sandbox(
        SESSION,
        ChatSandbox {
            sandboxed_without_asking: true,
            unsandboxed: true,
        },
    );
    let outside = value(&once.one("exec", probe).await);
    assert_eq!(outside["isolation"], "none", "{outside}");
    // And a call outside the sandbox is always asked, even with "without asking" on.
    assert_eq!(once.questions(), 2);
}

#[tokio::test]
async fn a_granted_command_pattern_gets_the_network_and_others_do_not() {
    let canary = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = canary.local_addr().unwrap().port();
    let connect = |program: &str| {
        serde_json::json!({"command": format!(
            "{program} -c '__import__(\"socket\").create_connection((\"127.0.0.1\", {port}), 2)'"
        )})
        .to_string()
    };
    let mut rig = Rig::new(
        Dialect::Hearth,
        Some(ApprovalDecision::AllowOnce),
        Vec::new(),
    );
    rig.runner.grants = vec![grant("python3 -c *"), grant("npm *")];

    let reached = value(&rig.one("exec", &connect("python3")).await);
    assert_eq!(reached["exit_code"], 0, "{reached}");
    assert_eq!(reached["isolation"], "landlock");
    assert_eq!(accepted(&canary), 1);

    // The same program under a name no grant matches stays cut off.
    let refused = value(&rig.one("exec", &connect("/usr/bin/env python3")).await);
    assert_ne!(refused["exit_code"], 0, "{refused}");
    assert_eq!(refused["isolation"], "landlock+netns");
    assert_eq!(accepted(&canary), 0);

    // A granted command chaining another is not granted.
    let chained = format!(
        "{{\"command\":{}}}",
        serde_json::json!(format!(
            "python3 -c 'print(1)' && python3 -c '__import__(\"socket\").create_connection((\"127.0.0.1\", {port}), 2)'"
        ))
    );
    let cut = value(&rig.one("exec", &chained).await);
    assert_ne!(cut["exit_code"], 0, "{cut}");
    assert_eq!(accepted(&canary), 0);
}

#[test]
fn without_landlock_commands_run_only_once_the_chat_chose_no_sandbox() {
    let output = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "tool_calls::tests::chat_sandbox::no_landlock",
            "--ignored",
            "--nocapture",
        ])
        .env("HEARTH_SANDBOX_UNAVAILABLE", "landlock")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success() && text.contains("1 passed"),
        "{text}{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[tokio::test]
#[ignore = "run by without_landlock_commands_run_only_once_the_chat_chose_no_sandbox"]
async fn no_landlock() {
    let rig = Rig::new(
        Dialect::Hearth,
        Some(ApprovalDecision::AllowOnce),
        Vec::new(),
    );
    // "Without asking" does not reach a computer without a sandbox: asked, then refused.
    rig.runner.set_chat_sandbox(
        SESSION,
        ChatSandbox {
            sandboxed_without_asking: true,
            unsandboxed: false,
        },
    );
    let refused = rig.one("exec", r#"{"command":"echo hi"}"#).await;
    assert_eq!(error_kind(&refused), "unavailable", "{}", refused.content);
    assert!(
        refused.content.contains("outside the sandbox"),
        "{}",
        refused.content
    );
    assert_eq!(rig.questions(), 1);

    let outside = Rig::new(
        Dialect::Hearth,
        Some(ApprovalDecision::AllowUnsandboxedInChat),
        Vec::new(),
    );
    let ran = value(&outside.one("exec", r#"{"command":"echo hi"}"#).await);
    assert_eq!(ran["stdout"], "hi\n", "{ran}");
    assert_eq!(ran["isolation"], "none");
    let again = value(&outside.one("exec", r#"{"command":"echo again"}"#).await);
    assert_eq!(again["isolation"], "none", "{again}");
    assert_eq!(
        outside.questions(),
        2,
        "each call outside the sandbox is asked"
    );
}
