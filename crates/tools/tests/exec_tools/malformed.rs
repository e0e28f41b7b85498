//! Malformed arguments for every execution tool: each is refused with `invalid_arguments`
//! naming the field at fault, before anything runs.

use crate::exec_tools::{call, Fixture};
use hearth_tools::{builtin_registry, Dialect, ErrorKind};

/// (dialect, tool, arguments, the field named or "" for the whole object)
const CASES: &[(Dialect, &str, &str, &str)] = &[
    (Dialect::Hearth, "exec", "{}", "command"),
    (Dialect::Hearth, "exec", r#"{"command": ""}"#, "command"),
    (Dialect::Hearth, "exec", r#"{"command": 7}"#, "command"),
    (
        Dialect::Hearth,
        "exec",
        r#"{"command": "true", "timeout": 0}"#,
        "timeout",
    ),
    (
        Dialect::Hearth,
        "exec",
        r#"{"command": "true", "timeout": 601}"#,
        "timeout",
    ),
    (
        Dialect::Hearth,
        "exec",
        r#"{"command": "true", "timeout": "30"}"#,
        "timeout",
    ),
    (
        Dialect::Hearth,
        "exec",
        r#"{"command": "true", "cwd": ["a"]}"#,
        "cwd",
    ),
    (
        Dialect::Hearth,
        "exec",
        r#"{"command": "true", "shell": "zsh"}"#,
        "shell",
    ),
    (Dialect::Hearth, "exec", "[\"true\"]", ""),
    (Dialect::Hearth, "exec", "{\"command\": ", ""),
    (Dialect::Echo, "exec", r#"{"command": null}"#, "command"),
    (Dialect::Picobot, "bash", "{}", "command"),
    (
        Dialect::Picobot,
        "bash",
        r#"{"command": "true", "timeout": 601}"#,
        "timeout",
    ),
    (
        Dialect::Picobot,
        "bash",
        r#"{"command": "true", "timeout": -1}"#,
        "timeout",
    ),
    (
        Dialect::Hearth,
        "execute_code",
        r#"{"code": "print(1)"}"#,
        "language",
    ),
    (
        Dialect::Hearth,
        "execute_code",
        r#"{"language": "python"}"#,
        "code",
    ),
    (
        Dialect::Hearth,
        "execute_code",
        r#"{"code": "", "language": "python"}"#,
        "code",
    ),
    (
        Dialect::Hearth,
        "execute_code",
        r#"{"code": "1", "language": "ruby"}"#,
        "language",
    ),
    (
        Dialect::Hearth,
        "execute_code",
        r#"{"code": "1", "language": "Python"}"#,
        "language",
    ),
    (
        Dialect::Hearth,
        "execute_code",
        r#"{"code": "1", "language": "bash", "timeout": 1000}"#,
        "timeout",
    ),
    (
        Dialect::Hearth,
        "execute_code",
        r#"{"code": "1", "language": "bash", "stdin": "x"}"#,
        "stdin",
    ),
    (Dialect::Hearth, "process", "{}", "action"),
    (
        Dialect::Hearth,
        "process",
        r#"{"action": "restart"}"#,
        "action",
    ),
    (
        Dialect::Hearth,
        "process",
        r#"{"action": "start"}"#,
        "command",
    ),
    (
        Dialect::Hearth,
        "process",
        r#"{"action": "start", "command": ""}"#,
        "command",
    ),
    (
        Dialect::Hearth,
        "process",
        r#"{"action": "start", "command": "true", "timeout": 0}"#,
        "timeout",
    ),
    (
        Dialect::Hearth,
        "process",
        r#"{"action": "start", "command": "true", "timeout": 86401}"#,
        "timeout",
    ),
    (
        Dialect::Hearth,
        "process",
        r#"{"action": "poll"}"#,
        "process_id",
    ),
    (
        Dialect::Hearth,
        "process",
        r#"{"action": "stop"}"#,
        "process_id",
    ),
    (
        Dialect::Hearth,
        "process",
        r#"{"action": "poll", "process_id": 1}"#,
        "process_id",
    ),
    (Dialect::Hearth, "pty", "{}", "action"),
    (Dialect::Hearth, "pty", r#"{"action": "resize"}"#, "action"),
    (
        Dialect::Hearth,
        "pty",
        r#"{"action": "write", "input": "ls\n"}"#,
        "session_id",
    ),
    (
        Dialect::Hearth,
        "pty",
        r#"{"action": "write", "session_id": "pty-1"}"#,
        "input",
    ),
    (
        Dialect::Hearth,
        "pty",
        r#"{"action": "write", "session_id": "pty-1", "input": ""}"#,
        "input",
    ),
    (
        Dialect::Hearth,
        "pty",
        r#"{"action": "read"}"#,
        "session_id",
    ),
    (
        Dialect::Hearth,
        "pty",
        r#"{"action": "kill"}"#,
        "session_id",
    ),
    (
        Dialect::Hearth,
        "pty",
        r#"{"action": "spawn", "command": ""}"#,
        "command",
    ),
    (
        Dialect::Picobot,
        "pty",
        r#"{"action": "spawn", "rows": 50}"#,
        "rows",
    ),
];

#[tokio::test]
async fn malformed_arguments_name_the_field() {
    let fixture = Fixture::create();
    for (dialect, tool, args, field) in CASES {
        let registry = builtin_registry(*dialect);
        let error = match call(&registry, &fixture, tool, args).await {
            Ok(value) => panic!("{dialect} {tool} {args} succeeded: {value}"),
            Err(e) => e,
        };
        assert_eq!(
            error.kind,
            ErrorKind::InvalidArguments,
            "{tool} {args}: {error:?}"
        );
        let expected = (!field.is_empty()).then_some(*field);
        assert_eq!(
            error.field.as_deref(),
            expected,
            "{tool} {args}: {}",
            error.message
        );
    }
}

#[tokio::test]
async fn oversized_input_is_refused() {
    let fixture = Fixture::create();
    let registry = builtin_registry(Dialect::Hearth);
    let input = "x".repeat(65_537);
    let args = serde_json::json!({"action": "write", "session_id": "pty-1", "input": input});
    let error = call(&registry, &fixture, "pty", &args.to_string())
        .await
        .err();
    assert_eq!(error.and_then(|e| e.field), Some("input".to_string()));
    let command = "x".repeat(100_001);
    let args = serde_json::json!({ "command": command });
    let error = call(&registry, &fixture, "exec", &args.to_string())
        .await
        .err();
    assert_eq!(error.and_then(|e| e.field), Some("command".to_string()));
}
