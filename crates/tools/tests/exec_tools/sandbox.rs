//! The sandbox every execution tool runs its programs in, with real programs on the real
//! kernel: writes only in the workspace and the session's temp folder, Hearth's data and the
//! home's secrets unreadable, the network off unless granted, the same for `process` and
//! `pty`, and the refusal when the kernel lacks Landlock until the user turns the sandbox off.
// Test code: a failed setup step panics with its error.
#![allow(clippy::unwrap_used)]

use crate::exec_tools::{err, hearth, ok, Fixture};
use crate::support::rerun_alone;
use hearth_sandbox::Mode;
use hearth_tools::ErrorKind;
use serde_json::{json, Value};
use std::net::TcpListener;

fn exec(command: &str) -> String {
    json!({ "command": command }).to_string()
}

/// Plants Hearth's own files in the fixture's data dir.
fn plant_data(fixture: &Fixture) {
    std::fs::write(fixture.ctx.data_dir.join("hearth.db"), "history").unwrap();
    std::fs::write(fixture.ctx.data_dir.join("config.toml"), "[security]\n").unwrap();
}

fn stderr(result: &Value) -> &str {
    result["stderr"].as_str().unwrap_or_default()
}

#[tokio::test]
async fn exec_writes_the_workspace_and_nothing_of_hearth_or_outside() {
    let fixture = Fixture::create();
    plant_data(&fixture);
    let registry = hearth();
    let made = ok(
        &registry,
        &fixture,
        "exec",
        &exec("echo ok > made.txt && cat made.txt"),
    )
    .await;
    assert_eq!(made["stdout"], "ok\n", "{made}");
    assert_eq!(made["isolation"], "landlock+netns", "{made}");
    let data = fixture.ctx.data_dir.display().to_string();
    let outside = std::env::temp_dir().join(crate::exec_tools::marker("outside"));
    for command in [
        format!("cat {data}/hearth.db"),
        format!("echo 'sandbox = \"off\"' >> {data}/config.toml"),
        format!("touch {}", outside.display()),
    ] {
        let result = ok(&registry, &fixture, "exec", &exec(&command)).await;
        assert_ne!(result["exit_code"], 0, "{command}: {result}");
        assert!(
            stderr(&result).contains("Permission denied"),
            "{command}: {result}"
        );
    }
    assert!(!outside.exists());
    let config = std::fs::read_to_string(fixture.ctx.data_dir.join("config.toml")).unwrap();
    assert_eq!(config, "[security]\n");
    // Programs run normally, and the session's temp folder is writable.
    let tools = "git init -q && git status --short && git --version && cargo --version && \
                 npm --version && python3 -c 'print(1)' && mktemp >/dev/null && echo fine";
    let result = ok(&registry, &fixture, "exec", &exec(tools)).await;
    let stdout = result["stdout"].as_str().unwrap();
    assert!(
        stdout.contains("git version") && stdout.contains("cargo "),
        "{result}"
    );
    assert!(stdout.ends_with("1\nfine\n"), "{result}");
}

/// Runs `exec` of a Python connection attempt to a canary on 127.0.0.1; returns the result and
/// how many connections the canary got.
async fn reach_canary(fixture: &Fixture) -> (Value, usize) {
    let canary = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = canary.local_addr().unwrap().port();
    let program = format!(
        "python3 -c 'import socket; socket.create_connection((\"127.0.0.1\", {port}), 2); \
         print(\"connected\")'"
    );
    let result = ok(&hearth(), fixture, "exec", &exec(&program)).await;
    canary.set_nonblocking(true).unwrap();
    let connections = std::iter::from_fn(|| canary.accept().ok()).count();
    (result, connections)
}

#[tokio::test]
async fn the_network_is_off_unless_the_settings_grant_it() {
    let mut fixture = Fixture::create();
    let (refused, connections) = reach_canary(&fixture).await;
    assert_ne!(refused["exit_code"], 0, "{refused}");
    assert_eq!(connections, 0);
    fixture.ctx.sandbox.network = true;
    let (reached, connections) = reach_canary(&fixture).await;
    assert_eq!(reached["stdout"], "connected\n", "{reached}");
    assert_eq!(reached["isolation"], "landlock");
    assert_eq!(connections, 1);
}

#[tokio::test]
async fn a_background_process_and_a_terminal_are_sandboxed_the_same() {
    let fixture = Fixture::create();
    plant_data(&fixture);
    let registry = hearth();
    let script = format!("cat {}/hearth.db", fixture.ctx.data_dir.display());
    let started = ok(
        &registry,
        &fixture,
        "process",
        &json!({"action": "start", "command": script}).to_string(),
    )
    .await;
    assert_eq!(started["isolation"], "landlock+netns", "{started}");
    let entry =
        crate::exec_tools::process::finished(&registry, &fixture, &started["process_id"]).await;
    assert_ne!(entry["exit_code"], 0, "{entry}");

    let term = crate::exec_tools::pty::Term::spawn(
        &registry,
        &fixture,
        Some(&format!("{script}; echo END$?")),
    )
    .await;
    let seen = term.read_until("END1").await;
    assert!(seen.contains("Permission denied"), "{seen}");
    let listed = ok(&registry, &fixture, "pty", r#"{"action": "list"}"#).await;
    assert_eq!(
        listed["sessions"][0]["isolation"], "landlock+seccomp",
        "{listed}"
    );
}

#[test]
fn the_home_secrets_are_unreadable() {
    let home = tempfile::tempdir().unwrap();
    std::fs::create_dir(home.path().join(".ssh")).unwrap();
    std::fs::write(home.path().join(".ssh/id_ed25519"), "PRIVATE KEY").unwrap();
    rerun_alone(
        module_path!(),
        "planted_home",
        &[("HOME", home.path().to_str().unwrap())],
    );
}

#[tokio::test]
#[ignore = "run by the_home_secrets_are_unreadable with a planted HOME"]
async fn planted_home() {
    let fixture = Fixture::create();
    let registry = hearth();
    let result = ok(
        &registry,
        &fixture,
        "exec",
        &exec("cat ~/.ssh/id_ed25519; touch ~/outside"),
    )
    .await;
    let errors = stderr(&result);
    assert!(errors.contains("id_ed25519: Permission denied"), "{result}");
    assert!(errors.contains("outside': Permission denied"), "{result}");
    assert!(
        !result["stdout"].as_str().unwrap().contains("PRIVATE"),
        "{result}"
    );
}

#[test]
fn without_landlock_commands_are_refused_until_the_sandbox_is_off() {
    rerun_alone(
        module_path!(),
        "no_landlock",
        &[("HEARTH_SANDBOX_UNAVAILABLE", "landlock")],
    );
}

#[tokio::test]
#[ignore = "run by without_landlock_commands_are_refused_until_the_sandbox_is_off"]
async fn no_landlock() {
    let mut fixture = Fixture::create();
    let registry = hearth();
    for tool in ["exec", "process"] {
        let args = json!({"action": "start", "command": "echo hi"});
        let args = if tool == "exec" {
            exec("echo hi")
        } else {
            args.to_string()
        };
        let refused = err(&registry, &fixture, tool, &args).await;
        assert_eq!(refused.kind, ErrorKind::Unavailable, "{refused:?}");
        assert!(refused.message.contains("sandbox = \"off\""), "{refused:?}");
    }
    fixture.ctx.sandbox.mode = Mode::Off;
    let ran = ok(&registry, &fixture, "exec", &exec("echo hi")).await;
    assert_eq!(ran["stdout"], "hi\n");
    assert_eq!(ran["isolation"], "none");
    assert!(ran["isolation_reason"]
        .as_str()
        .unwrap()
        .contains("sandbox is off"));
}

#[test]
fn without_user_namespaces_seccomp_cuts_the_network() {
    rerun_alone(
        module_path!(),
        "no_userns",
        &[("HEARTH_SANDBOX_UNAVAILABLE", "userns")],
    );
}

#[tokio::test]
#[ignore = "run by without_user_namespaces_seccomp_cuts_the_network"]
async fn no_userns() {
    let fixture = Fixture::create();
    let (refused, connections) = reach_canary(&fixture).await;
    assert_eq!(refused["isolation"], "landlock+seccomp", "{refused}");
    assert!(stderr(&refused).contains("Permission denied"), "{refused}");
    assert_eq!(connections, 0);
}

#[tokio::test]
async fn the_settings_add_writable_folders_and_unreadable_paths() {
    let mut fixture = Fixture::create();
    let shared = tempfile::tempdir().unwrap();
    fixture.write("private/notes.txt", "private");
    fixture.ctx.sandbox.writable = vec![shared.path().to_path_buf()];
    fixture.ctx.sandbox.denied = vec![fixture.workspace().join("private")];
    let command = format!(
        "echo shared > {}/made.txt; cat private/notes.txt",
        shared.path().display()
    );
    let result = ok(&hearth(), &fixture, "exec", &exec(&command)).await;
    assert_eq!(
        std::fs::read_to_string(shared.path().join("made.txt")).unwrap(),
        "shared\n"
    );
    assert!(
        stderr(&result).contains("notes.txt: Permission denied"),
        "{result}"
    );
}
